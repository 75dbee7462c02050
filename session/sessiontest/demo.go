package sessiontest

import (
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/session/demo"
)

// StartDemoHTTP serves the built-in demo server (demo.Handler) on a local port for the
// duration of the test and returns its Streamable HTTP URL (…/mcp) and its HTTP+SSE URL
// (…/sse). The demo's stderr lines go to the test log.
func StartDemoHTTP(t testing.TB) (streamable, sse string) {
	t.Helper()
	w := &logWriter{t: t}
	srv := httptest.NewServer(demo.Handler(w))
	t.Cleanup(func() {
		// Event streams stay open until their connection ends: cut them first, or Close
		// would wait for them.
		srv.CloseClientConnections()
		srv.Close()
		w.stop()
	})
	return srv.URL + "/mcp", srv.URL + "/sse"
}

// logWriter writes to the test log until the test ends, and discards afterwards (logging
// after a test has finished panics).
type logWriter struct {
	mu   sync.Mutex
	t    testing.TB
	done bool
}

func (w *logWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.done {
		w.t.Logf("%s", p)
	}
	return len(p), nil
}

func (w *logWriter) stop() {
	w.mu.Lock()
	w.done = true
	w.mu.Unlock()
}

// StartDemoAuthHTTP serves the demo with its authorization server (demo.AuthHandler, as
// `demo --http --auth` does) on a local port for the duration of the test and returns its
// Streamable HTTP URL (…/mcp); opts.BaseURL is filled in. The demo's stderr lines go to
// the test log.
func StartDemoAuthHTTP(t testing.TB, opts demo.AuthOptions) string {
	t.Helper()
	w := &logWriter{t: t}
	srv := httptest.NewUnstartedServer(nil)
	opts.BaseURL = "http://" + srv.Listener.Addr().String()
	h, err := demo.AuthHandler(w, opts)
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = h
	srv.Start()
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		w.stop()
	})
	return opts.BaseURL + "/mcp"
}
