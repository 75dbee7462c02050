package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/protocol"
)

// ServeStdio serves one demo session over newline-delimited JSON-RPC: it
// reads requests from stdin and writes responses and notifications to
// stdout. Human-readable lines go to stderr.
//
// It returns nil when stdin reaches end of file or ctx is done. stdin is
// closed when ServeStdio returns if it implements [io.Closer], so that a
// cancelled ctx does not leave a read blocked; stdout is never closed.
func ServeStdio(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer) error {
	d := newDemo(Options{Logger: stderr})
	out := &lineWriter{w: stdout, log: d.log}
	streams := &stdioStreams{d: d, ctx: ctx, out: out}
	in := parseGuard(stdin, out, d.log, streams.take)
	t := &mcp.IOTransport{Reader: in, Writer: nopWriteCloser{out}}
	d.log.printf("serving MCP on stdio (protocol revisions 2024-11-05 to 2026-07-28)")
	err := d.server.Run(ctx, t)
	if ctx.Err() != nil || errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("demo server on stdio: %w", err)
	}
	return nil
}

// nopWriteCloser keeps the transport from closing the caller's stdout.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// sessionTimeout closes stateful HTTP sessions that have been idle this long.
const sessionTimeout = 30 * time.Minute

// Handler returns the HTTP handler of the demo server:
//
//   - /mcp is the Streamable HTTP endpoint. A request whose
//     MCP-Protocol-Version header is 2026-07-28 or later is served
//     statelessly, as that revision requires; any other request belongs to a
//     stateful session started by initialize and named by Mcp-Session-Id.
//   - /sse is the HTTP+SSE transport of revision 2024-11-05: GET opens the
//     event stream, whose first event names the URL to POST messages to.
//   - /mcp/server-card is the demo's server card (the Server Cards extension),
//     listed in the AI Catalog at /.well-known/ai-catalog.json.
//
// All sessions share one demo server, so toggle_tools and touch_resource
// are seen by every client.
func Handler(stderr io.Writer) http.Handler {
	d := newDemo(Options{Logger: stderr})
	return d.handler()
}

func (d *demo) handler() http.Handler {
	get := func(*http.Request) *mcp.Server { return d.server }
	stateful := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{SessionTimeout: sessionTimeout})
	stateless := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{Stateless: true, PropagateRequestCancellation: true})
	mux := http.NewServeMux()
	mux.Handle("/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d.serveEventStream(w, r) {
			return
		}
		if r.Header.Get("Mcp-Protocol-Version") >= "2026-07-28" {
			stateless.ServeHTTP(w, r)
			return
		}
		if unknownMethod(w, r) {
			return
		}
		stateful.ServeHTTP(w, r)
	}))
	mux.Handle("/sse", mcp.NewSSEHandler(get, nil))
	d.serveCard(mux)
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, "mcpscope demo server\n\nStreamable HTTP: POST /mcp\nHTTP+SSE (2024-11-05): GET /sse\n"+
			"Server card: GET "+CardPath+" (listed in GET /.well-known/ai-catalog.json)\n")
	})
	return mux
}

// unknownMethod answers a stateful POST of one request whose method no revision defines
// with JSON-RPC error -32601, as the spec asks; the SDK's handler answers HTTP 400 without a
// JSON-RPC response. It reports whether it answered.
func unknownMethod(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodPost || r.Body == nil {
		return false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return false
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(body, &req) != nil || req.ID == nil || req.Method == "" || knownMethod(req.Method) {
		return false
	}
	w.Header().Set("Content-Type", "application/json")
	msg, _ := json.Marshal("Method not found: " + req.Method)
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":%s}}`, req.ID, msg)
	return true
}

// knownMethod reports whether any revision, or an extension, defines method for a client.
func knownMethod(method string) bool {
	for _, rev := range protocol.Revisions {
		if _, ok := protocol.Lookup(rev, method, protocol.ClientToServer); ok {
			return true
		}
	}
	_, ok := protocol.LookupExtension(method, protocol.ClientToServer)
	return ok
}

// ServeHTTP listens on addr (for example "127.0.0.1:8080", or ":0" for any
// free port), prints the endpoint URLs to stderr and serves [Handler] until
// ctx is done. It returns nil after a clean shutdown.
func ServeHTTP(ctx context.Context, addr string, stderr io.Writer) error {
	d := newDemo(Options{Logger: stderr})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("demo server: listen on %s: %w", addr, err)
	}
	base := "http://" + ln.Addr().String()
	d.log.printf("listening on %s/mcp (Streamable HTTP) and %s/sse (HTTP+SSE)", base, base)
	return serveListener(ctx, ln, d.timing(d.handler()))
}

// serveListener serves handler on ln until ctx is done, then shuts down.
func serveListener(ctx context.Context, ln net.Listener, handler http.Handler) error {
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		// Request contexts end with ctx, which also ends open SSE streams.
		BaseContext: func(net.Listener) context.Context { return ctx },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("demo server: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		srv.Close()
	}
	<-errc // http.ErrServerClosed
	return nil
}

// parseGuard passes stdin's lines on to the server, except lines that are not JSON: those
// get a -32700 Parse error answer (id null, as JSON-RPC says) and the server keeps running,
// so a client testing its error handling sees the answer rather than a dead server.
// take, when not nil, is offered each JSON line first and keeps the ones it serves itself
// (events/stream, events_push.go).
func parseGuard(stdin io.Reader, out *lineWriter, log *lineLogger, take func([]byte) bool) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		r := bufio.NewReaderSize(stdin, 64<<10)
		for {
			line, err := r.ReadBytes('\n')
			if body := bytes.TrimSpace(line); len(body) > 0 {
				if json.Valid(body) {
					if take != nil && take(body) {
						continue
					}
					out.noteCancel(body)
					if _, werr := pw.Write(append(body, '\n')); werr != nil {
						return
					}
				} else {
					log.printf("not JSON on stdin (%d bytes): answered -32700 Parse error", len(body))
					_, _ = out.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` + "\n"))
				}
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}

// lineWriter writes whole lines under a lock, so the server's messages and parse-error
// answers never interleave mid-line. It also keeps the promise cancellation asks for: the
// SDK answers a request whose handler ended because it was cancelled with an error
// response, which the spec says a server should not send, so that response is dropped.
type lineWriter struct {
	mu        sync.Mutex
	w         io.Writer
	buf       []byte
	log       *lineLogger
	cancelled map[string]bool // ids named by notifications/cancelled, until their response
}

// noteCancel remembers the request a notifications/cancelled line names.
func (l *lineWriter) noteCancel(line []byte) {
	if !bytes.Contains(line, []byte(`"notifications/cancelled"`)) {
		return
	}
	var n struct {
		Method string `json:"method"`
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &n) != nil || n.Method != "notifications/cancelled" || n.Params.RequestID == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cancelled == nil {
		l.cancelled = map[string]bool{}
	}
	l.cancelled[string(n.Params.RequestID)] = true
}

// dropLocked reports whether line is the response to a cancelled request.
func (l *lineWriter) dropLocked(line []byte) bool {
	if len(l.cancelled) == 0 {
		return false
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
	}
	if json.Unmarshal(line, &m) != nil || m.Method != nil || !l.cancelled[string(m.ID)] {
		return false
	}
	delete(l.cancelled, string(m.ID))
	if l.log != nil {
		l.log.printf("no response to request %s: it was cancelled", m.ID)
	}
	return true
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		line := l.buf[:i+1]
		if !l.dropLocked(bytes.TrimSpace(line)) {
			if _, err := l.w.Write(line); err != nil {
				return 0, err
			}
		}
		l.buf = append(l.buf[:0], l.buf[i+1:]...)
	}
	return len(p), nil
}
