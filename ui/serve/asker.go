package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// Policies for what the server asks (connect's elicit and sampling).
const (
	policyAsk     = "ask"     // park the question for the agent: pending, answer
	policyDecline = "decline" // sampling: refuse it
)

// Bounds of the questions waiting for an answer.
const (
	questionExpiry = 10 * time.Minute // a question not answered by then is answered cancel
	maxQuestions   = 64               // questions waiting at once, across sessions
	maxParamsShown = 16 << 10         // a question's params larger than this are left out: frame shows them
)

// Question is something a server asked that waits for the agent's answer.
type Question struct {
	ID            string          `json:"id" jsonschema:"the question's id: answer takes it"`
	Session       string          `json:"session"`
	Kind          string          `json:"kind" jsonschema:"form (elicitation with a schema), url (elicitation of a page to open) or sampling (the agent writes the model's reply)"`
	Message       string          `json:"message,omitempty" jsonschema:"what the server says to the user"`
	Schema        json.RawMessage `json:"schema,omitempty" jsonschema:"a form's requestedSchema: an accept's content must satisfy it"`
	URL           string          `json:"url,omitempty" jsonschema:"url mode: the page the user is asked to open"`
	ElicitationID string          `json:"elicitation_id,omitempty"`
	Params        json.RawMessage `json:"params,omitempty" jsonschema:"the request's params as sent (sampling: the messages); left out when larger than 16 KiB"`
	Seq           uint64          `json:"seq,omitempty" jsonschema:"the event that carried the question: frame shows its bytes"`
	Cut           bool            `json:"cut,omitempty" jsonschema:"the message, schema or URL is larger than 16 KiB and cut or left out: frame shows the request whole"`
	Expires       time.Time       `json:"expires" jsonschema:"when a question still waiting is answered cancel"`
}

// parked is a question and the request that waits for its answer.
type parked struct {
	q      Question
	schema json.RawMessage // a form's schema whole: the answer is checked against it
	n      uint64          // order of arrival
	reply  chan askReply
	once   sync.Once
}

type askReply struct {
	result json.RawMessage
	err    *session.RPCError
}

// give delivers the answer; only the first counts.
func (p *parked) give(result json.RawMessage, err *session.RPCError) bool {
	given := false
	p.once.Do(func() { p.reply <- askReply{result, err}; given = true })
	return given
}

// questions are the questions waiting, across sessions.
type questions struct {
	mu      sync.Mutex
	n       uint64
	all     map[string]*parked
	changed chan struct{} // closed and replaced when a question arrives or leaves
}

func newQuestions() *questions {
	return &questions{all: map[string]*parked{}, changed: make(chan struct{})}
}

// signalLocked wakes every waiter.
func (qs *questions) signalLocked() {
	close(qs.changed)
	qs.changed = make(chan struct{})
}

// add parks q; it fails when maxQuestions wait.
func (qs *questions) add(q Question, schema json.RawMessage) (*parked, error) {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	if len(qs.all) >= maxQuestions {
		return nil, fmt.Errorf("%d questions already wait for an answer", len(qs.all))
	}
	qs.n++
	q.ID = "q" + strconv.FormatUint(qs.n, 10)
	p := &parked{q: q, schema: schema, n: qs.n, reply: make(chan askReply, 1)}
	qs.all[q.ID] = p
	qs.signalLocked()
	return p, nil
}

// remove forgets a question.
func (qs *questions) remove(id string) {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	if _, ok := qs.all[id]; ok {
		delete(qs.all, id)
		qs.signalLocked()
	}
}

// get finds a waiting question.
func (qs *questions) get(id string) (*parked, error) {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	p, ok := qs.all[id]
	if !ok {
		return nil, fmt.Errorf("no question %q waits: it was answered, expired, or withdrawn by the server (pending lists what waits)", id)
	}
	return p, nil
}

// list is the questions waiting, of one session or ("") all, oldest first, with the
// channel closed at the next change and the arrival count so far.
func (qs *questions) list(sessionID string, after uint64) ([]Question, <-chan struct{}, uint64) {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	var ps []*parked
	for _, p := range qs.all {
		if (sessionID == "" || p.q.Session == sessionID) && p.n > after {
			ps = append(ps, p)
		}
	}
	slices.SortFunc(ps, func(a, b *parked) int { return int(a.n) - int(b.n) })
	out := make([]Question, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.q)
	}
	return out, qs.changed, qs.n
}

// asker is a session's Responder in serve: with policy ask, elicitation and sampling wait
// for the agent (pending, answer); otherwise, and for everything else, the Responder the
// session was opened with answers. roots/list answers with the roots set by the roots tool
// once it set them.
type asker struct {
	qs       *questions
	elicit   string      // policyAsk or a session.Elicit* policy (inner answers)
	sampling string      // policyAsk, or policyDecline / a fixed reply (inner answers)
	asked    atomic.Bool // a question was parked since the watchdog last looked

	mu       sync.Mutex
	inner    session.Responder // answers what is not asked: the session's own Responder
	id       string            // the session's id, once connected
	roots    []session.Root
	rootsSet bool
}

// setID names the session the questions are of.
func (a *asker) setID(id string) {
	a.mu.Lock()
	a.id = id
	a.mu.Unlock()
}

// Respond implements session.Responder.
func (a *asker) Respond(ctx context.Context, req *session.ServerRequest) (json.RawMessage, *session.RPCError) {
	a.mu.Lock()
	inner := a.inner
	a.mu.Unlock()
	switch req.Method {
	case "roots/list":
		a.mu.Lock()
		roots, set := slices.Clone(a.roots), a.rootsSet
		a.mu.Unlock()
		if set {
			if roots == nil {
				roots = []session.Root{}
			}
			b, _ := protocol.Marshal(map[string]any{"roots": roots}) // strings only: cannot fail
			return b, nil
		}
	case "elicitation/create":
		if a.elicit == policyAsk {
			return a.park(ctx, req)
		}
	case "sampling/createMessage":
		if a.sampling == policyAsk {
			return a.park(ctx, req)
		}
	}
	return inner.Respond(ctx, req)
}

// setInner replaces the Responder that answers what is not asked (a new session's).
func (a *asker) setInner(r session.Responder) {
	a.mu.Lock()
	a.inner = r
	a.mu.Unlock()
}

// setRoots replaces the roots roots/list answers with.
func (a *asker) setRoots(roots []session.Root) {
	a.mu.Lock()
	a.roots, a.rootsSet = slices.Clone(roots), true
	a.mu.Unlock()
}

// currentRoots are the roots roots/list answers with now.
func (a *asker) currentRoots() []session.Root {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.rootsSet {
		return slices.Clone(a.roots)
	}
	if h, ok := a.inner.(*session.Headless); ok { // a.mu is held
		return slices.Clone(h.Roots)
	}
	return nil
}

// park makes req a question and waits for the agent's answer, the request's end (the
// server cancelled it, the session closed) or the question's expiry.
func (a *asker) park(ctx context.Context, req *session.ServerRequest) (json.RawMessage, *session.RPCError) {
	a.mu.Lock()
	id := a.id
	a.mu.Unlock()
	q := questionOf(req)
	q.Session, q.Expires = id, time.Now().Add(questionExpiry).UTC().Truncate(time.Second)
	schema := q.Schema
	if len(q.Schema) > maxParamsShown {
		q.Schema, q.Cut = nil, true
	}
	if len(q.Message) > maxParamsShown || len(q.URL) > maxParamsShown {
		q.Message, q.URL, q.Cut = cutUTF8(q.Message, maxParamsShown), cutUTF8(q.URL, maxParamsShown), true
	}
	p, err := a.qs.add(q, schema)
	a.asked.Store(true)
	if err != nil {
		return nil, &session.RPCError{Code: -1, Message: "mcpscope serve: " + err.Error()}
	}
	defer a.qs.remove(p.q.ID)
	timer := time.NewTimer(questionExpiry)
	defer timer.Stop()
	select {
	case r := <-p.reply:
		return r.result, r.err
	case <-ctx.Done():
		return nil, &session.RPCError{Code: -32800, Message: "request cancelled before the agent answered: " + context.Cause(ctx).Error()}
	case <-timer.C:
		if p.give(nil, nil) && q.Kind != "sampling" {
			return json.RawMessage(`{"action":"cancel"}`), nil
		}
		return nil, &session.RPCError{Code: -1, Message: "mcpscope serve: no answer within " + questionExpiry.String()}
	}
}

// questionOf describes a server request as a question.
func questionOf(req *session.ServerRequest) Question {
	q := Question{Kind: "sampling"}
	if req.Event != nil {
		q.Seq = req.Event.Seq
	}
	if len(req.Params) <= maxParamsShown {
		q.Params = req.Params
	}
	if req.Method != "elicitation/create" {
		return q
	}
	var p struct {
		Mode          string          `json:"mode"`
		Message       string          `json:"message"`
		Schema        json.RawMessage `json:"requestedSchema"`
		URL           string          `json:"url"`
		ElicitationID string          `json:"elicitationId"`
	}
	_ = json.Unmarshal(req.Params, &p)
	q.Kind, q.Message, q.ElicitationID = "form", p.Message, p.ElicitationID
	if p.Mode == "url" {
		q.Kind, q.URL = "url", p.URL
	} else {
		q.Schema = p.Schema
	}
	q.Params = nil // its members are shown on their own
	return q
}
