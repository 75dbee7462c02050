package recordings

import (
	"encoding/base64"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
)

// FormatVersion is the version of the recording format this package writes and reads.
const FormatVersion = 1

// Header is the first line of a recording.
type Header struct {
	// Format is the recording format version (FormatVersion); the member's name,
	// "mcpscope_recording", is what marks a file as a recording.
	Format int `json:"mcpscope_recording"`
	// Version of mcpscope that wrote the file.
	Version string `json:"mcpscope"`
	// Server is the command line or URL of the server, secrets masked.
	Server string `json:"server"`
	// Name of the server in a config file, when it came from one.
	Name string `json:"name,omitempty"`
	// Transport asked for: "stdio", "http", "sse", or "auto" (a URL: Streamable HTTP,
	// falling back to HTTP+SSE).
	Transport string `json:"transport"`
	// Protocol asked for: "auto" or a revision. The negotiated revision is in the state
	// events of the handshake.
	Protocol string `json:"protocol"`
	// Started is when the recording began (RFC 3339 with nanoseconds).
	Started time.Time `json:"started"`
	// Redacted says whether secrets were masked.
	Redacted bool `json:"redacted"`
}

// line is one event line: the EventJSON members plus what a reader needs to rebuild the
// event exactly.
type line struct {
	session.EventJSON
	MonoNS   int64  `json:"mono_ns"`
	Gen      int    `json:"gen,omitempty"`      // which session of the recording (restarts start a new one; sequence numbers restart with it)
	Exchange uint64 `json:"exchange,omitempty"` // HTTP exchange a frame arrived on
	SSEEvent string `json:"sse_event,omitempty"`
	// Holds, on a live tap's hold note, is what the tap holds after it (tap_control.go).
	Holds *holdsLine `json:"holds,omitempty"`
}

var kindByName = map[string]session.EventKind{}
var stateByName = map[string]session.State{}

func init() {
	for k := session.EvFrame; k <= session.EvGap; k++ {
		kindByName[k.String()] = k
	}
	for s := session.StateIdle; s <= session.StateClosed; s++ {
		stateByName[s.String()] = s
	}
}

// toEvent rebuilds a session event from its line.
func (l *line) toEvent() (*session.Event, error) {
	kind, raw, err := l.validate()
	if err != nil {
		return nil, err
	}
	j := &l.EventJSON
	e := &session.Event{Seq: j.Seq, Time: j.Time, Kind: kind, Text: j.Text, Note: j.Note}
	if kind == session.EvState {
		e.State = stateByName[j.State]
	}
	e.Corr.RequestSeq = j.Request
	if kind == session.EvFrame {
		e.Dir = protocol.ServerToClient
		if j.Dir == "out" {
			e.Dir = protocol.ClientToServer
		}
		// A masked frame's bytes are shorter or longer than the wire's, not cut: it is cut
		// only when it says so.
		truncated := j.Truncated || !j.Masked && j.Size > int64(len(raw))
		var f *protocol.Frame
		if truncated {
			f = protocol.DecodeTruncated(raw, j.Size)
		} else {
			f = protocol.Decode(raw)
		}
		restoreFindings(f, j.Findings)
		e.Frame = f
		e.Recv = transport.RecvInfo{Via: j.Via, SSEID: j.SSEID, SSEEvent: l.SSEEvent, Exchange: l.Exchange,
			Size: j.Size, Truncated: truncated, Masked: j.Masked}
		if f.Method == "" {
			e.Corr.Method = j.Method
		}
		e.Corr.ChainSeq, e.Corr.Progress = j.Chain, j.Progress
		e.Lane, e.Corr.AppSeq = j.Lane, j.AppSeq
		e.Corr.Latency = time.Duration(j.LatencyMS * float64(time.Millisecond))
	}
	if h := j.HTTP; h != nil {
		e.HTTP = &transport.HTTPExchange{ID: h.ID, Purpose: h.Purpose, Method: h.Method, URL: h.URL, Status: h.Status,
			ReqHeaders: h.ReqHeaders, RespHeaders: h.RespHeaders, Started: j.Time,
			Duration: time.Duration(h.DurationMS * float64(time.Millisecond)), Err: h.Err}
		e.HTTP.ContentType = h.RespHeaders.Get("Content-Type")
		e.HTTP.Hop = h.Hop
		e.HTTP.Step, e.HTTP.ReqBody, e.HTTP.RespBody, e.HTTP.Checks = h.Step, h.ReqBody, h.RespBody, h.Checks
		if r := h.Redirect; r != nil {
			e.HTTP.Redirect = &transport.Redirect{Location: r.Location, CrossOrigin: r.CrossOrigin, Followed: r.Followed,
				Withheld: r.Withheld, Forwarded: r.Forwarded, NotFollowed: r.NotFollowed}
		}
	}
	if e.Frame == nil {
		for _, r := range j.Findings {
			e.Findings = append(e.Findings, protocol.Finding{Code: r.Code, Message: r.Message, Severity: severityOf(r.Severity)})
		}
	}
	if x := j.Exit; x != nil {
		e.Exit = &transport.ExitInfo{Code: x.Code, Signal: x.Signal, Err: x.Err, LastStderr: x.LastStderr, ByUs: x.ByUs}
	}
	if kind == session.EvGap {
		if j.Gap == nil {
			return nil, fmt.Errorf("gap event without its \"gap\" member")
		}
		g := *j.Gap
		e.Gap = &g
	}
	return e, nil
}

// raw is the frame's exact bytes.
// validate is what makes a decoded line an event or not, without building the event: a
// known kind, and for a frame its bytes and a known direction.
func (l *line) validate() (kind session.EventKind, raw []byte, err error) {
	kind, ok := kindByName[l.Kind]
	if !ok {
		return 0, nil, fmt.Errorf("unknown event kind %q", l.Kind)
	}
	if kind != session.EvFrame {
		return kind, nil, nil
	}
	if raw, err = l.raw(); err != nil {
		return 0, nil, err
	}
	if l.Dir != "out" && l.Dir != "in" {
		return 0, nil, fmt.Errorf("frame with unknown direction %q", l.Dir)
	}
	return kind, raw, nil
}

func (l *line) raw() ([]byte, error) {
	if l.Raw != nil {
		return []byte(*l.Raw), nil
	}
	b, err := base64.StdEncoding.DecodeString(l.RawBase64)
	if err != nil {
		return nil, fmt.Errorf("raw_base64: %w", err)
	}
	return b, nil
}

// restoreFindings replaces the findings a fresh decode raised with the recorded ones, which
// include those that needed the session's state (unknown ids, late responses, revision
// checks).
func restoreFindings(f *protocol.Frame, recorded []session.FindingJSON) {
	f.Findings = nil
	for _, m := range f.Batch {
		m.Findings = nil
	}
	for _, r := range recorded {
		fd := protocol.Finding{Code: r.Code, Message: r.Message, Severity: severityOf(r.Severity)}
		if r.Member > 0 && r.Member <= len(f.Batch) {
			f.Batch[r.Member-1].Findings = append(f.Batch[r.Member-1].Findings, fd)
		} else {
			f.Findings = append(f.Findings, fd)
		}
	}
}

func severityOf(s string) protocol.Severity {
	switch s {
	case "error":
		return protocol.SevError
	case "info":
		return protocol.SevInfo
	}
	return protocol.SevWarning
}
