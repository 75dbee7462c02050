package session

import (
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/transport"
)

// EventKind says what an Event carries.
type EventKind uint8

const (
	EvFrame     EventKind = iota + 1 // a JSON-RPC frame, either direction
	EvStderr                         // one line the server wrote on stderr
	EvHTTP                           // one HTTP exchange
	EvTransport                      // a transport note (stream opened, reconnect, fallback, spawn)
	EvExit                           // the server process ended
	EvState                          // the session changed state or took a handshake step
	EvError                          // something failed (timeout, send error, responder error)
	EvLists                          // a cached list (tools, resources, ...) was fetched again
	EvGap                            // a consumer fell behind: events it lost (Gap), not a session event
)

var eventKindNames = [...]string{"", "frame", "stderr", "http", "transport", "exit", "state", "error", "lists", "gap"}

func (k EventKind) String() string {
	if int(k) < len(eventKindNames) {
		return eventKindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// State of a session.
type State uint8

const (
	StateIdle State = iota
	StateConnecting
	StateHandshaking
	StateReady
	StateClosed
)

var stateNames = [...]string{"idle", "connecting", "handshaking", "ready", "closed"}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "?"
}

// Event is one thing that happened in a session. Events are published in one total order
// (Seq) and are never changed after publication: consumers may keep the pointer.
type Event struct {
	Seq  uint64
	Time time.Time // wall clock with a monotonic reading
	Kind EventKind

	// Frames.
	Dir   protocol.Direction
	Frame *protocol.Frame
	Recv  transport.RecvInfo // how an incoming frame arrived
	Corr  Correlation
	// Lane is "" for the wire to the server and LaneApp for an MCP App's postMessage
	// conversation with the host (applane.go). On that lane Dir is ServerToClient for a
	// message from the app to the host and ClientToServer for one from the host to the app.
	Lane string

	// Everything else.
	Text  string // stderr line, note text, state detail, error message
	Note  string // transport note kind; list kind for EvLists
	HTTP  *transport.HTTPExchange
	State State
	Exit  *transport.ExitInfo
	// Findings of an event that is not a frame (a frame's are in Frame.Findings): an HTTP
	// exchange's redirect that withheld or forwarded credentials or was not followed.
	Findings []protocol.Finding
	Gap      *Gap // EvGap: what was lost; such an event has Seq 0 and the time of the last loss
}

// Correlation ties a frame to the request it belongs to.
type Correlation struct {
	// Method of the request a response answers (responses carry no method of their own).
	Method string
	// RequestSeq is the Seq of the request event this frame answers or refers to (responses,
	// progress and cancelled notifications, input_required retries); 0 when none. A batch
	// mcpscope sent is the request of every response to its members (a batch of responses
	// names it once); a notifications/cancelled mcpscope sent names the request it cancels.
	RequestSeq uint64
	// Latency from request to response, for responses.
	Latency time.Duration
	// ChainSeq is the Seq of the first request of a 2026-07-28 input_required chain, on every
	// frame of the chain after the first; 0 otherwise.
	ChainSeq uint64
	// Progress carries the parsed progress of a notifications/progress frame.
	Progress *Progress
	// Probe marks the server/discover probe of protocol "auto" and what answered it: its
	// failure is how a server of the earlier era is recognised, not an error to count.
	Probe bool
	// AppSeq is the Seq of the app's request on the app lane that this server request was
	// made for, on the request and its response; 0 when the host made it on its own.
	AppSeq uint64
}

// Progress is one progress report.
type Progress struct {
	Token    string
	Progress float64
	Total    float64 // 0 when unknown
	Message  string
}

// Summary is a one-line plain description of the event, for logs and traces.
func (e *Event) Summary() string {
	switch e.Kind {
	case EvFrame:
		f := e.Frame
		s := fmt.Sprintf("%s %s", e.Dir, f.Kind)
		if e.Lane == LaneApp {
			s = fmt.Sprintf("%s %s", AppDirection(e.Dir), f.Kind)
		}
		if f.Method != "" {
			s += " " + f.Method
		} else if e.Corr.Method != "" {
			s += " " + e.Corr.Method
		}
		if !f.ID.IsZero() {
			s += " id=" + f.ID.String()
		}
		if e.Corr.Latency > 0 {
			s += " " + e.Corr.Latency.Round(time.Microsecond).String()
		}
		if e.Corr.AppSeq != 0 {
			s += fmt.Sprintf(" (for the app's #%d)", e.Corr.AppSeq)
		}
		for _, fd := range f.Findings {
			s += " [" + fd.Code + "]"
		}
		return s
	case EvStderr:
		return "stderr " + e.Text
	case EvHTTP:
		h := e.HTTP
		if h.Err != "" {
			return fmt.Sprintf("http %s %s: %s", h.Method, h.URL, h.Err)
		}
		s := fmt.Sprintf("http %s %s → %d (%s)", h.Method, h.URL, h.Status, h.Duration.Round(time.Microsecond))
		if r := h.Redirect; r != nil && r.Location != "" {
			s += " → " + r.Location
		}
		for _, fd := range e.Findings {
			s += " [" + fd.Code + "]"
		}
		return s
	case EvTransport:
		return "transport " + e.Note + ": " + e.Text
	case EvExit:
		return "exit " + e.Text
	case EvState:
		if e.Text != "" {
			return "state " + e.State.String() + ": " + e.Text
		}
		return "state " + e.State.String()
	case EvError:
		return "error " + e.Text
	case EvLists:
		return "lists " + e.Note + " " + e.Text
	case EvGap:
		if e.Gap != nil {
			return "gap " + e.Gap.String()
		}
		return "gap " + e.Text
	}
	return e.Kind.String()
}

func describeExit(x *transport.ExitInfo) string {
	if x == nil {
		return "?"
	}
	var s string
	switch {
	case x.Signal != "":
		s = "killed by signal " + x.Signal
	case x.Code >= 0:
		s = fmt.Sprintf("exit status %d", x.Code)
	default:
		s = "ended"
	}
	// An error that only repeats the status (exec's "signal: killed", "exit status 1")
	// is not said twice.
	if x.Err != "" && x.Err != "signal: "+x.Signal && x.Err != fmt.Sprintf("exit status %d", x.Code) {
		s += " (" + x.Err + ")"
	}
	if x.ByUs {
		s += ", closed by mcpscope"
	}
	return s
}
