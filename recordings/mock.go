package recordings

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// Match rules of a Mock.
const (
	MatchParams = "method+params" // same method and params (params' _meta ignored)
	MatchMethod = "method"        // same method, whatever the params
)

// codeUnsupportedVersion is MCP's UnsupportedProtocolVersionError.
const codeUnsupportedVersion = -32022

// MockOptions shape a Mock.
type MockOptions struct {
	// Match is MatchParams (the default) or MatchMethod.
	Match string
	// Timing delays each answer by the recorded latency.
	Timing bool
	// Log receives one line per message handled; nil discards them.
	Log io.Writer
}

// recorded is one request of a recording and the response it got, both left in the file
// until used.
type recorded struct {
	t       *Transcript
	key     uint64 // hash of paramsKey
	req     int32  // index of the request in t's frames
	resp    int32  // index of the response
	latency time.Duration
}

// where is the recorded response's file and line.
func (r *recorded) where() string {
	return fmt.Sprintf("%s line %d", r.t.Path, r.t.r.Line(int(r.t.frames[r.resp].at)))
}

// response reads the recorded response frame, and whether the recording masked it.
func (r *recorded) response() ([]byte, bool, error) {
	e, err := r.t.entry(int(r.resp))
	if err != nil {
		return nil, false, err
	}
	return e.Event.Frame.Raw, e.Event.Recv.Masked, nil
}

// params reads the recorded request's params, without _meta.
func (r *recorded) params() any {
	e, err := r.t.entry(int(r.req))
	if err != nil {
		return nil
	}
	v, _ := paramsValue(e.Event.Frame.Params)
	return v
}

// keyHash is the hash a recorded request is found by: FNV-1a of its paramsKey.
func keyHash(k string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(k); i++ {
		h ^= uint64(k[i])
		h *= 1099511628211
	}
	return h
}

// Mock serves recordings as an MCP server: a request that matches a recorded one gets the
// recorded response, with the incoming id. The handshake (initialize or server/discover,
// whichever the recordings hold) is answered from the recordings too. It holds a few dozen
// bytes per recorded request and reads the responses from the files as it serves them.
type Mock struct {
	o        MockOptions
	init     *recorded // the recorded initialize exchange
	discover *recorded // the recorded server/discover exchange
	byMethod map[string][]*recorded
	byKey    map[matchKey][]*recorded

	mu   sync.Mutex
	next map[matchKey]int // → index of the next answer
	logw sync.Mutex
}

// matchKey is what a request is matched by: its method, and the hash of its params (0
// when matching by method only).
type matchKey struct {
	method string
	params uint64
}

// NewMock builds a mock from one or more recordings, which it reads from while it serves
// (do not close them before). Where several recordings answer the same request, their
// answers are given in the order of the files, the last one repeated.
func NewMock(ts []*Transcript, o MockOptions) (*Mock, error) {
	switch o.Match {
	case "":
		o.Match = MatchParams
	case MatchParams, MatchMethod:
	default:
		return nil, fmt.Errorf("match rule %q: want %s or %s", o.Match, MatchParams, MatchMethod)
	}
	m := &Mock{o: o, byMethod: map[string][]*recorded{}, byKey: map[matchKey][]*recorded{}, next: map[matchKey]int{}}
	for _, t := range ts {
		for fi := range t.frames {
			fr := &t.frames[fi]
			if fr.dir != protocol.ClientToServer || fr.kind != protocol.KindRequest || fr.resp < 0 {
				continue
			}
			e, err := t.entry(fi)
			if err != nil || e.Event.Frame.Kind != protocol.KindRequest {
				continue
			}
			f := e.Event.Frame
			resp := &t.frames[fr.resp]
			r := &recorded{t: t, key: keyHash(paramsKey(f.Params)), req: int32(fi), resp: fr.resp}
			if m.o.Timing {
				if re, err := t.entry(int(fr.resp)); err == nil {
					r.latency = re.Event.Corr.Latency
				}
			}
			ok := resp.kind == protocol.KindResult
			switch f.Method {
			case "initialize":
				if ok {
					m.init = r
				}
			case "server/discover":
				if ok {
					m.discover = r
				}
			default:
				m.byMethod[f.Method] = append(m.byMethod[f.Method], r)
				k := matchKey{f.Method, r.key}
				m.byKey[k] = append(m.byKey[k], r)
			}
		}
	}
	if m.init == nil && m.discover == nil {
		return nil, errors.New("the recording holds no successful handshake (initialize or server/discover): there is nothing to serve")
	}
	return m, nil
}

// Handle answers one frame (a line on stdio, a POST body on HTTP). It returns nil when
// there is nothing to send back (notifications, responses).
func (m *Mock) Handle(ctx context.Context, raw []byte) []byte {
	f := protocol.Decode(raw)
	switch f.Kind {
	case protocol.KindBatch:
		var out [][]byte
		for _, member := range f.Batch {
			if r := m.handle(ctx, member); r != nil {
				out = append(out, r)
			}
		}
		if len(out) == 0 {
			return nil
		}
		return append(append([]byte{'['}, bytes.Join(out, []byte{','})...), ']')
	case protocol.KindInvalid:
		if !json.Valid(raw) {
			m.logf("unparsable frame → parse error")
			return errorFrame(protocol.ID{Raw: json.RawMessage("null")}, protocol.ParseError, "parse error: the message is not JSON", nil)
		}
	}
	return m.handle(ctx, f)
}

func (m *Mock) handle(ctx context.Context, f *protocol.Frame) []byte {
	switch f.Kind {
	case protocol.KindNotification:
		m.logf("%s (notification) accepted", f.Method)
		return nil
	case protocol.KindResult, protocol.KindError:
		return nil
	case protocol.KindRequest:
	default:
		m.logf("invalid request → error")
		id := f.ID
		if id.IsZero() {
			id = protocol.ID{Raw: json.RawMessage("null")}
		}
		return errorFrame(id, protocol.InvalidRequest, "invalid request: not a JSON-RPC 2.0 request", nil)
	}
	switch f.Method {
	case "initialize":
		if m.init == nil {
			return m.eraError(f, "this recording holds a stateless session (server/discover, protocol %s); initialize is not in it: connect with --protocol %s", "server/discover", m.discover)
		}
		return m.answer(ctx, f, m.init)
	case "server/discover":
		if m.discover == nil {
			return m.eraError(f, "this recording holds a stateful session (initialize, protocol %s); server/discover is not in it: connect with --protocol %s", "initialize", m.init)
		}
		return m.answer(ctx, f, m.discover)
	}
	list := m.byMethod[f.Method]
	if len(list) == 0 {
		if f.Method == "ping" {
			m.logf("ping → {}")
			b, _ := protocol.EncodeResult(f.ID, json.RawMessage(`{}`))
			return b
		}
		m.logf("%s → not in the recording", f.Method)
		return errorFrame(f.ID, protocol.MethodNotFound, fmt.Sprintf("method %q is not in the recording (it holds %s)", f.Method, m.methodList()), nil)
	}
	key := matchKey{method: f.Method}
	candidates := list
	if m.o.Match == MatchParams {
		key.params = keyHash(paramsKey(f.Params))
		candidates = m.byKey[key]
		if len(candidates) == 0 {
			m.logf("%s → no recorded response for these params", f.Method)
			return errorFrame(f.ID, protocol.InvalidParams, "no recorded response for these params", m.nearest(f, list))
		}
	}
	m.mu.Lock()
	i := min(m.next[key], len(candidates)-1)
	m.next[key] = i + 1
	m.mu.Unlock()
	return m.answer(ctx, f, candidates[i])
}

// answer sends the recorded response with the incoming id, after the recorded latency when
// asked to.
func (m *Mock) answer(ctx context.Context, f *protocol.Frame, r *recorded) []byte {
	if m.o.Timing && r.latency > 0 {
		t := time.NewTimer(r.latency)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
	resp, masked, err := r.response()
	if err != nil {
		m.logf("%s → %v", f.Method, err)
		return errorFrame(f.ID, protocol.InternalError, "the recorded response cannot be read: "+err.Error(), nil)
	}
	if masked {
		m.logf("%s → recorded response (%s), masked: its secrets are served as %s, not as the server sent them", f.Method, r.where(), Mask)
	} else {
		m.logf("%s → recorded response (%s)", f.Method, r.where())
	}
	out, err := withMember(resp, "id", f.ID.Raw)
	if err != nil {
		return resp // a malformed recorded response is served as it was
	}
	return out
}

// eraError answers a handshake of the era the recording does not hold.
func (m *Mock) eraError(f *protocol.Frame, format, haveMethod string, have *recorded) []byte {
	rev := recordedRevision(haveMethod, have)
	msg := fmt.Sprintf(format, rev, rev)
	m.logf("%s → %s", f.Method, msg)
	return errorFrame(f.ID, codeUnsupportedVersion, msg, map[string]any{"supported": []string{rev}})
}

// recordedRevision is the protocol revision of a recorded handshake result (of method):
// the one the server chose, else the last it listed.
func recordedRevision(method string, r *recorded) string {
	resp, _, _ := r.response()
	info, _ := session.HandshakeInfo(method, "", protocol.Decode(resp).Result)
	switch {
	case info.Revision != "":
		return string(info.Revision)
	case len(info.SupportedVersions) > 0:
		return info.SupportedVersions[len(info.SupportedVersions)-1]
	}
	return "unknown"
}

// maxNearest bounds how many recorded requests nearest reads from the file.
const maxNearest = 1000

// nearest describes the recorded params closest to the incoming ones.
func (m *Mock) nearest(f *protocol.Frame, list []*recorded) map[string]any {
	got, _ := paramsValue(f.Params)
	gotJSON, _ := json.Marshal(got)
	var best any
	bestN := -1
	for i, r := range list {
		if i == maxNearest {
			break
		}
		p := r.params()
		rj, _ := json.Marshal(p)
		n := len(Diff(rj, gotJSON, nil))
		if bestN < 0 || n < bestN {
			best, bestN = p, n
		}
	}
	return map[string]any{"method": f.Method, "params": got, "nearest": best, "recorded": len(list)}
}

func (m *Mock) methodList() string {
	names := make([]string, 0, len(m.byMethod)+2)
	for k := range m.byMethod {
		names = append(names, k)
	}
	sort.Strings(names)
	if m.init != nil {
		names = append([]string{"initialize"}, names...)
	}
	if m.discover != nil {
		names = append([]string{"server/discover"}, names...)
	}
	return strings.Join(names, ", ")
}

func errorFrame(id protocol.ID, code int64, msg string, data any) []byte {
	b, err := protocol.EncodeError(id, code, msg, data)
	if err != nil {
		b, _ = protocol.EncodeError(id, code, msg, nil)
	}
	return b
}

func (m *Mock) logf(format string, args ...any) {
	if m.o.Log == nil {
		return
	}
	m.logw.Lock()
	defer m.logw.Unlock()
	fmt.Fprintf(m.o.Log, "mock: "+format+"\n", args...)
}

// maxMessage bounds one incoming message.
const maxMessage = 64 << 20

// ServeStdio serves newline-delimited JSON-RPC from in to out until in ends or ctx is done.
// Requests are answered concurrently (with Timing, a slow answer does not hold up others).
func (m *Mock) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	br := bufio.NewReaderSize(in, 64<<10)
	var wmu sync.Mutex
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			wg.Add(1)
			go func(line []byte) {
				defer wg.Done()
				if resp := m.Handle(ctx, bytes.TrimRight(line, "\r\n")); resp != nil {
					wmu.Lock()
					_, _ = out.Write(append(resp, '\n'))
					wmu.Unlock()
				}
			}(line)
		}
		if err == io.EOF || ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return fmt.Errorf("mock: read stdin: %w", err)
		}
	}
}

// Handler serves Streamable HTTP with JSON responses (no event streams): POST a message,
// get its response as application/json, or 202 Accepted for notifications.
func (m *Mock) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			http.Error(w, "this mock serves recorded responses to POSTed messages only", http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxMessage+1))
		if err != nil || len(body) > maxMessage {
			http.Error(w, "cannot read the message", http.StatusBadRequest)
			return
		}
		resp := m.Handle(r.Context(), body)
		if resp == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(resp)
	})
}
