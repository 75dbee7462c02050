package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/demo"
)

// InfoCmd prints the handshake's outcome.
type InfoCmd struct{}

// Run implements the command.
func (InfoCmd) Run(r *runner) error {
	s, done, err := r.connectOneShot()
	if err != nil {
		return err
	}
	defer done()
	return r.printJSON(infoJSON(s.Info()))
}

func infoJSON(i session.ServerInfo) map[string]any {
	era := "stateful (initialize)"
	if i.Stateless {
		era = "stateless (server/discover)"
	}
	out := map[string]any{
		"serverInfo":      i.Implementation,
		"protocolVersion": i.Revision,
		"era":             era,
		"transport":       i.Transport,
		"capabilities":    rawOr(i.Capabilities, "{}"),
	}
	if i.Instructions != "" {
		out["instructions"] = i.Instructions
	}
	if i.SessionID != "" {
		out["sessionId"] = i.SessionID
	}
	if len(i.SupportedVersions) > 0 {
		out["supportedVersions"] = i.SupportedVersions
	}
	return out
}

func rawOr(r json.RawMessage, def string) json.RawMessage {
	if len(r) == 0 {
		return json.RawMessage(def)
	}
	return r
}

// ListCmd lists one of the server's lists.
type ListCmd struct {
	What string `arg:"" enum:"tools,resources,templates,prompts" help:"tools, resources, templates or prompts."`
}

// Run implements the command.
func (c ListCmd) Run(r *runner) error {
	s, done, err := r.connectOneShot()
	if err != nil {
		return err
	}
	defer done()
	kind := map[string]session.ListKind{"tools": session.ListTools, "resources": session.ListResources,
		"templates": session.ListTemplates, "prompts": session.ListPrompts}[c.What]
	method := map[session.ListKind]string{session.ListTools: "tools/list", session.ListResources: "resources/list",
		session.ListTemplates: "resources/templates/list", session.ListPrompts: "prompts/list"}[kind]
	var items []json.RawMessage
	err = r.again(s, method, false, func() (err error) {
		items, err = s.List(r.ctx, kind)
		return err
	})
	if err != nil {
		return err
	}
	if kind == session.ListTools {
		items = r.withoutExcluded(s, items)
	}
	return r.printJSON(items)
}

// withoutExcluded drops the tools the session rejects for invalid x-mcp-header
// annotations (2026-07-28 over Streamable HTTP), saying on stderr which and why.
func (r *runner) withoutExcluded(s *session.Session, tools []json.RawMessage) []json.RawMessage {
	kept := make([]json.RawMessage, 0, len(tools))
	for _, t := range tools {
		var tool struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(t, &tool)
		if th := s.ToolHeaders(tool.Name); th.Excluded {
			fmt.Fprintf(r.stderr, "mcpscope: excluded tool %q (%s): %s\n", tool.Name,
				protocol.FindToolHeader, strings.Join(th.Problems, "; "))
			continue
		}
		kept = append(kept, t)
	}
	return kept
}

// CallCmd calls a tool.
type CallCmd struct {
	Tool     string        `arg:"" help:"Tool name."`
	Args     []string      `arg:"" optional:"" help:"Arguments as key=value (typed by the tool's inputSchema) or key:=JSON."`
	JSONArgs string        `name:"args" help:"All arguments as one JSON object (key=value pairs override its members)." placeholder:"JSON"`
	Progress bool          `help:"Ask for progress notifications (sends a progressToken)." default:"true" negatable:""`
	Task     bool          `help:"Call the tool as a task and wait for its result, with its status and progress on stderr; an interrupt cancels the task."`
	TaskTTL  time.Duration `name:"task-ttl" help:"With --task: how long the server should keep the task (2025-11-25 ttl; the server may change it)." placeholder:"DURATION"`
	Retry    bool          `name:"retry-calls" help:"When the server ended the session (404) before processing the call, call the tool again in the new session (by default it is not, since a call may have effects)."`
}

// Run implements the command.
func (c CallCmd) Run(r *runner) error {
	// The words' shape is checked before anything is spawned; their types need the schema.
	if _, err := buildArgs(c.JSONArgs, c.Args, nil); err != nil {
		return usageError{err}
	}
	s, done, err := r.connect()
	if err != nil {
		return err
	}
	defer done()
	var schema json.RawMessage
	if len(c.Args) > 0 || strings.TrimSpace(c.JSONArgs) != "" {
		schema = toolSchema(r, s, c.Tool)
	}
	args, err := buildArgs(c.JSONArgs, c.Args, schema)
	if err != nil {
		return usageError{err}
	}
	r.warnArgs(c.Tool, schema, args)
	var opts []session.CallOption
	stopProgress := func() {}
	if c.Progress {
		opts = append(opts, session.WithProgress())
		// The call is the one request of this session that asks for progress.
		stopProgress = r.showProgress(s, func(*session.Event) bool { return true })
	}
	if c.Task {
		if why := s.TaskSupport(); why != "" {
			fmt.Fprintf(r.stderr, "mcpscope: %s; calling %s as a task anyway\n", why, c.Tool)
		}
		opts = append(opts, session.WithTask(c.TaskTTL))
	}
	var resp *session.Response
	err = r.again(s, "tools/call", c.Retry, func() (err error) {
		resp, err = s.Call(r.ctx, "tools/call", map[string]any{"name": c.Tool, "arguments": args}, opts...)
		return err
	})
	stopProgress() // a task's progress, from here on, is followTask's
	if err != nil {
		taskHint(r, c.Task, err)
		return r.rpcFailure(resp, err)
	}
	if _, ok := session.CreatedTask(resp.Result); ok {
		if resp, err = r.followTask(s, resp); err != nil {
			return r.rpcFailure(resp, err)
		}
	}
	if err := r.printJSON(resp.Result); err != nil {
		return err
	}
	if isErr, _ := protocol.MemberValue(resp.Result, "isError"); string(isErr) == "true" {
		fmt.Fprintln(r.stderr, "mcpscope:", errToolError)
		return errReportedTool
	}
	return nil
}

var errReportedTool = fmt.Errorf("%w: %w", errReported, errToolError)

// toolSchema finds a tool's inputSchema; nil when the tool is not listed.
func toolSchema(r *runner, s *session.Session, name string) json.RawMessage {
	var tools []json.RawMessage
	err := r.again(s, "tools/list", false, func() (err error) {
		tools, err = s.List(r.ctx, session.ListTools)
		return err
	})
	if err != nil {
		return nil
	}
	for _, t := range tools {
		var tool struct {
			Name   string          `json:"name"`
			Schema json.RawMessage `json:"inputSchema"`
		}
		if json.Unmarshal(t, &tool) == nil && tool.Name == name {
			return tool.Schema
		}
	}
	fmt.Fprintf(r.stderr, "mcpscope: tool %q is not in tools/list; calling it anyway\n", name)
	return nil
}

// rpcFailure prints a JSON-RPC error response's error object on stdout and returns err.
func (r *runner) rpcFailure(resp *session.Response, err error) error {
	if resp != nil && resp.Event != nil && resp.Event.Frame.Error != nil {
		_ = r.printJSON(resp.Event.Frame.Error.Raw)
	}
	return err
}

// ReadCmd reads a resource.
type ReadCmd struct {
	URI string `arg:"" help:"Resource URI."`
}

// Run implements the command.
func (c ReadCmd) Run(r *runner) error {
	s, done, err := r.connectOneShot()
	if err != nil {
		return err
	}
	defer done()
	var resp *session.Response
	err = r.again(s, "resources/read", false, func() (err error) {
		resp, err = s.Call(r.ctx, "resources/read", map[string]string{"uri": c.URI})
		return err
	})
	if err != nil {
		return r.rpcFailure(resp, err)
	}
	return r.printJSON(resp.Result)
}

// PromptCmd gets a prompt.
type PromptCmd struct {
	Name string   `arg:"" help:"Prompt name."`
	Args []string `arg:"" optional:"" help:"Arguments as key=value."`
}

// Run implements the command.
func (c PromptCmd) Run(r *runner) error {
	args := map[string]string{}
	for _, kv := range c.Args {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return usageError{fmt.Errorf("argument %q: want key=value", kv)}
		}
		args[k] = v
	}
	s, done, err := r.connectOneShot()
	if err != nil {
		return err
	}
	defer done()
	var resp *session.Response
	err = r.again(s, "prompts/get", false, func() (err error) {
		resp, err = s.Call(r.ctx, "prompts/get", map[string]any{"name": c.Name, "arguments": args})
		return err
	})
	if err != nil {
		return r.rpcFailure(resp, err)
	}
	return r.printJSON(resp.Result)
}

// CompleteCmd asks for completions.
type CompleteCmd struct {
	Prompt   string   `help:"Complete an argument of this prompt." xor:"ref" required:"" placeholder:"NAME"`
	Resource string   `help:"Complete a variable of this resource template URI." xor:"ref" required:"" placeholder:"URI"`
	Arg      string   `arg:"" help:"Argument (or template variable) name."`
	Value    string   `arg:"" optional:"" help:"What is typed so far."`
	Context  []string `sep:"none" help:"Already chosen arguments, key=value (repeatable)." placeholder:"KEY=VAL"`
}

// Run implements the command.
func (c CompleteCmd) Run(r *runner) error {
	ref := map[string]string{"type": "ref/prompt", "name": c.Prompt}
	if c.Resource != "" {
		ref = map[string]string{"type": "ref/resource", "uri": c.Resource}
	}
	ctxArgs := map[string]string{}
	for _, kv := range c.Context {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return usageError{fmt.Errorf("--context %q: want key=value", kv)}
		}
		ctxArgs[k] = v
	}
	s, done, err := r.connectOneShot()
	if err != nil {
		return err
	}
	defer done()
	var values []string
	err = r.again(s, "completion/complete", false, func() (err error) {
		values, err = s.Complete(r.ctx, ref, c.Arg, c.Value, ctxArgs)
		return err
	})
	if err != nil {
		return err
	}
	if values == nil {
		values = []string{}
	}
	return r.printJSON(values)
}

// RPCCmd sends anything.
type RPCCmd struct {
	Method string        `arg:"" optional:"" help:"Method name (not needed with --raw)."`
	Params string        `help:"Params as JSON (sent as given: any JSON, valid for the method or not)." placeholder:"JSON"`
	Notify bool          `help:"Send as a notification (no id, no response)."`
	Exact  bool          `help:"Do not add _meta to params in the 2026-07-28 era."`
	Raw    string        `help:"Send this text as one frame, exactly (need not be JSON)." placeholder:"TEXT"`
	Wait   time.Duration `help:"With --raw text that is not a request mcpscope can pair: how long to collect what the server sends back." default:"2s"`
}

// Run implements the command.
func (c RPCCmd) Run(r *runner) error {
	if c.Raw == "" && c.Method == "" {
		return usageError{fmt.Errorf("rpc needs a METHOD or --raw TEXT")}
	}
	var params any
	if c.Params != "" {
		params = json.RawMessage(c.Params)
	}
	s, done, err := r.connect()
	if err != nil {
		return err
	}
	defer done()
	var resp *session.Response
	switch {
	case c.Raw != "":
		sub := s.Subscribe(0)
		defer sub.Close()
		resp, err = s.SendRaw(r.ctx, []byte(c.Raw))
		if err == nil && resp == nil {
			if err := r.printJSON(collectIncoming(r.ctx, sub, c.Wait)); err != nil {
				return err
			}
			if x := s.Exit(); x != nil && !x.ByUs {
				return fmt.Errorf("%w after the raw text (exit code %d)", session.ErrServerExited, x.Code)
			}
			return nil
		}
	case c.Notify:
		return s.Notify(r.ctx, c.Method, params)
	default:
		var opts []session.CallOption
		if c.Exact {
			opts = append(opts, session.Exact())
		}
		err = r.again(s, c.Method, false, func() (err error) {
			resp, err = s.Call(r.ctx, c.Method, params, append(opts, session.NoChain())...)
			return err
		})
	}
	if err != nil {
		return r.rpcFailure(resp, err)
	}
	return r.printJSON(resp.Result)
}

// DemoCmd runs the built-in demo server.
type DemoCmd struct {
	HTTP        string        `help:"Serve Streamable HTTP at ADDR/mcp and HTTP+SSE at ADDR/sse instead of stdio; with --auth, protected with OAuth 2.1 by its own authorization server (metadata, registration, PKCE, refresh tokens, step-up)." placeholder:"ADDR"`
	TokenTTL    time.Duration `name:"token-ttl" default:"5m" help:"With --auth: how long an access token lasts."`
	AutoApprove bool          `name:"auto-approve" help:"With --auth: approve every authorization request at once, without the approve page."`
}

// Run implements the command.
func (c DemoCmd) Run(r *runner) error {
	// --auth is the global flag: for a client it authorizes before the first request, for
	// the demo it protects the server.
	auth := r.flags.Auth
	if auth && c.HTTP == "" {
		return usageError{errors.New("--auth needs --http ADDR: authorization is for the HTTP transports")}
	}
	if c.AutoApprove && !auth {
		return usageError{errors.New("--auto-approve needs --auth")}
	}
	if c.TokenTTL <= 0 {
		return usageError{fmt.Errorf("--token-ttl %s: want a positive duration such as 30s or 5m", c.TokenTTL)}
	}
	if auth {
		return demo.ServeHTTPAuth(r.ctx, c.HTTP, r.stderr, demo.AuthOptions{TokenTTL: c.TokenTTL, AutoApprove: c.AutoApprove})
	}
	if c.HTTP != "" {
		return demo.ServeHTTP(r.ctx, c.HTTP, r.stderr)
	}
	return demo.ServeStdio(r.ctx, r.stdin, r.stdout, r.stderr)
}

// versionLine is what the version command and --version print.
func versionLine() string { return "mcpscope " + session.Build().String() }

// VersionCmd prints the version.
type VersionCmd struct{}

// Run implements the command.
func (VersionCmd) Run(r *runner) error {
	_, err := fmt.Fprintln(r.stdout, versionLine())
	return err
}

// collectIncoming gathers the frames the server sends within wait (after the first one, a
// quiet spell of wait/4 ends the wait early), as JSON values, or strings when not JSON.
func collectIncoming(ctx context.Context, sub *session.Subscription, wait time.Duration) []json.RawMessage {
	out := []json.RawMessage{}
	deadline := time.Now().Add(wait)
	for {
		left := time.Until(deadline)
		if len(out) > 0 {
			left = min(left, wait/4)
		}
		if left <= 0 {
			return out
		}
		wctx, cancel := context.WithTimeout(ctx, left)
		evs, ok := sub.Next(wctx, 0)
		cancel()
		if !ok {
			return out
		}
		for _, e := range evs {
			if e.Kind != session.EvFrame || e.Dir != protocol.ServerToClient {
				continue
			}
			if json.Valid(e.Frame.Raw) {
				out = append(out, e.Frame.Raw)
			} else {
				q, _ := json.Marshal(string(e.Frame.Raw))
				out = append(out, q)
			}
		}
	}
}
