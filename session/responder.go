package session

import (
	"context"
	"encoding/json"
	"fmt"
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
	for name, raw := range p.Schema.Properties {
		if v, ok := defaultOf(raw); ok {
			content[name] = v
		}
	}
	for _, name := range p.Schema.Required {
		if _, ok := content[name]; !ok {
			content[name] = zeroOf(p.Schema.Properties[name])
		}
	}
	return mustJSON(map[string]any{"action": "accept", "content": content})
}

func defaultOf(schema json.RawMessage) (any, bool) {
	var s struct {
		Default json.RawMessage `json:"default"`
	}
	if json.Unmarshal(schema, &s) != nil || len(s.Default) == 0 {
		return nil, false
	}
	return s.Default, true
}

// zeroOf is a value of the schema's type for a required field without a default.
func zeroOf(schema json.RawMessage) any {
	var s struct {
		Type  string            `json:"type"`
		Enum  []json.RawMessage `json:"enum"`
		OneOf []struct {
			Const json.RawMessage `json:"const"`
		} `json:"oneOf"`
		Items struct {
			Enum []json.RawMessage `json:"enum"`
		} `json:"items"`
	}
	_ = json.Unmarshal(schema, &s)
	switch {
	case len(s.Enum) > 0:
		return s.Enum[0]
	case len(s.OneOf) > 0 && len(s.OneOf[0].Const) > 0:
		return s.OneOf[0].Const
	}
	switch s.Type {
	case "number", "integer":
		return 0
	case "boolean":
		return false
	case "array":
		return []any{}
	}
	return ""
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
	ms, ok := objectMembers(params)
	if !ok {
		return nil, fmt.Errorf("cannot retry: params are not an object")
	}
	out := ms[:0:0]
	for _, m := range ms {
		if m.key != "inputResponses" && m.key != "requestState" {
			out = append(out, m)
		}
	}
	out = append(out, member{"inputResponses", mustJSON(answers)})
	if state != nil {
		out = append(out, member{"requestState", mustJSON(*state)})
	}
	return encodeMembers(out), nil
}
