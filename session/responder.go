package session

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"sort"

	"github.com/mcpscope/mcpscope/protocol"
)

// ServerRequest is something the server asks of the client: a server→client request
// (stateful era) or one entry of an input_required result's inputRequests (2026-07-28).
type ServerRequest struct {
	Method   string
	Params   json.RawMessage
	ID       protocol.ID // the JSON-RPC id; zero for an input request
	Key      string      // the inputRequests key; "" for a JSON-RPC request
	Event    *Event      // the event that carried it (the request, or the input_required result)
	Revision protocol.Revision
}

// Responder answers what the server asks. The TUI answers by hand; Headless answers from
// flags. Respond returns the result object, or an error to send back.
type Responder interface {
	Respond(ctx context.Context, req *ServerRequest) (json.RawMessage, *RPCError)
}

// SetResponder replaces what answers the server's requests. Call it before Connect: a
// front end that answers by its own means (mcpscope serve parks questions for its client)
// wraps the Responder the session was configured with.
func (s *Session) SetResponder(r Responder) { s.cfg.Responder = r }

// SeqAfter makes the session's first event seq+1. Call it before Connect: a front end
// that replaces a session which ended (mcpscope serve's reconnect) keeps one numbering
// across them, so a seq names one event.
func (s *Session) SeqAfter(seq uint64) {
	s.mu.Lock()
	s.seq = max(s.seq, seq)
	s.mu.Unlock()
}

// Responder is what answers the server's requests.
func (s *Session) Responder() Responder { return s.cfg.Responder }

// Root is one root the client exposes.
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// RootFromPath turns a path or URI given on the command line into a Root.
func RootFromPath(p string) Root {
	if u, err := url.Parse(p); err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		return Root{URI: p}
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = p
	}
	return Root{URI: (&url.URL{Scheme: "file", Path: abs}).String(), Name: filepath.Base(abs)}
}

// Elicitation answers of the headless responder.
const (
	ElicitDecline        = "decline"
	ElicitCancel         = "cancel"
	ElicitAcceptDefaults = "accept-defaults"
)

// Headless answers server requests without a person: roots from flags, elicitation by a fixed
// policy, sampling declined unless a canned reply is given, ping with an empty result.
type Headless struct {
	Roots         []Root
	Elicit        string // ElicitDecline (default), ElicitCancel or ElicitAcceptDefaults
	SamplingReply string // canned assistant text; empty declines
	SamplingModel string
}

// Respond implements Responder.
func (h *Headless) Respond(ctx context.Context, req *ServerRequest) (json.RawMessage, *RPCError) {
	switch req.Method {
	case "ping":
		return json.RawMessage(`{}`), nil
	case "roots/list":
		roots := h.Roots
		if roots == nil {
			roots = []Root{}
		}
		return mustJSON(map[string]any{"roots": roots}), nil
	case "sampling/createMessage":
		if h.SamplingReply == "" {
			return nil, &RPCError{Code: -1, Message: "sampling declined: mcpscope runs headless; give --sampling-reply TEXT to answer"}
		}
		model := h.SamplingModel
		if model == "" {
			model = "mcpscope-canned"
		}
		return mustJSON(map[string]any{"role": "assistant", "content": map[string]any{"type": "text", "text": h.SamplingReply},
			"model": model, "stopReason": "endTurn"}), nil
	case "elicitation/create":
		return h.elicit(req.Params), nil
	}
	return nil, &RPCError{Code: protocol.MethodNotFound, Message: "mcpscope does not handle " + req.Method}
}

func (h *Headless) elicit(params json.RawMessage) json.RawMessage {
	switch h.Elicit {
	case ElicitCancel:
		return json.RawMessage(`{"action":"cancel"}`)
	case ElicitAcceptDefaults:
	default:
		return json.RawMessage(`{"action":"decline"}`)
	}
	var p struct {
		Mode   string `json:"mode"`
		Schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		} `json:"requestedSchema"`
	}
	_ = json.Unmarshal(params, &p)
	if p.Mode == "url" {
		return json.RawMessage(`{"action":"accept"}`)
	}
	content := map[string]any{}
	required := map[string]bool{}
	for _, name := range p.Schema.Required {
		required[name] = true
	}
	for name, raw := range p.Schema.Properties {
		if v, ok := fillValue(raw, required[name]); ok {
			content[name] = v
		}
	}
	return mustJSON(map[string]any{"action": "accept", "content": content})
}

// fieldSchema is the part of an elicitation field schema the headless answer looks at.
type fieldSchema struct {
	Type      string            `json:"type"`
	Default   json.RawMessage   `json:"default"`
	Enum      []json.RawMessage `json:"enum"`
	Format    string            `json:"format"`
	MinLength *int              `json:"minLength"`
	MaxLength *int              `json:"maxLength"`
	Minimum   *float64          `json:"minimum"`
	Maximum   *float64          `json:"maximum"`
	MinItems  *int              `json:"minItems"`
	OneOf     []constOption     `json:"oneOf"`
	AnyOf     []constOption     `json:"anyOf"`
	Items     struct {
		Enum  []json.RawMessage `json:"enum"`
		AnyOf []constOption     `json:"anyOf"`
	} `json:"items"`
}

type constOption struct {
	Const json.RawMessage `json:"const"`
}

// fillValue is the accept-defaults answer for one field: its default, else (for a required
// field) the simplest value its constraints allow. ElicitResult content holds strings,
// integers, booleans and string arrays only, so a number is sent as an integer within the
// field's bounds.
func fillValue(raw json.RawMessage, required bool) (any, bool) {
	var f fieldSchema
	if json.Unmarshal(raw, &f) != nil {
		return nil, false
	}
	if len(f.Default) > 0 {
		var n float64
		if (f.Type == "number" || f.Type == "integer") && json.Unmarshal(f.Default, &n) == nil {
			return boundedInt(n, f.Minimum, f.Maximum), true
		}
		return f.Default, true
	}
	if !required {
		return nil, false
	}
	switch {
	case len(f.Enum) > 0:
		return f.Enum[0], true
	case len(f.OneOf) > 0 && len(f.OneOf[0].Const) > 0:
		return f.OneOf[0].Const, true
	case len(f.AnyOf) > 0 && len(f.AnyOf[0].Const) > 0:
		return f.AnyOf[0].Const, true
	}
	switch f.Type {
	case "number", "integer":
		return boundedInt(0, f.Minimum, f.Maximum), true
	case "boolean":
		return false, true
	case "array":
		opts := append([]json.RawMessage{}, f.Items.Enum...)
		for _, a := range f.Items.AnyOf {
			opts = append(opts, a.Const)
		}
		n := 0
		if f.MinItems != nil {
			n = min(*f.MinItems, len(opts))
		}
		return opts[:n], true
	}
	return placeholderString(f), true
}

// boundedInt rounds n to an integer within [lo, hi].
func boundedInt(n float64, lo, hi *float64) int64 {
	v := math.Round(n)
	if lo != nil && v < *lo {
		v = math.Ceil(*lo)
	}
	if hi != nil && v > *hi {
		v = math.Floor(*hi)
	}
	return int64(v)
}

// placeholderString is a string that satisfies the field's format and length limits.
func placeholderString(f fieldSchema) string {
	s := map[string]string{"email": "user@example.com", "uri": "https://example.com", "date": "2026-01-01",
		"date-time": "2026-01-01T00:00:00Z"}[f.Format]
	if s == "" {
		s = "x"
	}
	if f.MinLength != nil {
		for len(s) < *f.MinLength {
			s += "x"
		}
	}
	if f.MaxLength != nil && len(s) > *f.MaxLength {
		s = s[:*f.MaxLength]
	}
	return s
}

// followChain answers input_required results (2026-07-28 multi round-trip requests): each
// input request goes to the Responder, then the original request is retried with a new id,
// inputResponses and the exact requestState, until a final result arrives.
func (s *Session) followChain(ctx context.Context, method string, params json.RawMessage, o callOpts, resp *Response) (*Response, error) {
	const maxRounds = 16
	chain := []*Event{resp.Request}
	first := resp.Request.Seq
	for round := 0; round < maxRounds && protocol.ResultType(resp.Event.Frame) == "input_required"; round++ {
		var ir struct {
			InputRequests map[string]struct {
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			} `json:"inputRequests"`
			RequestState *string `json:"requestState"`
		}
		if err := json.Unmarshal(resp.Result, &ir); err != nil {
			return resp, fmt.Errorf("%s: input_required result: %w", method, err)
		}
		keys := make([]string, 0, len(ir.InputRequests))
		for k := range ir.InputRequests {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		answers := map[string]json.RawMessage{}
		for _, k := range keys {
			in := ir.InputRequests[k]
			res, rerr := s.cfg.Responder.Respond(ctx, &ServerRequest{Method: in.Method, Params: in.Params, Key: k, Event: resp.Event, Revision: s.Info().Revision})
			if rerr != nil {
				s.errorEvent("%s: input request %q (%s) not answered: %s", method, k, in.Method, rerr.Message)
				return resp, fmt.Errorf("%s: input request %q (%s): %w", method, k, in.Method, rerr)
			}
			answers[k] = res
		}
		retry, err := withInputs(params, answers, ir.RequestState)
		if err != nil {
			return resp, err
		}
		o.chainSeq = first
		next, err := s.call(ctx, method, retry, o)
		if next != nil && next.Request != nil {
			chain = append(chain, next.Request)
		}
		if err != nil {
			if next != nil {
				next.Chain = chain
			}
			return next, err
		}
		resp = next
	}
	resp.Chain = chain
	return resp, nil
}

// withInputs adds inputResponses and requestState to the original params.
func withInputs(params json.RawMessage, answers map[string]json.RawMessage, state *string) (json.RawMessage, error) {
	if len(params) == 0 {
		params = json.RawMessage(`{}`)
	}
	ms, ok := protocol.ObjectMembers(params)
	if !ok {
		return nil, fmt.Errorf("cannot retry: params are not an object")
	}
	out := ms[:0:0]
	for _, m := range ms {
		if m.Key != "inputResponses" && m.Key != "requestState" {
			out = append(out, m)
		}
	}
	out = append(out, protocol.Member{Key: "inputResponses", Value: mustJSON(answers)})
	if state != nil {
		out = append(out, protocol.Member{Key: "requestState", Value: mustJSON(*state)})
	}
	return protocol.EncodeObject(out), nil
}
