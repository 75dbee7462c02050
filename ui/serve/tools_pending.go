package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/mcpscope/mcpscope/session"
)

// PendingIn is pending's input.
type PendingIn struct {
	Session string `json:"session,omitempty" jsonschema:"only this session's questions; default: every session's"`
	WaitMS  int    `json:"wait_ms,omitempty" jsonschema:"when none waits, wait up to this many milliseconds for one (at most 600000)"`
}

// PendingOut is pending's result.
type PendingOut struct {
	Questions []Question `json:"questions" jsonschema:"what servers asked that waits for an answer, oldest first"`
	Calls     []string   `json:"calls,omitempty" jsonschema:"the calls still running or not yet read: await_call takes each"`
}

// AnswerIn is answer's input.
type AnswerIn struct {
	ID      string          `json:"id" jsonschema:"the question's id (pending lists them)"`
	Action  string          `json:"action" jsonschema:"accept (a form: with content; url: the user opened the page and is done; sampling: with text), decline or cancel"`
	Content json.RawMessage `json:"content,omitempty" jsonschema:"a form's answer: an object that satisfies the question's schema"`
	Text    string          `json:"text,omitempty" jsonschema:"sampling: the model's reply"`
	Model   string          `json:"model,omitempty" jsonschema:"sampling: the model named in the reply (default mcpscope-agent)"`
}

// Answered is answer's result.
type Answered struct {
	ID      string          `json:"id"`
	Session string          `json:"session"`
	Sent    json.RawMessage `json:"sent,omitempty" jsonschema:"the result sent to the server"`
	Error   string          `json:"error,omitempty" jsonschema:"the error sent to the server instead (sampling declined)"`
	Calls   []string        `json:"calls,omitempty" jsonschema:"the session's calls not yet read: await_call gives each one's outcome"`
}

// AwaitIn is await_call's input.
type AwaitIn struct {
	Call   string `json:"call" jsonschema:"the call id a tool returned with pending or after wait_ms"`
	WaitMS int    `json:"wait_ms,omitempty" jsonschema:"wait at most this many milliseconds (default 30000, at most 600000); a question from the server ends the wait at once"`
}

// waitOf is a wait given in milliseconds, bounded, with a default.
func waitOf(ms int, def time.Duration) time.Duration {
	if ms <= 0 {
		return def
	}
	return min(time.Duration(ms)*time.Millisecond, maxAwait)
}

func (s *Server) pending(ctx context.Context, in PendingIn) (PendingOut, error) {
	if in.Session != "" {
		if _, err := s.reg.get(in.Session); err != nil {
			return PendingOut{}, err
		}
	}
	var timeout <-chan time.Time
	if in.WaitMS > 0 {
		t := time.NewTimer(waitOf(in.WaitMS, 0))
		defer t.Stop()
		timeout = t.C
	}
	for {
		qs, changed, _ := s.questions.list(in.Session, 0)
		if len(qs) > 0 || timeout == nil {
			return PendingOut{Questions: qs, Calls: s.callsOf(in.Session)}, nil
		}
		select {
		case <-changed:
		case <-timeout:
			timeout = nil
		case <-ctx.Done():
			return PendingOut{}, context.Cause(ctx)
		}
	}
}

// callsOf are the calls not yet read, of a session or ("") every session.
func (s *Server) callsOf(sessionID string) []string {
	if sessionID != "" {
		return s.calls.ofSession(sessionID)
	}
	var out []string
	for _, l := range s.reg.list() {
		out = append(out, s.calls.ofSession(l.id)...)
	}
	return out
}

func (s *Server) answer(_ context.Context, in AnswerIn) (Answered, error) {
	p, err := s.questions.get(in.ID)
	if err != nil {
		return Answered{}, err
	}
	result, rerr, err := reply(p.q, p.schema, in)
	if err != nil {
		return Answered{}, err
	}
	if !p.give(result, rerr) {
		return Answered{}, fmt.Errorf("question %s was answered already", in.ID)
	}
	s.questions.remove(in.ID) // at once: an await_call right after must not see it waiting
	out := Answered{ID: in.ID, Session: p.q.Session, Sent: result, Calls: s.calls.ofSession(p.q.Session)}
	if rerr != nil {
		out.Error = rerr.Message
	}
	return out, nil
}

// reply is the result (or error) an answer sends for a question; err when the answer does
// not fit the question.
func reply(q Question, schema json.RawMessage, in AnswerIn) (json.RawMessage, *session.RPCError, error) {
	switch in.Action {
	case "accept", "decline", "cancel":
	default:
		return nil, nil, fmt.Errorf("action %q: want accept, decline or cancel", in.Action)
	}
	if q.Kind == "sampling" {
		if in.Action != "accept" {
			return nil, &session.RPCError{Code: -1, Message: "sampling " + in.Action + "d by the user"}, nil
		}
		if in.Text == "" {
			return nil, nil, fmt.Errorf("accepting a sampling request needs text: the model's reply")
		}
		model := in.Model
		if model == "" {
			model = "mcpscope-agent"
		}
		b, _ := json.Marshal(map[string]any{"role": "assistant", "content": map[string]any{"type": "text", "text": in.Text},
			"model": model, "stopReason": "endTurn"})
		return b, nil, nil
	}
	if in.Action != "accept" {
		return json.RawMessage(`{"action":"` + in.Action + `"}`), nil, nil
	}
	if q.Kind == "url" {
		if len(in.Content) > 0 {
			return nil, nil, fmt.Errorf("a url question takes no content: accept says the user opened the page")
		}
		return json.RawMessage(`{"action":"accept"}`), nil, nil
	}
	if err := checkContent(schema, in.Content); err != nil {
		return nil, nil, err
	}
	b, _ := json.Marshal(map[string]any{"action": "accept", "content": in.Content})
	return b, nil, nil
}

// checkContent fails when a form's content does not satisfy its requested schema, or holds
// a value an elicitation result cannot (strings, numbers, booleans and string arrays only).
func checkContent(schema, content json.RawMessage) error {
	var v map[string]any
	if len(content) == 0 {
		content = json.RawMessage(`{}`)
	}
	if err := json.Unmarshal(content, &v); err != nil || v == nil {
		return fmt.Errorf("content must be an object of the form's fields")
	}
	for k, x := range v {
		switch x := x.(type) {
		case string, float64, bool:
		case []any:
			for _, e := range x {
				if _, ok := e.(string); !ok {
					return fmt.Errorf("content.%s: an array holds strings only", k)
				}
			}
		default:
			return fmt.Errorf("content.%s: a value is a string, number, boolean or array of strings", k)
		}
	}
	var sch jsonschema.Schema
	if err := json.Unmarshal(schema, &sch); err != nil {
		return nil // the server's schema is not one: the timeline's findings say so; send what was given
	}
	rs, err := sch.Resolve(nil)
	if err != nil {
		return nil
	}
	if err := rs.Validate(v); err != nil {
		return fmt.Errorf("content does not satisfy the form's schema: %v", err)
	}
	return nil
}

func (s *Server) awaitCall(ctx context.Context, in AwaitIn) (Answer, error) {
	c, err := s.calls.get(in.Call)
	if err != nil {
		return Answer{}, err
	}
	return s.await(ctx, c, 0, waitOf(in.WaitMS, defaultAwait))
}
