package fault

import (
	"fmt"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
)

// maxRequests bounds the requests an engine remembers to tell a response's method, tool
// and latency; past it the oldest half is forgotten (their responses match as method-less).
const maxRequests = 4096

// Applied is one fault as it was applied: by which rule, to which message, and what was
// passed on instead.
type Applied struct {
	Rule      string // the rule's name: "rule 2", "FILE:7"
	Text      string // the rule as written
	Action    Action
	Dir       protocol.Direction
	Original  []byte   // the message as it came
	Delivered [][]byte // what was passed on in its place; nil when nothing was
	Answer    []byte   // the answer mcpscope gave the sender in the other side's place
	Held      bool     // reorder: held until the next matching message has passed
	Arg       string   // the action's argument: "2s", "truncate", "100/s"
}

// Summary is the fault in a line: what was done, by which rule.
func (a *Applied) Summary() string {
	what := string(a.Action)
	if a.Action == Corrupt || a.Action == Delay || a.Action == Throttle {
		what += " " + a.Arg
	}
	switch {
	case a.Answer != nil:
		what = "error: answered by mcpscope"
	case a.Action == Error:
		what = "error: response replaced by mcpscope"
	case a.Action == Drop:
		what = "dropped"
	case a.Held:
		what = "reorder: held until the next matching message has passed"
	case a.Action == Disconnect:
		what = "disconnected"
	}
	return fmt.Sprintf("%s (%s: %s)", what, a.Rule, a.Text)
}

// Verdict is what to do with one message.
type Verdict struct {
	Deliver    [][]byte      // pass these on, in order (the message itself when no rule acted)
	Wait       time.Duration // before passing them on (delay)
	Rate       int64         // throttle: pass them on at this many bytes a second
	Answer     []byte        // send this back to the sender, made by mcpscope
	Disconnect bool          // close the stream (after Deliver, which is then empty)
	Applied    *Applied      // what was done; nil when no rule acted
	Hold       string        // the query of the breakpoint that holds the message ("" when none)
	HoldMethod string        // the held message's method, or its request's for a response
}

// Engine applies rules to the messages of one conversation, both directions. It is safe
// for concurrent use: each direction's messages are judged in their order.
type Engine struct {
	mu    sync.Mutex
	rules []ruleState
	seed  uint64
	seen  map[drawKey]uint32 // how often each rule has drawn for the same bytes (draw.go)
	reqs  map[reqKey]reqInfo
	order []reqKey
	held  map[heldKey][]byte
	count int

	breaks *Breakpoints // the user's breakpoints, judged before the rules; nil when none
}

type ruleState struct {
	Rule
	seen, applied int
}

type reqKey struct {
	from protocol.Direction
	id   string
}

type reqInfo struct {
	method, tool string
	at           time.Time
}

type heldKey struct {
	rule int
	dir  protocol.Direction
}

// NewEngine makes an engine of rules; seed makes the draws of p= repeatable.
func NewEngine(rules []Rule, seed uint64) *Engine {
	e := &Engine{seed: seed, seen: map[drawKey]uint32{}, reqs: map[reqKey]reqInfo{}, held: map[heldKey][]byte{}}
	for _, r := range rules {
		e.rules = append(e.rules, ruleState{Rule: r})
	}
	return e
}

// busy reports whether the engine has anything to judge: rules, or an enabled breakpoint.
func (e *Engine) busy() bool { return len(e.rules) > 0 || e.breaks.active() }

// Applied is how many faults the engine has applied.
func (e *Engine) Applied() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.count
}

// Judge decides what happens to one message going in direction dir (its exact bytes,
// without a line terminator). The first rule that matches and may act decides; a message
// no rule acts on is passed on as it is (Deliver holds raw itself).
func (e *Engine) Judge(dir protocol.Direction, raw []byte, now time.Time) Verdict {
	return e.judge(dir, raw, now, true)
}

// JudgeRules is Judge without the breakpoints: how a message a breakpoint held is judged
// when the user forwards it (as the bytes delivered, edited or not). A breakpoint holds
// first; the rules then act on what goes on, as on any other message.
func (e *Engine) JudgeRules(dir protocol.Direction, raw []byte, now time.Time) Verdict {
	return e.judge(dir, raw, now, false)
}

func (e *Engine) judge(dir protocol.Direction, raw []byte, now time.Time, breaks bool) Verdict {
	e.mu.Lock()
	defer e.mu.Unlock()
	m := e.subject(dir, raw, now)
	pass := Verdict{Deliver: [][]byte{raw}}
	if e.breaks != nil && breaks {
		if q := e.breaks.matching(m); q != "" {
			if m.answered != nil {
				e.reqs[*m.answered] = m.req
			}
			return Verdict{Hold: q, HoldMethod: m.method}
		}
	}
	for i := range e.rules {
		r := &e.rules[i]
		if !r.Match.Match(m) {
			continue
		}
		if h, ok := e.held[heldKey{i, dir}]; ok {
			// The next matching message has come: it passes, then the held one.
			delete(e.held, heldKey{i, dir})
			return Verdict{Deliver: [][]byte{raw, h}}
		}
		r.seen++
		if r.seen <= r.After || (r.Times > 0 && r.applied >= r.Times) {
			continue
		}
		v, ok := r.verdict(m.f, raw)
		if !ok {
			continue
		}
		if r.P < 1 && e.draw(i, dir, raw) >= r.P {
			continue
		}
		if r.Action == Reorder {
			e.held[heldKey{i, dir}] = raw
		}
		r.applied++
		e.count++
		v.Applied = &Applied{Rule: r.Name, Text: r.Text, Action: r.Action, Dir: dir, Original: raw,
			Delivered: v.Deliver, Answer: v.Answer, Held: r.Action == Reorder, Arg: r.argText()}
		return v
	}
	return pass
}

// Release gives back the messages held by reorder rules in direction dir (the stream
// ends: nothing is held forever).
func (e *Engine) Release(dir protocol.Direction) [][]byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out [][]byte
	for i := range e.rules {
		k := heldKey{i, dir}
		if h, ok := e.held[k]; ok {
			out = append(out, h)
			delete(e.held, k)
		}
	}
	return out
}

// verdict is what r does to a message; false when its action does not apply to it (an
// error for a notification, a wrong id for a message without one).
func (r *ruleState) verdict(f *protocol.Frame, raw []byte) (Verdict, bool) {
	switch r.Action {
	case Delay:
		return Verdict{Deliver: [][]byte{raw}, Wait: r.Delay}, true
	case Drop:
		return Verdict{}, true
	case Disconnect:
		return Verdict{Disconnect: true}, true
	case Throttle:
		return Verdict{Deliver: [][]byte{raw}, Rate: r.Rate}, true
	case Reorder:
		return Verdict{}, true
	case Error:
		if f.ID.IsZero() {
			return Verdict{}, false
		}
		ans, err := protocol.EncodeError(f.ID, r.Code, r.Message, nil)
		if err != nil {
			return Verdict{}, false
		}
		switch {
		case f.Kind == protocol.KindRequest:
			return Verdict{Answer: ans}, true
		case f.Kind.IsResponse():
			return Verdict{Deliver: [][]byte{ans}}, true
		}
		return Verdict{}, false
	case Corrupt:
		out, ok := corrupt(r.Kind, f, raw)
		if !ok {
			return Verdict{}, false
		}
		return Verdict{Deliver: out}, true
	}
	return Verdict{}, false
}

// subject decodes raw and learns what the query needs about it: a request is remembered,
// a response finds its request's method, tool and time.
func (e *Engine) subject(dir protocol.Direction, raw []byte, now time.Time) *wire {
	f := protocol.Decode(raw)
	m := &wire{f: f, dir: dir, method: f.Method}
	switch {
	case f.Kind == protocol.KindRequest && !f.ID.IsZero():
		m.tool = toolOf(f)
		k := reqKey{dir, f.ID.Key()}
		if _, ok := e.reqs[k]; !ok {
			e.order = append(e.order, k)
		}
		e.reqs[k] = reqInfo{f.Method, m.tool, now}
		if len(e.order) > maxRequests {
			for _, old := range e.order[:maxRequests/2] {
				delete(e.reqs, old)
			}
			e.order = append([]reqKey(nil), e.order[maxRequests/2:]...)
		}
	case f.Kind.IsResponse() && !f.ID.IsZero():
		k := reqKey{opposite(dir), f.ID.Key()}
		if req, ok := e.reqs[k]; ok {
			m.method, m.tool, m.latency = req.method, req.tool, now.Sub(req.at)
			m.answered, m.req = &k, req
			delete(e.reqs, k)
		}
		m.toolErr = m.method == "tools/call" && f.Kind == protocol.KindResult && isToolError(f.Result)
	}
	return m
}

// arg is the rule's argument as the summary shows it.
func (r *Rule) argText() string {
	switch r.Action {
	case Delay:
		return r.Delay.String()
	case Corrupt:
		return r.Kind
	case Throttle:
		return fmt.Sprintf("%d/s", r.Rate)
	}
	return ""
}
