package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/mcpscope/mcpscope/protocol/apps"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// errWait bounds each request check provokes an error with, so a server that does not
// answer them does not hold the check for the session's whole timeout.
const errWait = 5 * time.Second

// codeHeaderMismatch is 2026-07-28's error for a request whose Mcp-* headers do not match
// its body.
const codeHeaderMismatch = -32020

// maxSafeCalls bounds the read-only tools check calls on its own.
const maxSafeCalls = 20

// safeTools are the listed tools annotated read-only and not destructive, and visible to
// the model: an app-only tool (MCP Apps visibility ["app"]) is its app's to call, and a
// host must not call it for the model, so check does not either unless --call names it.
func (r *runner) safeTools() []ToolCall {
	var out []ToolCall
	for _, it := range r.pages[session.ListTools] {
		var t struct {
			Name        string `json:"name"`
			Annotations struct {
				ReadOnly    *bool `json:"readOnlyHint"`
				Destructive *bool `json:"destructiveHint"`
			} `json:"annotations"`
		}
		if json.Unmarshal(it.raw, &t) != nil || t.Annotations.ReadOnly == nil || !*t.Annotations.ReadOnly {
			continue
		}
		if l, ok := apps.ToolLinkOf(protocol.RawMeta(it.raw)); ok && !l.ModelVisible() {
			continue
		}
		if t.Annotations.Destructive != nil && *t.Annotations.Destructive {
			continue
		}
		out = append(out, ToolCall{Name: t.Name})
	}
	return out
}

// toolSchema is the inputSchema of a listed tool, nil when it is not listed.
func (r *runner) toolSchema(name string) json.RawMessage {
	for _, it := range r.pages[session.ListTools] {
		if it.key == name {
			var t struct {
				Input json.RawMessage `json:"inputSchema"`
			}
			_ = json.Unmarshal(it.raw, &t)
			return t.Input
		}
	}
	return nil
}

// calls calls the safe tools and the ones asked for, validating structured results.
func (r *runner) calls() {
	var list []ToolCall
	if !r.o.NoSafeCalls {
		list = r.safeTools()
		if len(list) > maxSafeCalls {
			r.note("%d of %d read-only tools called", maxSafeCalls, len(list))
			list = list[:maxSafeCalls]
		}
	}
	list = append(list, r.o.Calls...)
	if len(list) == 0 {
		r.note("no tool called: none is annotated readOnlyHint (name some with --call or --calls)")
		return
	}
	for _, c := range list {
		r.call(c)
	}
}

// call makes one call; a call still running after CallWait is cancelled, and then a request
// after the cancellation must be answered.
func (r *runner) call(c ToolCall) {
	args := c.Arguments
	if args == nil {
		args = MinimalArguments(r.toolSchema(c.Name))
	}
	r.run.Calls = append(r.run.Calls, c.Name)
	ctx, cancel := context.WithTimeout(r.ctx, r.o.CallWait)
	defer cancel()
	mark := r.lastSeq()
	resp, err := r.s.Call(ctx, "tools/call", map[string]any{"name": c.Name, "arguments": args})
	switch {
	case errors.Is(err, context.DeadlineExceeded) && r.ctx.Err() == nil:
		// Over HTTP the request's event comes with no response: find it in the stream.
		if req := r.requestAfter(mark, "tools/call"); req != nil {
			r.cancelled = append(r.cancelled, cancelled{seq: req.Seq, method: "tools/call " + c.Name, running: true})
			r.note("tools/call %s was still running after %s: cancelled (the cancellation check)", c.Name, r.o.CallWait)
			r.afterCancel(req)
		}
		return
	case err != nil:
		var rpc *session.RPCError
		if errors.As(err, &rpc) {
			r.note("tools/call %s answered with JSON-RPC error %d: %s", c.Name, rpc.Code, rpc.Message)
			return
		}
		r.note("tools/call %s failed: %v", c.Name, err)
		return
	}
	var res struct {
		Content    json.RawMessage `json:"content"`
		Structured json.RawMessage `json:"structuredContent"`
		IsError    bool            `json:"isError"`
	}
	_ = json.Unmarshal(resp.Result, &res)
	if _, ok := session.CreatedTask(resp.Result); ok {
		r.note("tools/call %s answered with a task; its result is not awaited", c.Name)
		return
	}
	out := r.outSchema[c.Name]
	if out == nil || res.IsError {
		return
	}
	if res.Structured == nil {
		r.add(protocol.NewFinding(protocol.FindStructuredContent, "tool %q declares an outputSchema, but its result has no structuredContent", c.Name), resp.Event)
		return
	}
	if err := out.validate(res.Structured); err != nil {
		r.add(protocol.NewFinding(protocol.FindStructuredContent, "tool %q: structuredContent does not match its outputSchema: %v", c.Name, err), resp.Event)
	}
}

// errorBehaviour provokes the errors the spec names a code for and checks the codes.
func (r *runner) errorBehaviour() {
	r.expectError(protocol.ErrCaseUnknownMethod, "mcpscope/check-unknown-method", map[string]any{}, "an unknown method")
	if r.run.Stateless {
		r.expectError(protocol.ErrCaseUnknownMethod, "ping", map[string]any{}, "ping, which 2026-07-28 removed")
	} else {
		r.ping()
	}
	if protocol.Declared(r.caps, "server:tools") {
		r.expectError(protocol.ErrCaseUnknownTool, "tools/call",
			map[string]any{"name": "mcpscope-check-no-such-tool", "arguments": map[string]any{}}, "an unknown tool")
	}
	switch {
	case protocol.Declared(r.caps, "server:resources"):
		r.expectError(protocol.ErrCaseInvalidParams, "resources/read", map[string]any{}, "resources/read without uri")
		r.expectError(protocol.ErrCaseResourceNotFound, "resources/read",
			map[string]any{"uri": "mcpscope-check:///no-such-resource"}, "a resource that does not exist")
	case protocol.Declared(r.caps, "server:prompts"):
		r.expectError(protocol.ErrCaseInvalidParams, "prompts/get", map[string]any{}, "prompts/get without name")
	case protocol.Declared(r.caps, "server:tools"):
		r.expectError(protocol.ErrCaseInvalidParams, "tools/call", map[string]any{"arguments": map[string]any{}}, "tools/call without name")
	}
}

// expectError sends method and checks that the answer is the error code the revision names.
func (r *runner) expectError(c protocol.ErrorCase, method string, params any, what string) {
	want, ref := protocol.ExpectedError(c, r.rev)
	mark := r.lastSeq()
	resp, err := r.s.Call(r.ctx, method, params, session.WithTimeout(errWait))
	shown := r.shown(resp, mark, method)
	var rpc *session.RPCError
	switch {
	case errors.As(err, &rpc):
		if rpc.Code == want {
			return
		}
		if c == protocol.ErrCaseInvalidParams && r.run.Stateless && r.run.Transport != "stdio" && rpc.Code == codeHeaderMismatch {
			return // over HTTP the missing name is first a missing Mcp-Name header
		}
		f := protocol.NewFinding(protocol.FindErrorCodeExpected, "%s was answered with error %d (%s); %s says %d (%s)",
			what, rpc.Code, protocol.ErrorCodeName(rpc.Code), r.rev, want, protocol.ErrorCodeName(want))
		r.addRef(f, ref, shown)
	case err != nil:
		f := protocol.NewFindingOn(protocol.FindErrorCodeExpected, protocol.EvidenceNoResponse, "%s got no error response: %v", what, err)
		r.addRef(f, ref, shown)
	default:
		msg := fmt.Sprintf("%s was answered with a result instead of error %d (%s)", what, want, protocol.ErrorCodeName(want))
		ev := protocol.EvidenceNone
		if c == protocol.ErrCaseResourceNotFound && r.rev.Stateless() {
			var res struct {
				Contents []json.RawMessage `json:"contents"`
			}
			_ = json.Unmarshal(resp.Result, &res)
			if len(res.Contents) == 0 {
				msg += "; an empty contents array for a missing resource is forbidden"
				ev = protocol.EvidenceForbidden
			}
		}
		if c == protocol.ErrCaseUnknownTool && isToolError(resp.Result) {
			msg = fmt.Sprintf("%s was answered with a tool error (isError) instead of JSON-RPC error %d; an unknown tool is a protocol error", what, want)
		}
		r.addRef(protocol.NewFindingOn(protocol.FindErrorCodeExpected, ev, "%s", msg), ref, resp.Event)
	}
}

func isToolError(result json.RawMessage) bool {
	var res struct {
		IsError bool `json:"isError"`
	}
	return json.Unmarshal(result, &res) == nil && res.IsError
}

// ping checks that ping is answered with an empty result.
func (r *runner) ping() {
	mark := r.lastSeq()
	resp, err := r.s.Call(r.ctx, "ping", nil, session.WithTimeout(errWait))
	if err != nil {
		r.add(protocol.NewFinding(protocol.FindPing, "ping failed: %v", err), r.shown(resp, mark, "ping"))
		return
	}
	if protocol.JSONType(resp.Result) != "object" {
		r.add(protocol.NewFinding(protocol.FindPing, "ping was answered with a %s, not an empty object", protocol.JSONType(resp.Result)), resp.Event)
	}
}

// probeMethod is a request every server of the run's era answers: ping, else a declared list.
func (r *runner) probeMethod() string {
	if !r.run.Stateless {
		return "ping"
	}
	for _, kind := range session.ListKinds {
		if li := listInfo[kind]; protocol.Declared(r.caps, "server:"+li.capability) {
			return li.method
		}
	}
	return "server/discover"
}

// cancellation cancels a request at once when no call ran long enough to be cancelled
// while running, then checks that the server still answers.
func (r *runner) cancellation() {
	for _, c := range r.cancelled {
		if c.running {
			return
		}
	}
	method := r.probeMethod()
	mark := r.lastSeq()
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	go func() {
		r.ev.waitFor(ctx, errWait, func(e *session.Event) bool {
			return e.Seq > mark && e.Kind == session.EvFrame && e.Dir == protocol.ClientToServer && e.Frame.Method == method
		})
		cancel()
	}()
	_, err := r.s.Call(ctx, method, nil, session.WithTimeout(errWait))
	req := r.requestAfter(mark, method)
	if !errors.Is(err, context.Canceled) || req == nil {
		r.note("cancellation not tested: %s was answered before it could be cancelled, and no call ran longer than %s", method, r.o.CallWait)
		return
	}
	r.cancelled = append(r.cancelled, cancelled{seq: req.Seq, method: method})
	r.afterCancel(req)
}

// shown is the event that shows a request's outcome: its response, else the request itself
// (which a failed HTTP POST returns no trace of).
func (r *runner) shown(resp *session.Response, mark uint64, method string) *session.Event {
	if e := respEvent(resp); e != nil {
		return e
	}
	return r.requestAfter(mark, method)
}

// requestAfter is the first request for method sent after the event with Seq mark.
func (r *runner) requestAfter(mark uint64, method string) *session.Event {
	for _, e := range r.ev.snapshot() {
		if e.Seq > mark && e.Kind == session.EvFrame && e.Dir == protocol.ClientToServer && e.Frame.Method == method {
			return e
		}
	}
	return nil
}

// lastSeq is the Seq of the last event collected.
func (r *runner) lastSeq() uint64 {
	all := r.ev.snapshot()
	if len(all) == 0 {
		return 0
	}
	return all[len(all)-1].Seq
}

// afterCancel checks that a request sent after a cancellation is answered.
func (r *runner) afterCancel(req *session.Event) {
	method := r.probeMethod()
	mark := r.lastSeq()
	resp, err := r.s.Call(r.ctx, method, nil, session.WithTimeout(errWait))
	var rpc *session.RPCError
	if err != nil && !errors.As(err, &rpc) {
		r.add(protocol.NewFinding(protocol.FindAfterCancel, "%s sent after cancelling request #%d got no answer: %v", method, req.Seq, err),
			req, r.shown(resp, mark, method))
	}
}
