package demo

import (
	"net/http"
	"os"
	"strings"
	"time"
)

// TimingEnv names the environment variable that makes the HTTP demo server log how long
// it took to handle each HTTP request (`demo: timing POST tools/list 0.412ms`): the
// server's own time, to set a client's against.
const TimingEnv = "MCPSCOPE_DEMO_TIMING"

// Timed wraps h so that done is called with the method and the handling time of every
// request: from the handler's start until it returns, or, for an event stream that stays
// open (GET), until its headers were written.
func Timed(h http.Handler, done func(r *http.Request, took time.Duration)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		tw := &timedWriter{ResponseWriter: w, start: start}
		if r.Method == http.MethodGet {
			tw.get = true
		}
		h.ServeHTTP(tw, r)
		took := time.Since(start)
		if tw.get && tw.headers > 0 {
			took = tw.headers
		}
		done(r, took)
	})
}

// timedWriter notes when a GET's headers were written.
type timedWriter struct {
	http.ResponseWriter
	start   time.Time
	get     bool
	headers time.Duration
}

func (w *timedWriter) WriteHeader(code int) {
	if w.get && w.headers == 0 {
		w.headers = time.Since(w.start)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *timedWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *timedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// timing wraps h with Timed logging to the demo's log when TimingEnv is set.
func (d *demo) timing(h http.Handler) http.Handler {
	if os.Getenv(TimingEnv) == "" {
		return h
	}
	return Timed(h, func(r *http.Request, took time.Duration) {
		what := strings.TrimSpace(r.Header.Get("Mcp-Method"))
		d.log.printf("timing %s %s %.3fms", r.Method, what, float64(took.Microseconds())/1000)
	})
}
