package recordings

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// How a Responder matches a live server request with a recorded one.
const (
	// AnswerShape (the default): the recorded request with the same method and params
	// (_meta ignored); else, among those of the same method whose params have the same
	// shape (the same members and types, the ignored places left out), the nearest one by
	// the values that differ outside the ignored places, those not used yet first.
	//
	// Whatever the rule, a string that differs at an ignored place between the recorded
	// request and the live one (an elicitation's new id) is remembered, so that the
	// recorded responses mentioning it are compared with the live value in its place (see
	// Substitute).
	AnswerShape = "shape"
	// AnswerParams: only the same method and params (_meta ignored).
	AnswerParams = "params"
	// AnswerOrder: the Nth request of a method gets the Nth recorded answer of that
	// method, whatever its params.
	AnswerOrder = "order"
)

// answer is one recorded server request and the client's answer to it. For a JSON-RPC
// request both are frames read from the recording when needed; for an input request of an
// input_required result, which is small and rare, both are held.
type answer struct {
	req, resp int32 // indices in the Transcript's frames; -1 when held
	params    json.RawMessage
	result    json.RawMessage
	used      bool
}

// Responder answers a live server's requests with the answers the recording holds for the
// same requests (see the Answer… rules). Several recorded answers to the same request are
// given in order, the last one repeated. Requests the recording did not answer go to
// Fallback.
type Responder struct {
	Fallback session.Responder
	// Match is AnswerShape (also when empty), AnswerParams or AnswerOrder.
	Match string
	// Ignore are the places whose values do not tell recorded requests apart (the
	// replay's ignore rules, pointers into the request: /params/…).
	Ignore *Ignore

	t        *Transcript
	mu       sync.Mutex
	list     []answer
	byKey    map[string][]int // method and params key → indices in list, in recorded order
	byMethod map[string][]int
	next     map[string]int
	subst    map[string]string // a recorded volatile value → the live one
}

// NewResponder collects the recorded answers to the server's requests: JSON-RPC
// server→client requests and the input requests of 2026-07-28 input_required results.
func NewResponder(t *Transcript, fallback session.Responder) *Responder {
	r := &Responder{Fallback: fallback, t: t, byKey: map[string][]int{}, byMethod: map[string][]int{}, next: map[string]int{}, subst: map[string]string{}}
	for fi := range t.frames {
		fr := &t.frames[fi]
		if fr.dir != protocol.ServerToClient || fr.kind != protocol.KindRequest || fr.resp < 0 || t.frames[fr.resp].dir != protocol.ClientToServer {
			continue
		}
		e, err := t.entry(fi)
		if err != nil {
			continue
		}
		r.add(e.Event.Frame.Method, e.Event.Frame.Params, answer{req: int32(fi), resp: fr.resp})
	}
	r.addInputAnswers(t)
	return r
}

func (r *Responder) add(method string, params json.RawMessage, a answer) {
	i := len(r.list)
	r.list = append(r.list, a)
	k := method + " " + paramsKey(params)
	r.byKey[k] = append(r.byKey[k], i)
	r.byMethod[method] = append(r.byMethod[method], i)
}

// addInputAnswers pairs each input request of an input_required result with the answer the
// retry carried in inputResponses.
func (r *Responder) addInputAnswers(t *Transcript) {
	for _, chain := range t.chains {
		for i := 1; i < len(chain); i++ {
			prev := t.ResponseTo(chain[i-1])
			retry := t.BySeq(chain[i])
			if prev == nil || retry == nil || prev.Event.Frame.Kind != protocol.KindResult {
				continue
			}
			var ir struct {
				InputRequests map[string]struct {
					Method string          `json:"method"`
					Params json.RawMessage `json:"params"`
				} `json:"inputRequests"`
			}
			var rp struct {
				InputResponses map[string]json.RawMessage `json:"inputResponses"`
			}
			if json.Unmarshal(prev.Event.Frame.Result, &ir) != nil || json.Unmarshal(retry.Event.Frame.Params, &rp) != nil {
				continue
			}
			keys := make([]string, 0, len(ir.InputRequests))
			for key := range ir.InputRequests {
				keys = append(keys, key)
			}
			sort.Strings(keys)
			for _, key := range keys {
				in := ir.InputRequests[key]
				if res, ok := rp.InputResponses[key]; ok {
					r.add(in.Method, in.Params, answer{req: -1, resp: -1, params: in.Params, result: res})
				}
			}
		}
	}
}

// Respond implements session.Responder.
func (r *Responder) Respond(ctx context.Context, req *session.ServerRequest) (json.RawMessage, *session.RPCError) {
	r.mu.Lock()
	i, ok := r.pick(req.Method, req.Params)
	var a answer
	if ok {
		a = r.list[i]
		r.list[i].used = true
		r.learn(a, req.Params)
	}
	r.mu.Unlock()
	if ok {
		if res, rerr, err := r.answerOf(a); err == nil {
			return res, rerr
		}
	}
	if r.Fallback == nil {
		return nil, &session.RPCError{Code: protocol.MethodNotFound, Message: "no recorded answer to " + req.Method}
	}
	return r.Fallback.Respond(ctx, req)
}

// pick chooses the recorded answer for a live request; r.mu is held.
func (r *Responder) pick(method string, params json.RawMessage) (int, bool) {
	inOrder := func(k string, list []int) (int, bool) {
		if len(list) == 0 {
			return 0, false
		}
		n := min(r.next[k], len(list)-1)
		r.next[k] = n + 1
		return list[n], true
	}
	if r.Match == AnswerOrder {
		return inOrder("\x00"+method, r.byMethod[method])
	}
	k := method + " " + paramsKey(params)
	if i, ok := inOrder(k, r.byKey[k]); ok || r.Match == AnswerParams {
		return i, ok
	}
	return r.nearest(method, params)
}

// nearest is AnswerShape's second step: the recorded request of the same method and shape
// whose values differ least outside the ignored places, unused ones first.
func (r *Responder) nearest(method string, params json.RawMessage) (int, bool) {
	live := wrapParams(params)
	shape := r.shapeOf(live)
	best, bestN, bestUsed := -1, 0, true
	for _, i := range r.byMethod[method] {
		a := r.list[i]
		p, err := r.paramsOf(a)
		if err != nil {
			continue
		}
		rec := wrapParams(p)
		if r.shapeOf(rec) != shape {
			continue
		}
		n := len(Diff(rec, live, r.Ignore))
		if best < 0 || (bestUsed && !a.used) || a.used == bestUsed && n < bestN {
			best, bestN, bestUsed = i, n, a.used
		}
	}
	return best, best >= 0
}

// learn remembers the values of the chosen recorded request that differ from the live one
// at ignored places; r.mu is held.
func (r *Responder) learn(a answer, params json.RawMessage) {
	p, err := r.paramsOf(a)
	if err != nil {
		return
	}
	for _, d := range Diff(wrapParams(p), wrapParams(params), nil) {
		r.volatile(d)
	}
}

// volatile remembers a value that differs at an ignored place, when it is a string long
// enough to be an identifier rather than a word.
func (r *Responder) volatile(d Difference) {
	if r.Ignore == nil || !r.Ignore.match(protocol.SplitPointer(d.Path)) {
		return
	}
	var rec, live string
	if json.Unmarshal(d.Recorded, &rec) != nil || json.Unmarshal(d.Live, &live) != nil || len(rec) < 8 || rec == live {
		return
	}
	r.subst[rec] = live
}

// Substitute returns raw with every volatile value a matched server request had in the
// recording replaced by the value the live server gave (an elicitation's id in the text of
// the tool's result): what a recorded response is compared with the live one as.
func (r *Responder) Substitute(raw []byte) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.subst) == 0 {
		return raw
	}
	keys := make([]string, 0, len(r.subst))
	for k := range r.subst {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return len(b) - len(a) }) // longest first
	out := raw
	for _, k := range keys {
		ek, _ := json.Marshal(k)
		ev, _ := json.Marshal(r.subst[k])
		out = bytes.ReplaceAll(out, ek[1:len(ek)-1], ev[1:len(ev)-1])
	}
	return out
}

// shapeOf is the shape of a JSON value: its members and the types of its values, the
// ignored places left out.
func (r *Responder) shapeOf(raw []byte) string {
	v, err := decodeJSON(raw)
	if err != nil {
		return "?" + string(raw)
	}
	var b strings.Builder
	r.shape(&b, v, nil)
	return b.String()
}

func (r *Responder) shape(b *strings.Builder, v any, at []string) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			if r.Ignore.match(append(at[:len(at):len(at)], k)) {
				continue
			}
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for _, k := range keys {
			fmt.Fprintf(b, "%q:", k)
			r.shape(b, x[k], append(at[:len(at):len(at)], k))
			b.WriteByte(',')
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			r.shape(b, e, append(at[:len(at):len(at)], fmt.Sprint(i)))
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case string:
		b.WriteByte('s')
	case bool:
		b.WriteByte('b')
	case nil:
		b.WriteByte('z')
	default:
		b.WriteByte('n')
	}
}

// wrapParams is the request's params as the request frame holds them, for the ignore
// rules' pointers (/params/…).
func wrapParams(params json.RawMessage) []byte {
	if len(bytes.TrimSpace(params)) == 0 {
		return []byte(`{}`)
	}
	return append(append([]byte(`{"params":`), params...), '}')
}

// paramsOf reads a recorded request's params.
func (r *Responder) paramsOf(a answer) (json.RawMessage, error) {
	if a.req < 0 {
		return a.params, nil
	}
	e, err := r.t.entry(int(a.req))
	if err != nil {
		return nil, err
	}
	return e.Event.Frame.Params, nil
}

// answerOf reads a recorded answer.
func (r *Responder) answerOf(a answer) (json.RawMessage, *session.RPCError, error) {
	if a.resp < 0 {
		return a.result, nil, nil
	}
	e, err := r.t.entry(int(a.resp))
	if err != nil {
		return nil, nil, err
	}
	f := e.Event.Frame
	if f.Kind == protocol.KindError && f.Error != nil {
		return nil, &session.RPCError{Code: f.Error.Code, Message: f.Error.Message, Data: f.Error.Data}, nil
	}
	return f.Result, nil, nil
}
