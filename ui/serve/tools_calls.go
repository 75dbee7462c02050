package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/session"
)

// Bounds of a result.
const (
	defaultResultBytes = 64 << 10
	maxResultBytes     = 4 << 20
)

// Exchange is what went over the wire for one request.
type Exchange struct {
	RequestSeq  uint64    `json:"request_seq" jsonschema:"the request's event (frame shows its bytes)"`
	ResponseSeq uint64    `json:"response_seq,omitempty" jsonschema:"the response's event, when one came"`
	ChainSeqs   []uint64  `json:"chain_seqs,omitempty" jsonschema:"every request of an input_required chain, in order"`
	LatencyMS   float64   `json:"latency_ms,omitempty"`
	Error       *RPCError `json:"error,omitempty" jsonschema:"the JSON-RPC error the server answered"`
	Failure     string    `json:"failure,omitempty" jsonschema:"why no response came (timeout, exit, cancellation)"`
	ToolError   bool      `json:"tool_error,omitempty" jsonschema:"a tools/call result with isError true"`
	Findings    []Finding `json:"findings" jsonschema:"findings on the request and response frames"`
}

// RPCError is a JSON-RPC error response.
type RPCError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty" jsonschema:"the error's data, as sent"`
}

// Answer is a request's outcome: the server's result, bounded, and the exchange.
type Answer struct {
	Result        json.RawMessage `json:"result,omitempty" jsonschema:"the server's result, as sent"`
	ResultBytes   int             `json:"result_bytes"`
	ResultOmitted bool            `json:"result_omitted,omitempty" jsonschema:"the result is larger than max_result_bytes: read the response with frame"`
	Exchange      Exchange        `json:"exchange"`
	Call          string          `json:"call,omitempty" jsonschema:"the request still runs: await_call with this id gives its outcome (result and exchange are then empty)"`
	Pending       []Question      `json:"pending,omitempty" jsonschema:"what the server asked and waits for: answer each, then await_call"`
}

// Bounds of a request: common to the tools that send one.
type Bounds struct {
	TimeoutMS      int `json:"timeout_ms,omitempty" jsonschema:"give up after this many milliseconds (default: the session's timeout)"`
	MaxResultBytes int `json:"max_result_bytes,omitempty" jsonschema:"largest result returned whole (default 65536, at most 4194304); a larger one is left out, read it with frame"`
	WaitMS         int `json:"wait_ms,omitempty" jsonschema:"return after this many milliseconds with the request still running (its call id, for await_call); default: wait for the outcome or a question from the server"`
}

// ListIn is list's input.
type ListIn struct {
	Session string `json:"session"`
	Kind    string `json:"kind" jsonschema:"tools, resources, templates or prompts"`
	Cursor  string `json:"cursor,omitempty" jsonschema:"the nextCursor of the previous page"`
	Bounds
}

// CallIn is call_tool's input.
type CallIn struct {
	Session   string          `json:"session"`
	Name      string          `json:"name" jsonschema:"the tool"`
	Arguments json.RawMessage `json:"arguments,omitempty" jsonschema:"the tool's arguments, an object"`
	Task      bool            `json:"task,omitempty" jsonschema:"call it as a task: the result is the task created (its taskId); follow it with tasks"`
	TaskTTLMS int             `json:"task_ttl_ms,omitempty" jsonschema:"with task: how long the server keeps the task, in milliseconds"`
	Bounds
}

// ReadIn is read_resource's input.
type ReadIn struct {
	Session string `json:"session"`
	URI     string `json:"uri"`
	Bounds
}

// PromptIn is get_prompt's input.
type PromptIn struct {
	Session   string            `json:"session"`
	Name      string            `json:"name"`
	Arguments map[string]string `json:"arguments,omitempty"`
	Bounds
}

// CompleteIn is complete's input.
type CompleteIn struct {
	Session  string            `json:"session"`
	Ref      string            `json:"ref" jsonschema:"prompt or resource (a resource template)"`
	Name     string            `json:"name" jsonschema:"the prompt's name, or the template's URI template"`
	Argument string            `json:"argument" jsonschema:"the argument being completed"`
	Value    string            `json:"value" jsonschema:"what is typed so far"`
	Context  map[string]string `json:"context,omitempty" jsonschema:"arguments already given"`
	Bounds
}

var listMethods = map[string]string{"tools": "tools/list", "resources": "resources/list",
	"templates": "resources/templates/list", "prompts": "prompts/list"}

func (s *Server) list(ctx context.Context, in ListIn) (Answer, error) {
	method, ok := listMethods[in.Kind]
	if !ok {
		return Answer{}, fmt.Errorf("kind %q: want tools, resources, templates or prompts", in.Kind)
	}
	var params any
	if in.Cursor != "" {
		params = map[string]string{"cursor": in.Cursor}
	}
	return s.request(ctx, in.Session, method, params, in.Bounds)
}

func (s *Server) callTool(ctx context.Context, in CallIn) (Answer, error) {
	args := in.Arguments
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	var opts []session.CallOption
	if in.Task {
		opts = append(opts, session.WithTask(time.Duration(in.TaskTTLMS)*time.Millisecond))
	}
	return s.request(ctx, in.Session, "tools/call", struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}{in.Name, args}, in.Bounds, opts...)
}

func (s *Server) readResource(ctx context.Context, in ReadIn) (Answer, error) {
	return s.request(ctx, in.Session, "resources/read", map[string]string{"uri": in.URI}, in.Bounds)
}

func (s *Server) getPrompt(ctx context.Context, in PromptIn) (Answer, error) {
	p := map[string]any{"name": in.Name}
	if len(in.Arguments) > 0 {
		p["arguments"] = in.Arguments
	}
	return s.request(ctx, in.Session, "prompts/get", p, in.Bounds)
}

func (s *Server) complete(ctx context.Context, in CompleteIn) (Answer, error) {
	var ref map[string]string
	switch in.Ref {
	case "prompt":
		ref = map[string]string{"type": "ref/prompt", "name": in.Name}
	case "resource":
		ref = map[string]string{"type": "ref/resource", "uri": in.Name}
	default:
		return Answer{}, fmt.Errorf("ref %q: want prompt or resource", in.Ref)
	}
	p := map[string]any{"ref": ref, "argument": map[string]string{"name": in.Argument, "value": in.Value}}
	if len(in.Context) > 0 {
		p["context"] = map[string]any{"arguments": in.Context}
	}
	return s.request(ctx, in.Session, "completion/complete", p, in.Bounds)
}

// request sends one request on a session and answers with its result and exchange. A
// JSON-RPC error, a timeout or an exit is part of the answer, not a failure of the tool;
// only a request that could not be sent is.
func (s *Server) request(ctx context.Context, id, method string, params any, b Bounds, opts ...session.CallOption) (Answer, error) {
	l, err := s.reg.get(id)
	if err != nil {
		return Answer{}, err
	}
	if err := s.ensure(ctx, l); err != nil {
		return Answer{}, err
	}
	_, _, seen := s.questions.list("", 0)
	c, err := s.startCall(ctx, l, method, params, b, opts...)
	if err != nil {
		return Answer{}, err
	}
	return s.await(ctx, c, seen, time.Duration(b.WaitMS)*time.Millisecond)
}

// answer makes a request's outcome into an Answer.
func (l *live) answer(resp *session.Response, err error, b Bounds) (Answer, error) {
	if resp == nil || resp.Request == nil {
		if err == nil {
			err = errors.New("nothing was sent")
		}
		return Answer{}, err
	}
	var a Answer
	x := &a.Exchange
	x.RequestSeq = resp.Request.Seq
	x.Findings = findingsOf(resp.Request)
	if len(resp.Chain) > 1 {
		for _, ev := range resp.Chain {
			x.ChainSeqs = append(x.ChainSeqs, ev.Seq)
			if ev != resp.Request {
				x.Findings = append(x.Findings, findingsOf(ev)...)
			}
		}
	}
	last := resp.Request.Seq
	if resp.Event != nil {
		x.ResponseSeq, last = resp.Event.Seq, resp.Event.Seq
		x.LatencyMS = float64(resp.Latency.Microseconds()) / 1000
		x.Findings = append(x.Findings, findingsOf(resp.Event)...)
	}
	var rpc *session.RPCError
	switch {
	case errors.As(err, &rpc):
		x.Error = &RPCError{Code: rpc.Code, Message: rpc.Message, Data: rpc.Data}
	case err != nil:
		x.Failure = err.Error()
	}
	if resp.Event != nil && resp.Event.Frame != nil && resp.Request.Frame != nil && resp.Request.Frame.Method == "tools/call" {
		var r struct {
			IsError bool `json:"isError"`
		}
		x.ToolError = json.Unmarshal(resp.Result, &r) == nil && r.IsError
	}
	a.ResultBytes = len(resp.Result)
	max := b.MaxResultBytes
	if max <= 0 {
		max = defaultResultBytes
	}
	max = min(max, maxResultBytes)
	if len(resp.Result) > max {
		a.ResultOmitted = true
	} else {
		a.Result = resp.Result
	}
	l.saw(last)
	return a, nil
}

// saw notes that the agent was told of event seq, so the timeline waits for it.
func (l *live) saw(seq uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if seq > l.told {
		l.told = seq
	}
}
