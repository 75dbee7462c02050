package session

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/protocol"
)

// EventJSON is the JSON form of an Event: one object per line in --trace output. The frame's
// exact bytes are in "raw" as a JSON string; bytes that are not valid UTF-8 cannot live in a
// JSON string, so such a frame carries "raw_base64" instead.
type EventJSON struct {
	Seq       uint64          `json:"seq"`
	Time      time.Time       `json:"time"`
	Kind      string          `json:"kind"`
	Dir       string          `json:"dir,omitempty"`
	Lane      string          `json:"lane,omitempty"` // "app": the app↔host postMessage lane
	FrameKind string          `json:"frame,omitempty"`
	Method    string          `json:"method,omitempty"`
	ID        json.RawMessage `json:"id,omitempty"`
	Raw       *string         `json:"raw,omitempty"`
	RawBase64 string          `json:"raw_base64,omitempty"`
	Size      int64           `json:"size,omitempty"`
	// Masked says raw had secrets masked (Mask): it is no longer the wire's bytes, and Size
	// is still their size on the wire. Truncated, set only then, says raw held just the
	// frame's head before it was masked (otherwise a Size over raw's length says so).
	Masked    bool          `json:"masked,omitempty"`
	Truncated bool          `json:"truncated,omitempty"`
	Via       string        `json:"via,omitempty"`
	SSEID     string        `json:"sse_id,omitempty"`
	Findings  []FindingJSON `json:"findings,omitempty"`
	Request   uint64        `json:"request_seq,omitempty"`
	LatencyMS float64       `json:"latency_ms,omitempty"`
	Chain     uint64        `json:"chain_seq,omitempty"`
	Probe     bool          `json:"probe,omitempty"`
	AppSeq    uint64        `json:"app_seq,omitempty"` // the app's request a server request was made for
	Progress  *Progress     `json:"progress,omitempty"`
	Text      string        `json:"text,omitempty"`
	Note      string        `json:"note,omitempty"`
	State     string        `json:"state,omitempty"`
	HTTP      *HTTPJSON     `json:"http,omitempty"`
	Exit      *ExitJSON     `json:"exit,omitempty"`
	Gap       *Gap          `json:"gap,omitempty"` // kind "gap": what a consumer lost (seq is 0)
}

// FindingJSON is a finding in JSON form.
type FindingJSON struct {
	Code     string `json:"code"`
	Message  string `json:"message"`
	Severity string `json:"severity"`
	Member   int    `json:"batch_member,omitempty"` // 1-based index in a batch; 0 for the frame itself
}

// HTTPJSON is an HTTP exchange in JSON form (headers already masked).
type HTTPJSON struct {
	ID          uint64      `json:"id"`
	Purpose     string      `json:"purpose"`
	Method      string      `json:"method"`
	URL         string      `json:"url"`
	Status      int         `json:"status,omitempty"`
	ReqHeaders  http.Header `json:"request_headers,omitempty"`
	RespHeaders http.Header `json:"response_headers,omitempty"`
	DurationMS  float64     `json:"duration_ms"`
	Err         string      `json:"error,omitempty"`
	Hop         int         `json:"hop,omitempty"`
	Redirect    *Redirect   `json:"redirect,omitempty"`
	// Step labels an authorization exchange or a server card's location; ReqBody and RespBody are its masked body
	// heads; Checks what was verified (problems are the event's findings).
	Step     string   `json:"step,omitempty"`
	ReqBody  string   `json:"request_body,omitempty"`
	RespBody string   `json:"response_body,omitempty"`
	Checks   []string `json:"checks,omitempty"`
}

// Redirect is a redirect answer in JSON form (transport.Redirect, which has no JSON tags).
type Redirect struct {
	Location    string   `json:"location,omitempty"`
	CrossOrigin bool     `json:"cross_origin,omitempty"`
	Followed    bool     `json:"followed,omitempty"`
	Withheld    []string `json:"withheld,omitempty"`
	Forwarded   []string `json:"forwarded,omitempty"`
	NotFollowed string   `json:"not_followed,omitempty"`
}

// ExitJSON is a process exit in JSON form.
type ExitJSON struct {
	Code       int      `json:"code"`
	Signal     string   `json:"signal,omitempty"`
	Err        string   `json:"error,omitempty"`
	LastStderr []string `json:"last_stderr,omitempty"`
	ByUs       bool     `json:"by_us,omitempty"`
}

// JSON converts the event to its JSON form.
func (e *Event) JSON() EventJSON {
	j := EventJSON{Seq: e.Seq, Time: e.Time, Kind: e.Kind.String(), Text: e.Text, Note: e.Note}
	if e.Kind == EvState {
		j.State = e.State.String()
	}
	if f := e.Frame; f != nil {
		j.Dir = e.Dir.String()
		j.Lane, j.AppSeq = e.Lane, e.Corr.AppSeq
		j.FrameKind = f.Kind.String()
		j.Method = f.Method
		if j.Method == "" {
			j.Method = e.Corr.Method
		}
		if !f.ID.IsZero() && json.Valid(f.ID.Raw) {
			j.ID = f.ID.Raw
		}
		if utf8.Valid(f.Raw) {
			s := string(f.Raw)
			j.Raw = &s
		} else {
			j.RawBase64 = base64.StdEncoding.EncodeToString(f.Raw)
		}
		j.Size = int64(len(f.Raw))
		if e.Recv.Size > j.Size {
			j.Size = e.Recv.Size
		}
		j.Via, j.SSEID = e.Recv.Via, e.Recv.SSEID
		if e.Recv.Masked { // read from a masked recording
			j.Masked, j.Truncated = true, e.Recv.Truncated
		}
		j.Findings = findingsJSON(f)
		j.Request, j.Chain, j.Progress, j.Probe = e.Corr.RequestSeq, e.Corr.ChainSeq, e.Corr.Progress, e.Corr.Probe
		j.LatencyMS = float64(e.Corr.Latency.Microseconds()) / 1000
	} else if e.Corr.RequestSeq != 0 {
		j.Request, j.Probe = e.Corr.RequestSeq, e.Corr.Probe
	}
	if h := e.HTTP; h != nil {
		j.HTTP = &HTTPJSON{ID: h.ID, Purpose: h.Purpose, Method: h.Method, URL: h.URL, Status: h.Status,
			ReqHeaders: h.ReqHeaders, RespHeaders: h.RespHeaders, DurationMS: float64(h.Duration.Microseconds()) / 1000, Err: h.Err, Hop: h.Hop,
			Step: h.Step, ReqBody: h.ReqBody, RespBody: h.RespBody, Checks: h.Checks}
		if r := h.Redirect; r != nil {
			j.HTTP.Redirect = &Redirect{Location: r.Location, CrossOrigin: r.CrossOrigin, Followed: r.Followed,
				Withheld: r.Withheld, Forwarded: r.Forwarded, NotFollowed: r.NotFollowed}
		}
	}
	if e.Frame == nil {
		j.Findings = findingList(e.Findings, 0, nil)
	}
	if x := e.Exit; x != nil {
		j.Exit = &ExitJSON{Code: x.Code, Signal: x.Signal, Err: x.Err, LastStderr: x.LastStderr, ByUs: x.ByUs}
	}
	if g := e.Gap; g != nil {
		c := *g
		j.Gap = &c
	}
	return j
}

// AllFindings lists a frame's findings and those of its batch members.
func AllFindings(f *protocol.Frame) []protocol.Finding {
	out := append([]protocol.Finding(nil), f.Findings...)
	for _, m := range f.Batch {
		out = append(out, m.Findings...)
	}
	return out
}

func findingsJSON(f *protocol.Frame) []FindingJSON {
	out := findingList(f.Findings, 0, nil)
	for i, m := range f.Batch {
		out = findingList(m.Findings, i+1, out)
	}
	return out
}

// findingList appends fs in JSON form, as findings of batch member member (0: the event).
func findingList(fs []protocol.Finding, member int, out []FindingJSON) []FindingJSON {
	for _, fd := range fs {
		out = append(out, FindingJSON{Code: fd.Code, Message: fd.Message, Severity: fd.Severity.String(), Member: member})
	}
	return out
}
