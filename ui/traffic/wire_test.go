package traffic

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
)

// evWire builds session events the way a session publishes them: real frames decoded by
// protocol.Decode, with the correlation the session would attach (the ui package's tests
// have the same helper, with more kinds of event).
type evWire struct {
	seq uint64
	now time.Time
}

func newEvWire() *evWire {
	return &evWire{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

// ev advances the clock by d and stamps ev with it and the next sequence number.
func (w *evWire) ev(d time.Duration, ev *session.Event) *session.Event {
	w.seq++
	w.now = w.now.Add(d)
	ev.Seq, ev.Time = w.seq, w.now
	return ev
}

func (w *evWire) frame(d time.Duration, dir protocol.Direction, raw string, corr session.Correlation) *session.Event {
	return w.ev(d, &session.Event{Kind: session.EvFrame, Dir: dir, Frame: protocol.Decode([]byte(raw)), Corr: corr})
}

// req is a request from dir with an integer id.
func (w *evWire) req(dir protocol.Direction, id int, method, params string) *session.Event {
	return w.frame(time.Millisecond, dir, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params), session.Correlation{})
}

// res answers req after d with result.
func (w *evWire) res(d time.Duration, req *session.Event, result string) *session.Event {
	return w.answer(d, req, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, req.Frame.ID, result))
}

// rpcErr answers req after d with a JSON-RPC error.
func (w *evWire) rpcErr(d time.Duration, req *session.Event, code int, msg string) *session.Event {
	return w.answer(d, req, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%q}}`, req.Frame.ID, code, msg))
}

func (w *evWire) answer(d time.Duration, req *session.Event, raw string) *session.Event {
	corr := session.Correlation{Method: req.Frame.Method, RequestSeq: req.Seq}
	if req.Dir == protocol.ClientToServer {
		corr.Latency = d // the session measures latency of its own requests only
	}
	back := protocol.ClientToServer
	if req.Dir == protocol.ClientToServer {
		back = protocol.ServerToClient
	}
	return w.frame(d, back, raw, corr)
}

// note is a notification from dir; corr links it when the session would.
func (w *evWire) note(dir protocol.Direction, method, params string, corr session.Correlation) *session.Event {
	return w.frame(time.Millisecond, dir, fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s}`, method, params), corr)
}

// progress is a notifications/progress for req.
func (w *evWire) progress(req *session.Event, done, total float64, msg string) *session.Event {
	p := &session.Progress{Token: "t", Progress: done, Total: total, Message: msg}
	return w.note(protocol.ServerToClient, "notifications/progress",
		fmt.Sprintf(`{"progressToken":"t","progress":%g,"total":%g,"message":%q}`, done, total, msg),
		session.Correlation{RequestSeq: req.Seq, Method: req.Frame.Method, Progress: p})
}

func (w *evWire) stderr(text string) *session.Event {
	return w.ev(time.Millisecond, &session.Event{Kind: session.EvStderr, Text: text})
}

func (w *evWire) http(status int, url string) *session.Event {
	return w.ev(time.Millisecond, &session.Event{Kind: session.EvHTTP, HTTP: &transport.HTTPExchange{
		Purpose: "post", Method: "POST", URL: url, Status: status, Started: w.now, Duration: 3 * time.Millisecond}})
}

func (w *evWire) failure(req *session.Event, text string) *session.Event {
	return w.ev(time.Millisecond, &session.Event{Kind: session.EvError, Text: text,
		Corr: session.Correlation{RequestSeq: req.Seq, Method: req.Frame.Method}})
}

// logNote is a notifications/message frame whose data is size bytes of text.
func logNote(w *evWire, n, size int) *session.Event {
	data := fmt.Sprintf("%d %s", n, strings.Repeat("f", size))
	return w.note(dirIn, "notifications/message", `{"level":"info","logger":"flood","data":"`+data+`"}`, session.Correlation{})
}

const (
	dirOut = protocol.ClientToServer
	dirIn  = protocol.ServerToClient
)
