package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// waitTimeout bounds every wait in these tests.
const waitTimeout = 10 * time.Second

// wireMsg is one JSON-RPC message read from the server, with its raw line.
type wireMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
	raw string
}

func (m wireMsg) isResponse(id int) bool {
	return m.Method == "" && string(m.ID) == fmt.Sprint(id)
}

func (m wireMsg) isNotification(method string) bool {
	return m.Method == method && m.ID == nil
}

func (m wireMsg) isRequest(method string) bool {
	return m.Method == method && m.ID != nil
}

// result decodes the result of a response into v, failing on an error
// response.
func (m wireMsg) result(t *testing.T, v any) {
	t.Helper()
	if m.Error != nil {
		t.Fatalf("want a result, got error: %s", m.raw)
	}
	if err := json.Unmarshal(m.Result, v); err != nil {
		t.Fatalf("decode result %s: %v", m.Result, err)
	}
}

// lineClient speaks raw newline-delimited JSON-RPC to a server. It keeps
// the messages it has read but not yet consumed, so tests can wait for
// messages in any order.
type lineClient struct {
	t       *testing.T
	w       io.Writer
	msgs    chan wireMsg
	backlog []wireMsg
	nextID  int
}

func newLineClient(t *testing.T, w io.Writer, msgs chan wireMsg) *lineClient {
	return &lineClient{t: t, w: w, msgs: msgs, nextID: 1}
}

// readLines decodes every line of r into msgs and closes msgs at EOF.
func readLines(r io.Reader, msgs chan<- wireMsg) {
	defer close(msgs)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var m wireMsg
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			m.Method = "<undecodable>"
		}
		m.raw = sc.Text()
		msgs <- m
	}
}

// send writes one raw line.
func (c *lineClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, line+"\n"); err != nil {
		c.t.Fatalf("write %s: %v", line, err)
	}
}

// call sends a request with the next id and raw params (may be "") and
// returns the id.
func (c *lineClient) call(method, params string) int {
	c.t.Helper()
	id := c.nextID
	c.nextID++
	line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q`, id, method)
	if params != "" {
		line += `,"params":` + params
	}
	c.send(line + "}")
	return id
}

// await returns the first unconsumed message matching pred.
func (c *lineClient) await(what string, pred func(wireMsg) bool) wireMsg {
	c.t.Helper()
	for i, m := range c.backlog {
		if pred(m) {
			c.backlog = append(c.backlog[:i:i], c.backlog[i+1:]...)
			return m
		}
	}
	deadline := time.NewTimer(waitTimeout)
	defer deadline.Stop()
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				c.t.Fatalf("connection closed while waiting for %s", what)
			}
			if pred(m) {
				return m
			}
			c.backlog = append(c.backlog, m)
		case <-deadline.C:
			var seen []string
			for _, m := range c.backlog {
				seen = append(seen, m.raw)
			}
			c.t.Fatalf("timed out waiting for %s; unconsumed:\n%s", what, strings.Join(seen, "\n"))
		}
	}
}

func (c *lineClient) response(id int) wireMsg {
	c.t.Helper()
	return c.await(fmt.Sprintf("response %d", id), func(m wireMsg) bool { return m.isResponse(id) })
}

func (c *lineClient) notification(method string) wireMsg {
	c.t.Helper()
	return c.await("notification "+method, func(m wireMsg) bool { return m.isNotification(method) })
}

func (c *lineClient) request(method string) wireMsg {
	c.t.Helper()
	return c.await("request "+method, func(m wireMsg) bool { return m.isRequest(method) })
}

// roundTrip sends a request and waits for its response.
func (c *lineClient) roundTrip(method, params string) wireMsg {
	c.t.Helper()
	return c.response(c.call(method, params))
}

// reply answers a server→client request with a raw result.
func (c *lineClient) reply(req wireMsg, result string) {
	c.t.Helper()
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result))
}

// syncBuffer is a goroutine-safe stderr that tests can wait on.
type syncBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{}
}

func newSyncBuffer() *syncBuffer { return &syncBuffer{changed: make(chan struct{}, 1)} }

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case b.changed <- struct{}{}:
	default:
	}
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor waits until the buffer contains s.
func (b *syncBuffer) waitFor(t *testing.T, s string) {
	t.Helper()
	b.waitForCount(t, s, 1)
}

// waitForCount waits until the buffer contains s at least n times.
func (b *syncBuffer) waitForCount(t *testing.T, s string, n int) {
	t.Helper()
	deadline := time.NewTimer(waitTimeout)
	defer deadline.Stop()
	for strings.Count(b.String(), s) < n {
		select {
		case <-b.changed:
		case <-deadline.C:
			t.Fatalf("stderr never contained %q; got:\n%s", s, b.String())
		}
	}
}

// stdioServer is a demo server on in-memory pipes.
type stdioServer struct {
	*lineClient
	stderr *syncBuffer
}

// startStdio runs ServeStdio on pipes and stops it when the test ends,
// checking that it returns nil once stdin is closed.
func startStdio(t *testing.T) *stdioServer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	stderr := newSyncBuffer()
	done := make(chan error, 1)
	go func() {
		done <- ServeStdio(context.Background(), inR, outW, stderr)
		outW.Close()
	}()
	msgs := make(chan wireMsg, 256)
	go readLines(outR, msgs)
	t.Cleanup(func() {
		inW.Close()
		go func() {
			for range msgs { // drain so the server never blocks writing
			}
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ServeStdio: %v", err)
			}
		case <-time.After(waitTimeout):
			t.Errorf("ServeStdio did not return after stdin was closed")
		}
	})
	return &stdioServer{lineClient: newLineClient(t, inW, msgs), stderr: stderr}
}

// Common decoded shapes.
type (
	content struct {
		Type     string          `json:"type"`
		Text     string          `json:"text"`
		Data     string          `json:"data"`
		MIMEType string          `json:"mimeType"`
		URI      string          `json:"uri"`
		Resource json.RawMessage `json:"resource"`
	}
	toolResult struct {
		ResultType        string                     `json:"resultType"`
		Content           []content                  `json:"content"`
		StructuredContent json.RawMessage            `json:"structuredContent"`
		IsError           bool                       `json:"isError"`
		InputRequests     map[string]json.RawMessage `json:"inputRequests"`
		RequestState      string                     `json:"requestState"`
		Meta              map[string]json.RawMessage `json:"_meta"`
	}
)

// text joins the text blocks of a tool result.
func (r toolResult) text() string {
	var parts []string
	for _, c := range r.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}
