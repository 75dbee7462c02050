package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/transport"
)

// RPCError is a JSON-RPC error response from the server (or one mcpscope sends).
type RPCError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RPCError) Error() string {
	s := fmt.Sprintf("JSON-RPC error %d", e.Code)
	if name := protocol.ErrorCodeName(e.Code); name != "" {
		s += " (" + name + ")"
	}
	s += ": " + e.Message
	if len(e.Data) > 0 && len(e.Data) < 300 {
		s += " " + string(e.Data)
	}
	return s
}

// Response is the answer to one request.
type Response struct {
	Event   *Event          // the response frame's event
	Request *Event          // the request's event (the last retry, for input_required chains)
	Result  json.RawMessage // nil for error responses
	Latency time.Duration
	Chain   []*Event // for input_required chains: every request event of the chain, in order
}

// CallOption changes one call.
type CallOption func(*callOpts)

type callOpts struct {
	timeout   time.Duration
	progress  bool
	name      string // Mcp-Name header value
	noMeta    bool   // send params exactly (no _meta injection)
	noChain   bool   // return input_required results instead of answering them
	chainSeq  uint64
	stateless *bool // override of the session's era (handshake probes)
	probe     bool  // this is the era probe
	version   string
	check     func(result json.RawMessage) []protocol.Finding // more findings for the result
	task      bool                                            // task-augmented (WithTask)
	taskTTL   time.Duration                                   // the requested task ttl; 0 = none
	appSeq    uint64                                          // the app-lane request this call forwards (FromApp)
	onSent    func(*Event)                                    // told the request's event once published (events.go)
	noteCheck func(*protocol.Frame) []protocol.Finding        // findings for the notifications of a stream (events.go)
}

// WithTimeout sets this call's timeout (0 = the session default; <0 = none).
func WithTimeout(d time.Duration) CallOption { return func(o *callOpts) { o.timeout = d } }

// WithProgress attaches a progressToken so the server can report progress. With Exact
// nothing is added: the progressToken the params' _meta already holds, if any, is tracked.
func WithProgress() CallOption { return func(o *callOpts) { o.progress = true } }

// paramsProgressToken is the key of the progressToken in params' _meta, or "".
func paramsProgressToken(params json.RawMessage) string {
	tok := protocol.MetaOf(params)[protocol.MetaProgressToken]
	if len(tok) == 0 {
		return ""
	}
	return tokenKey(tok)
}

// Exact sends params byte for byte: no _meta is added, even in the 2026-07-28 era.
func Exact() CallOption { return func(o *callOpts) { o.noMeta = true } }

// FromApp marks the call as made for an MCP App: appSeq is the Seq of the app's request
// on the app lane. The request and its response carry it in Corr.AppSeq.
func FromApp(appSeq uint64) CallOption { return func(o *callOpts) { o.appSeq = appSeq } }

// NoChain returns an input_required result to the caller instead of answering it.
func NoChain() CallOption { return func(o *callOpts) { o.noChain = true } }

type outcome struct {
	ev  *Event
	err error
}

type pending struct {
	key      string
	id       protocol.ID
	method   string
	seq      uint64
	sent     time.Time
	timeout  time.Duration
	timer    *time.Timer
	token    string
	chainSeq uint64
	version  string // the revision this request was sent under
	probe    bool   // the era probe of protocol "auto"
	appSeq   uint64 // the app-lane request this one forwards
	check    func(result json.RawMessage) []protocol.Finding
	// onSent and noteCheck serve a request whose notifications belong to it (events/stream,
	// events.go): the first learns the request's event, the second checks each notification.
	onSent    func(*Event)
	noteCheck func(*protocol.Frame) []protocol.Finding
	done      chan outcome
}

type finishState uint8

const (
	finAnswered finishState = iota + 1
	finCancelled
	finTimedOut
	finAbandoned
)

type finished struct {
	state  finishState
	seq    uint64
	method string
	probe  bool // the era probe (a late answer to it is a muted row too)
}

// recentIDs remembers how the last N requests ended, so a duplicate or late response can be
// told apart from one that answers nothing.
type recentIDs struct {
	max   int
	order []string
	m     map[string]finished
}

func newRecentIDs(max int) *recentIDs { return &recentIDs{max: max, m: map[string]finished{}} }

func (r *recentIDs) put(key string, f finished) {
	if _, ok := r.m[key]; !ok {
		r.order = append(r.order, key)
		if len(r.order) > r.max {
			delete(r.m, r.order[0])
			r.order = r.order[1:]
		}
	}
	r.m[key] = f
}

func (r *recentIDs) get(key string) (finished, bool) { f, ok := r.m[key]; return f, ok }

// Call sends a request and waits for its response. params may be nil, a json.RawMessage or
// any value encoding/json can marshal. A JSON-RPC error response is returned as *RPCError
// together with the Response. In the 2026-07-28 era the session adds the required _meta and
// answers input_required results through the Responder, retrying with a new id.
func (s *Session) Call(ctx context.Context, method string, params any, opts ...CallOption) (*Response, error) {
	var o callOpts
	for _, f := range opts {
		f(&o)
	}
	raw, err := marshalParams(params)
	if err != nil {
		return nil, fmt.Errorf("%s: encode params: %w", method, err)
	}
	if !o.noMeta { // Exact (the composer, rpc) sends what the user wrote, excluded tool or not
		if err := s.checkToolCall(ctx, method, raw); err != nil {
			return nil, err
		}
	}
	if o.task && !s.Info().Stateless {
		if raw, err = withTaskParam(raw, o.taskTTL); err != nil {
			return nil, fmt.Errorf("%s: %w", method, err)
		}
	}
	resp, err := s.call(ctx, method, raw, o)
	s.afterToolCall(method, err)
	if err != nil || o.noChain {
		return resp, err
	}
	return s.followChain(ctx, method, raw, o, resp)
}

// call sends one request and waits for its own response.
func (s *Session) call(ctx context.Context, method string, params json.RawMessage, o callOpts) (*Response, error) {
	s.mu.Lock()
	if s.state == StateClosed || s.ctx.Err() != nil {
		s.mu.Unlock()
		return nil, ErrClosed
	}
	stateless := s.info.Stateless
	if o.stateless != nil {
		stateless = *o.stateless
	}
	version := string(s.info.Revision)
	if o.version != "" {
		version = o.version
	}
	s.nextID++
	id := protocol.IntID(s.nextID)
	p := &pending{key: id.Key(), id: id, method: method, chainSeq: o.chainSeq, version: version, probe: o.probe, appSeq: o.appSeq, check: o.check,
		onSent: o.onSent, noteCheck: o.noteCheck, done: make(chan outcome, 1)}
	if o.progress {
		p.token = strconv.FormatInt(s.nextID, 10)
		if o.noMeta {
			p.token = paramsProgressToken(params) // sent as written: track the token it has
		}
	}
	var meta map[string]any
	if !o.noMeta {
		meta = s.metaLocked(stateless, version, p.token)
		if stateless && (o.task || strings.HasPrefix(method, "tasks/")) {
			// The tasks extension is declared per request: on a task-augmented call and on
			// the tasks/* requests, which a server must refuse without it.
			meta[protocol.MetaClientCapabilities] = withExtension(s.capsJSON, protocol.TasksExtension)
		}
		if stateless && strings.HasPrefix(method, "events/") {
			// The Events extension lets a client say it understands it, per request.
			meta[protocol.MetaClientCapabilities] = withExtension(s.capsJSON, protocol.EventsExtension)
		}
	}
	paramHeaders := s.paramHeadersLocked(method, params)
	s.mu.Unlock()

	full, err := withMeta(params, meta)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	raw, err := protocol.EncodeRequest(id, method, full)
	if err != nil {
		return nil, fmt.Errorf("%s: encode: %w", method, err)
	}
	p.timeout = o.timeout
	if p.timeout == 0 {
		p.timeout = s.cfg.RequestTimeout
	}
	if o.name == "" && stateless {
		o.name = MirroredName(method, params) // the Mcp-Name header exists only in the stateless era
	}
	out := transport.Outgoing{Raw: raw, ID: id.Raw, Method: method, Name: o.name, IsRequest: true,
		ProtocolVersion: versionHeader(version, method), Stateless: stateless, Probe: o.probe,
		Params: paramHeaders}
	reqEv, err := s.sendTracked(ctx, out, p)
	if err != nil {
		return nil, err
	}
	return s.await(ctx, p, reqEv)
}

// await waits for p's response; when ctx ends first it cancels p and tells the server.
func (s *Session) await(ctx context.Context, p *pending, reqEv *Event) (*Response, error) {
	resp := &Response{Request: reqEv}
	select {
	case oc := <-p.done:
		if oc.err != nil {
			return resp, oc.err
		}
		return s.finish(resp, oc.ev)
	case <-ctx.Done():
		s.cancelPending(p, "cancelled by the client: "+context.Cause(ctx).Error())
		return resp, ctx.Err()
	}
}

// sendTracked registers p, publishes the request event and writes it to the transport.
func (s *Session) sendTracked(ctx context.Context, out transport.Outgoing, p *pending) (*Event, error) {
	f := protocol.Decode(out.Raw)
	s.mu.Lock()
	if s.state == StateClosed || s.ctx.Err() != nil {
		s.mu.Unlock()
		return nil, ErrClosed
	}
	if s.noStdout != nil {
		err := s.noStdout
		s.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", out.Method, err)
	}
	f.Findings = append(f.Findings, protocol.Check(f, protocol.ClientToServer, s.checkContextLocked(p.version))...)
	ev := s.emit(&Event{Kind: EvFrame, Dir: protocol.ClientToServer, Frame: f, Corr: Correlation{ChainSeq: p.chainSeq, Probe: p.probe, AppSeq: p.appSeq}})
	p.seq = ev.Seq
	p.sent = ev.Time
	s.pending[p.key] = p
	if p.token != "" {
		s.progress[p.token] = p
	}
	if p.timeout > 0 {
		p.timer = time.AfterFunc(p.timeout, func() { s.expire(p) })
	}
	s.mu.Unlock()
	if p.onSent != nil {
		p.onSent(ev)
	}
	if err := s.tr.Send(ctx, out); err != nil {
		s.mu.Lock()
		var se *transport.HTTPStatusError
		ended := errors.As(err, &se) && se.SessionEnded != ""
		if ended {
			s.renewSessionLocked(se.SessionEnded)
		}
		if se != nil && se.Delivered && s.pending[p.key] != p {
			s.mu.Unlock()
			return ev, nil // the error status carried the response itself
		}
		// The caller gave up while the request was being sent (an HTTP POST waits for its
		// answer): in the stateful era that is a cancellation the server must be told of,
		// since a closed connection is not one; from 2026-07-28 the closed stream is.
		gaveUp := ctx.Err() != nil && !out.Stateless
		how := finAbandoned
		if gaveUp {
			how = finCancelled
		}
		s.dropPendingLocked(p, how)
		s.emit(&Event{Kind: EvError, Text: fmt.Sprintf("send %s: %v", out.Method, err), Corr: Correlation{RequestSeq: p.seq, Probe: p.probe}})
		s.mu.Unlock()
		if gaveUp && !p.probe {
			s.sendCancelled(p.id, "cancelled by the client: "+context.Cause(ctx).Error())
		}
		if ended {
			return ev, &sessionEndedError{method: out.Method, ended: se.SessionEnded, err: err}
		}
		return ev, fmt.Errorf("send %s: %w", out.Method, err)
	}
	return ev, nil
}

func (s *Session) finish(resp *Response, ev *Event) (*Response, error) {
	resp.Event = ev
	resp.Latency = ev.Corr.Latency
	f := ev.Frame
	if f.Kind == protocol.KindError && f.Error != nil {
		return resp, &RPCError{Code: f.Error.Code, Message: f.Error.Message, Data: f.Error.Data}
	}
	if f.Kind != protocol.KindResult {
		return resp, fmt.Errorf("malformed response: %s", findingsText(f))
	}
	resp.Result = f.Result
	return resp, nil
}

func findingsText(f *protocol.Frame) string {
	if len(f.Findings) == 0 {
		return "not a result"
	}
	s := f.Findings[0].Message
	for _, fd := range f.Findings[1:] {
		s += "; " + fd.Message
	}
	return s
}

// dropPendingLocked removes p from the pending table, remembering how it ended.
func (s *Session) dropPendingLocked(p *pending, how finishState) bool {
	if s.pending[p.key] != p {
		return false
	}
	delete(s.pending, p.key)
	if p.token != "" {
		delete(s.progress, p.token)
	}
	if p.timer != nil {
		p.timer.Stop()
	}
	s.finished.put(p.key, finished{state: how, seq: p.seq, method: p.method, probe: p.probe})
	if ab, ok := s.tr.(transport.Abandoner); ok && (how == finCancelled || how == finTimedOut) {
		ab.Abandon(p.id.Raw) // its response stream is not resumed
	}
	return true
}

// expire fires when a request's timeout passes without a response or progress.
func (s *Session) expire(p *pending) {
	if wait := s.authorizationWait(p.timeout); wait > 0 {
		// The user is authorizing (in the browser, say), or has just finished: the request
		// waits for that, and its clock starts again when it is done.
		s.mu.Lock()
		if s.pending[p.key] == p && p.timer != nil {
			p.timer.Reset(wait)
		}
		s.mu.Unlock()
		return
	}
	s.mu.Lock()
	if !s.dropPendingLocked(p, finTimedOut) {
		s.mu.Unlock()
		return
	}
	s.emit(&Event{Kind: EvError, Text: fmt.Sprintf("%s (id %s) timed out after %s", p.method, p.id, p.timeout), Corr: Correlation{RequestSeq: p.seq, Method: p.method, Probe: p.probe}})
	s.mu.Unlock()
	s.sendCancelled(p.id, "timed out after "+p.timeout.String())
	p.done <- outcome{err: fmt.Errorf("%s: %w after %s", p.method, ErrTimeout, p.timeout)}
}

// cancelPending gives up on p and tells the server (notifications/cancelled).
func (s *Session) cancelPending(p *pending, reason string) {
	s.mu.Lock()
	ok := s.dropPendingLocked(p, finCancelled)
	s.mu.Unlock()
	if ok {
		s.sendCancelled(p.id, reason)
	}
}

// Cancel cancels the in-flight request whose request event has Seq seq.
func (s *Session) Cancel(seq uint64, reason string) bool {
	s.mu.Lock()
	var p *pending
	for _, x := range s.pending {
		if x.seq == seq {
			p = x
		}
	}
	s.mu.Unlock()
	if p == nil {
		return false
	}
	s.cancelPending(p, reason)
	p.done <- outcome{err: fmt.Errorf("%s: %w", p.method, context.Canceled)}
	return true
}

func (s *Session) sendCancelled(id protocol.ID, reason string) {
	if !s.hasMethod("notifications/cancelled", protocol.ClientToServer) {
		return
	}
	params := map[string]any{"requestId": json.RawMessage(id.Raw), "reason": reason}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = s.Notify(ctx, "notifications/cancelled", params)
}

func (s *Session) failAll(err error) {
	s.mu.Lock()
	var ps []*pending
	for _, p := range s.pending {
		ps = append(ps, p)
	}
	for _, p := range ps {
		s.dropPendingLocked(p, finAbandoned)
	}
	s.mu.Unlock()
	for _, p := range ps {
		p.done <- outcome{err: fmt.Errorf("%s: %w", p.method, err)}
	}
}

// Notify sends a notification.
func (s *Session) Notify(ctx context.Context, method string, params any) error {
	return s.notify(ctx, method, params, false)
}

// notify is Notify; noWait returns once the notification is on its way (see
// transport.Outgoing.NoWait).
func (s *Session) notify(ctx context.Context, method string, params any, noWait bool) error {
	raw, err := marshalParams(params)
	if err != nil {
		return fmt.Errorf("%s: encode params: %w", method, err)
	}
	s.mu.Lock()
	stateless, version := s.info.Stateless, string(s.info.Revision)
	s.mu.Unlock()
	frame, err := protocol.EncodeNotification(method, raw)
	if err != nil {
		return fmt.Errorf("%s: encode: %w", method, err)
	}
	return s.sendUntracked(ctx, transport.Outgoing{Raw: frame, Method: method, ProtocolVersion: versionHeader(version, method), Stateless: stateless, NoWait: noWait}, 0)
}

// sendUntracked publishes and writes a frame that expects no response.
func (s *Session) sendUntracked(ctx context.Context, out transport.Outgoing, reqSeq uint64) error {
	f := protocol.Decode(out.Raw)
	s.mu.Lock()
	if s.state == StateClosed || s.ctx.Err() != nil {
		s.mu.Unlock()
		return ErrClosed
	}
	f.Findings = append(f.Findings, protocol.Check(f, protocol.ClientToServer, s.checkContextLocked(""))...)
	corr := Correlation{RequestSeq: reqSeq}
	s.corrUntrackedLocked(f, &corr)
	s.rememberBatchLocked(s.emit(&Event{Kind: EvFrame, Dir: protocol.ClientToServer, Frame: f, Corr: corr}))
	s.mu.Unlock()
	if err := s.tr.Send(ctx, out); err != nil {
		what := out.Method
		if what == "" {
			what = "response"
		}
		if s.ctx.Err() == nil {
			s.publish(&Event{Kind: EvError, Text: fmt.Sprintf("send %s: %v", what, err), Corr: Correlation{RequestSeq: reqSeq}})
		}
		return fmt.Errorf("send %s: %w", what, err)
	}
	return nil
}

// SendRaw writes raw to the server exactly as given, valid JSON-RPC or not, for testing a
// server's error handling. When raw is a request whose id is not in use, the response is
// paired with it and SendRaw waits for it (bounded by ctx and the session's timeout).
func (s *Session) SendRaw(ctx context.Context, raw []byte) (*Response, error) {
	f := protocol.Decode(raw)
	s.mu.Lock()
	stateless, version := s.info.Stateless, string(s.info.Revision)
	_, busy := s.pending[f.ID.Key()]
	s.mu.Unlock()
	out := transport.Outgoing{Raw: raw, ID: f.ID.Raw, Method: f.Method, IsRequest: f.Kind == protocol.KindRequest,
		ProtocolVersion: versionHeader(version, f.Method), Stateless: stateless}
	if f.Kind != protocol.KindRequest || busy {
		return nil, s.sendUntracked(ctx, out, 0)
	}
	p := &pending{key: f.ID.Key(), id: f.ID, method: f.Method, timeout: s.cfg.RequestTimeout, done: make(chan outcome, 1)}
	ev, err := s.sendTracked(ctx, out, p)
	if err != nil {
		return nil, err
	}
	return s.await(ctx, p, ev)
}

func marshalParams(params any) (json.RawMessage, error) {
	switch p := params.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return p, nil
	case []byte:
		return json.RawMessage(p), nil
	}
	return protocol.Marshal(params) // no HTML escaping: the bytes are what was given
}

// versionHeader is the MCP-Protocol-Version value for a message: none before negotiation and
// none on initialize itself.
func versionHeader(version, method string) string {
	if method == "initialize" {
		return ""
	}
	return version
}
