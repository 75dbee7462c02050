package recordings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/secret"
)

// Replay statuses of one request.
const (
	StatusSame      = "same"      // the live response matches the recorded one
	StatusDifferent = "different" // it does not
	StatusMissing   = "missing"   // the recording has a response, the live server sent none in time
	StatusExtra     = "extra"     // the live server answered a request the recording has no answer to
	StatusError     = "error"     // the request could not be sent, or the session ended
	StatusCancelled = "cancelled" // the recorded client cancelled it: replayed with its cancel, not compared
)

// ReplayOptions shape a replay.
type ReplayOptions struct {
	// Ignore leaves places out of every comparison (see DefaultIgnores).
	Ignore *Ignore
	// Unanswered is how long to wait for a response to a request the recording has no
	// response to (it was cancelled, timed out or cut short). Default 2 s.
	Unanswered time.Duration
	// CancelGrace is how long to collect what the server sends for a cancelled request
	// after its notifications/cancelled went out. Default 1 s.
	CancelGrace time.Duration
	// Progress, when set, is called after each replayed request with how many of the
	// recording's requests (Transcript.Requests) have been replayed.
	Progress func(done, total int)
	// Substitute, when set, rewrites a recorded response before it is compared: the
	// Responder's Substitute puts the live values of volatile fields in place of the
	// recorded ones.
	Substitute func(recorded []byte) []byte
	// KeepSame bounds the bytes of the responses of requests answered as recorded that the
	// report keeps (Result.Recorded and Live) for a viewer; past it they are let go
	// (Result.NotKept), so that the report of a long recording stays small. Those of the
	// other requests are always kept. Default 64 MiB; negative: none.
	KeepSame int64
}

// keep applies KeepSame to the result just added; kept counts the bytes kept so far.
func (o *ReplayOptions) keep(res *Result, kept *int64) {
	if res.Status != StatusSame {
		return
	}
	n := int64(len(res.Recorded) + len(res.Live))
	if o.KeepSame >= 0 && *kept+n <= o.KeepSame {
		*kept += n
		return
	}
	res.Recorded, res.Live, res.NotKept = nil, nil, true
}

// maxCancelDelay bounds the wait between a cancelled request and its cancel: the recorded
// delay, at most this.
const maxCancelDelay = 5 * time.Second

// SkippedSession is a session of the recording after a restart, which replay does not send.
type SkippedSession struct {
	Session  int `json:"session"`  // its generation: 2, 3, …
	Requests int `json:"requests"` // client requests it held (the handshake left out)
}

func (k SkippedSession) String() string {
	noun := "requests"
	if k.Requests == 1 {
		noun = "request"
	}
	return fmt.Sprintf("session %d of the recording (after a restart) is not replayed: %d %s skipped", k.Session, k.Requests, noun)
}

// Result is the outcome of one replayed request.
type Result struct {
	N           int          `json:"n"` // 0 for the handshake, then 1, 2, … in recorded order
	Seq         uint64       `json:"recorded_seq"`
	Method      string       `json:"method"`
	Target      string       `json:"target,omitempty"` // the tool or prompt name, or the uri read (masked)
	Status      string       `json:"status"`
	Differences []Difference `json:"differences,omitempty"`
	Error       string       `json:"error,omitempty"`
	// Recorded and Live are the two responses compared (nil when that side has none), for
	// viewers that show them; the JSON report leaves them out.
	Recorded json.RawMessage `json:"-"`
	Live     json.RawMessage `json:"-"`
	// NotKept is set on a request answered as recorded whose responses were let go: the
	// report keeps those of same requests up to ReplayOptions.KeepSame bytes.
	NotKept bool `json:"-"`
	// Masked says the request sent was the recording's masked bytes (secrets as the mask).
	Masked bool `json:"masked,omitempty"`
}

// Report is the outcome of a replay.
type Report struct {
	Recording     string   `json:"recording"`
	Results       []Result `json:"results"`
	Notifications int      `json:"notifications_sent"` // client notifications re-sent
	RawFrames     int      `json:"raw_frames_sent"`    // frames that were not requests or notifications, re-sent as they were
	Problems      []string `json:"problems,omitempty"` // lines of the recording that were skipped
	// Skipped are the recording's sessions after a restart: only the first one is replayed.
	Skipped []SkippedSession `json:"skipped_sessions,omitempty"`
	// Masked counts the recorded frames sent whose secrets the recording had masked: the
	// server got the mask where they were.
	Masked int `json:"masked_frames_sent,omitempty"`
}

// Same reports whether every request was answered as recorded (a request the recorded
// client cancelled counts as answered).
func (r *Report) Same() bool {
	for _, x := range r.Results {
		if x.Status != StatusSame && x.Status != StatusCancelled {
			return false
		}
	}
	return true
}

// replayIDBase is where replayed requests' integer ids start, far from the session's own.
const replayIDBase = 1_000_000

// Replay connects s (made with a Responder from NewResponder, not yet connected), compares
// its handshake with the recorded one, then re-sends the recording's client requests and
// notifications in order, each request waiting for its response, and compares each response
// with the recorded one. The handshake itself is redone by the session, not re-sent. A
// request the recorded client cancelled is not waited for: its cancel follows after the
// recorded delay (at most 5 s) and it is reported as cancelled. Only the recording's first
// session is replayed; the sessions after restarts are reported in Skipped. A failed
// connection is returned as the session's error; a session that ends midway marks the
// remaining requests as errors.
func Replay(ctx context.Context, t *Transcript, s *session.Session, o ReplayOptions) (*Report, error) {
	if o.Unanswered <= 0 {
		o.Unanswered = 2 * time.Second
	}
	if o.CancelGrace <= 0 {
		o.CancelGrace = time.Second
	}
	if o.KeepSame == 0 {
		o.KeepSame = 64 << 20
	}
	var kept int64
	rep := &Report{Recording: t.Path, Skipped: skippedSessions(t)}
	for _, p := range t.Problems {
		rep.Problems = append(rep.Problems, p.String())
	}
	sub := s.Subscribe(0)
	err := s.Connect(ctx)
	handshake := drain(sub)
	sub.Close()
	if err != nil {
		return rep, err
	}
	if res, ok := compareHandshake(t, handshake, o.Ignore); ok {
		rep.Results = append(rep.Results, res)
	}
	newIDs := newIDMap(maxRemembered) // recorded id key → id sent
	flights := map[int]*flight{}      // index of a cancel frame → its request, still out
	n := 0
	var ended error
	for fi := range t.frames {
		if ctx.Err() != nil {
			break
		}
		fr := &t.frames[fi]
		if fr.gen > 1 || fr.dir != protocol.ClientToServer || handshakeMethods[t.methods[fr.method]] ||
			fr.kind.IsResponse() || fr.kind == protocol.KindRequest && fr.chained {
			// an answer to a server request: the Responder gives it again when asked; a
			// retry of an input_required chain: its first request replays the chain
			continue
		}
		e, err := t.entry(fi)
		if err != nil {
			rep.Problems = append(rep.Problems, err.Error())
			continue
		}
		ev := e.Event
		f := ev.Frame
		if handshakeMethods[f.Method] {
			continue
		}
		switch {
		case f.Kind == protocol.KindRequest:
			if ev.Corr.ChainSeq != 0 {
				continue
			}
			n++
			res := Result{N: n, Seq: ev.Seq, Method: f.Method, Target: requestTarget(f), Masked: ev.Recv.Masked}
			if ev.Recv.Masked {
				rep.Masked++
			}
			if ended != nil {
				res.Status, res.Error = StatusError, notSent(f.Method, ended)
			} else if ci, ok := t.cancels[fi]; ok {
				if ce, err := t.entry(ci); err == nil {
					flights[ci] = startFlight(ctx, t, s, e, ce, res, n, len(rep.Results), newIDs)
				} else {
					res, ended = replayRequest(ctx, t, s, ev, res, n, newIDs, o)
				}
			} else {
				res, ended = replayRequest(ctx, t, s, ev, res, n, newIDs, o)
			}
			o.keep(&res, &kept)
			rep.Results = append(rep.Results, res)
			if o.Progress != nil {
				o.Progress(n, t.Requests)
			}
		case f.Kind.IsResponse():
		case ended != nil:
		case flights[fi] != nil:
			fl := flights[fi]
			delete(flights, fi)
			rep.Results[fl.idx], ended = fl.finish(ctx, s, f, newIDs, o.CancelGrace)
			rep.Notifications++
		case f.Kind == protocol.KindNotification:
			if ev.Recv.Masked {
				rep.Masked++
			}
			raw := remapCancel(f, newIDs)
			if _, err := s.SendRaw(ctx, raw); err != nil && sessionEnded(err) {
				ended = err
			}
			rep.Notifications++
		default:
			if ev.Recv.Masked {
				rep.Masked++
			}
			if _, err := s.SendRaw(ctx, f.Raw); err != nil && sessionEnded(err) {
				ended = err
			}
			rep.RawFrames++
		}
	}
	for _, fl := range flights { // their cancel was not sent: the session ended first
		rep.Results[fl.idx] = fl.abandon(ended)
	}
	return rep, ctx.Err()
}

// notSent is the error of a request that was not sent because the session had ended,
// naming the request's own method and the cause, not the request that saw the end.
func notSent(method string, ended error) string {
	cause := ended.Error()
	for _, base := range []error{session.ErrServerExited, session.ErrClosed} {
		if errors.Is(ended, base) {
			if i := strings.Index(cause, base.Error()); i >= 0 {
				cause = cause[i:]
			}
			break
		}
	}
	return fmt.Sprintf("%s: not sent, the session had ended (%s)", method, cause)
}

// rowError is err as the error of the request method: it names the method.
func rowError(method string, err error) string {
	msg := err.Error()
	if strings.HasPrefix(msg, method+":") || strings.HasPrefix(msg, "send "+method+":") {
		return msg
	}
	return method + ": " + msg
}

// skippedSessions counts the client requests of the recording's sessions after the first.
func skippedSessions(t *Transcript) []SkippedSession {
	counts := map[int]int{}
	var gens []int
	for _, f := range t.frames {
		g := int(f.gen)
		if g <= 1 {
			continue
		}
		if _, ok := counts[g]; !ok {
			gens = append(gens, g)
			counts[g] = 0
		}
		if f.dir == protocol.ClientToServer && f.kind == protocol.KindRequest && !handshakeMethods[t.methods[f.method]] && !f.chained {
			counts[g]++
		}
	}
	slices.Sort(gens)
	var out []SkippedSession
	for _, g := range gens {
		out = append(out, SkippedSession{Session: g, Requests: counts[g]})
	}
	return out
}

// drain returns the events already queued on sub without waiting.
func drain(sub *session.Subscription) []*session.Event {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out []*session.Event
	for {
		evs, ok := sub.Next(ctx, 0)
		if !ok || len(evs) == 0 {
			return out
		}
		out = append(out, evs...)
	}
}

func sessionEnded(err error) bool {
	return errors.Is(err, session.ErrClosed) || errors.Is(err, session.ErrServerExited)
}

// replayRequest sends one recorded request and compares the response.
func replayRequest(ctx context.Context, t *Transcript, s *session.Session, ev *session.Event, res Result, n int,
	newIDs *idMap, o ReplayOptions) (Result, error) {
	f := ev.Frame
	recorded := t.ResponseTo(ev.Seq)
	var resp *session.Response
	var err error
	if chain := t.chains[ev.Seq]; len(chain) > 1 {
		// An input_required chain: let the session answer and retry (through the Responder),
		// and compare the final response with the recorded final one.
		recorded = t.ResponseTo(chain[len(chain)-1])
		resp, err = s.Call(ctx, f.Method, f.Params, session.Exact())
	} else {
		id := newID(f.ID, n)
		newIDs.set(f.ID.Key(), id)
		raw, rerr := withMember(f.Raw, "id", id)
		if rerr != nil {
			raw = f.Raw
		}
		cctx := ctx
		if recorded == nil {
			var cancel context.CancelFunc
			cctx, cancel = context.WithTimeout(ctx, o.Unanswered)
			defer cancel()
		}
		resp, err = s.SendRaw(cctx, raw)
	}
	var live *session.Event
	if resp != nil {
		live = resp.Event
	}
	if recorded != nil {
		res.Recorded = asJSON(recorded.Event.Frame.Raw)
	}
	switch {
	case live != nil: // a response, an error response or a malformed one: compare what came
	case sessionEnded(err):
		res.Status, res.Error = StatusError, rowError(f.Method, err)
		return res, err
	case recorded == nil:
		res.Status = StatusSame // neither answered
		return res, nil
	case errors.Is(err, session.ErrTimeout) || errors.Is(err, context.DeadlineExceeded):
		res.Status, res.Error = StatusMissing, err.Error()
		return res, nil
	default:
		if err == nil {
			err = errors.New("no response")
		}
		res.Status, res.Error = StatusError, rowError(f.Method, err)
		return res, nil
	}
	res.Live = asJSON(live.Frame.Raw)
	if recorded == nil {
		res.Status = StatusExtra
		res.Differences = []Difference{{Path: "", Live: res.Live}}
		return res, nil
	}
	rec := recorded.Event.Frame.Raw
	if o.Substitute != nil {
		rec = o.Substitute(rec)
	}
	res.Differences = Diff(rec, live.Frame.Raw, o.Ignore)
	res.Status = StatusSame
	if len(res.Differences) > 0 {
		res.Status = StatusDifferent
	}
	return res, nil
}

// newID is the id a replayed request is sent with: of the same JSON type as the recorded
// one where that can be kept unique, else the recorded id itself.
func newID(old protocol.ID, n int) json.RawMessage {
	switch old.Kind() {
	case protocol.IDInteger:
		return protocol.IntID(int64(replayIDBase + n)).Raw
	case protocol.IDString:
		return protocol.StringID("replay-" + strconv.Itoa(n)).Raw
	}
	return old.Raw
}

// remapCancel points a notifications/cancelled at the id its request was replayed with.
func remapCancel(f *protocol.Frame, newIDs *idMap) []byte {
	if f.Method != "notifications/cancelled" {
		return f.Raw
	}
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(f.Params, &p) != nil {
		return f.Raw
	}
	id, ok := newIDs.get(protocol.ID{Raw: p.RequestID}.Key())
	if !ok {
		return f.Raw
	}
	params, err := withMember(f.Params, "requestId", id)
	if err != nil {
		return f.Raw
	}
	raw, err := withMember(f.Raw, "params", params)
	if err != nil {
		return f.Raw
	}
	return raw
}

// compareHandshake compares the recorded handshake response with the live one.
func compareHandshake(t *Transcript, live []*session.Event, ig *Ignore) (Result, bool) {
	req, recResp := t.Handshake()
	if req == nil {
		return Result{}, false
	}
	res := Result{N: 0, Seq: req.Event.Seq, Method: req.Event.Frame.Method}
	if recResp != nil {
		res.Recorded = asJSON(recResp.Event.Frame.Raw)
	}
	var liveResp *session.Event
	for _, e := range live {
		if e.Kind != session.EvFrame || !e.Frame.Kind.IsResponse() || (e.Corr.Method != "initialize" && e.Corr.Method != "server/discover") {
			continue
		}
		if e.Frame.Kind == protocol.KindResult || liveResp == nil || liveResp.Frame.Kind != protocol.KindResult {
			liveResp = e
		}
	}
	if liveResp != nil {
		res.Live = asJSON(liveResp.Frame.Raw)
	}
	switch {
	case liveResp == nil && recResp == nil:
		res.Status = StatusSame
	case liveResp == nil:
		res.Status, res.Error = StatusMissing, "the live handshake has no response"
	case recResp == nil:
		res.Status = StatusExtra
	case liveResp.Corr.Method != res.Method:
		res.Status = StatusDifferent
		res.Differences = []Difference{{Path: "", Recorded: asJSON([]byte(fmt.Sprintf("%q", res.Method+" era"))), Live: asJSON([]byte(fmt.Sprintf("%q", liveResp.Corr.Method+" era")))}}
	default:
		res.Differences = Diff(recResp.Event.Frame.Raw, liveResp.Frame.Raw, ig)
		res.Status = StatusSame
		if len(res.Differences) > 0 {
			res.Status = StatusDifferent
		}
	}
	return res, true
}

// requestTarget is what a tools/call, prompts/get or resources/read request acts on: the
// tool or prompt name, or the uri (its secrets masked); "" for other methods.
func requestTarget(f *protocol.Frame) string {
	switch f.Method {
	case "tools/call", "prompts/get":
		return protocol.Target(f.Method, f.Params)
	case "resources/read":
		return secret.URL(protocol.Target(f.Method, f.Params))
	}
	return ""
}
