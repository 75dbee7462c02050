package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/serve"
)

// serveSecret is an -e value given to connect: no result, frame or recording may hold it.
const serveSecret = "s3cr3t-serve-value-7f1"

// wire keeps every message a go-sdk client exchanged with mcpscope serve, re-encoded, so
// a test can check each result against the MCP schema and look for secrets.
type wire struct {
	mcp.Transport
	mu      sync.Mutex
	methods map[string]string // request id → method
	results []wireResult
	all     [][]byte
}

type wireResult struct {
	method string
	raw    []byte
}

func (w *wire) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := w.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &wireConn{Connection: c, w: w}, nil
}

type wireConn struct {
	mcp.Connection
	w *wire
}

func (c *wireConn) Write(ctx context.Context, m jsonrpc.Message) error {
	if req, ok := m.(*jsonrpc.Request); ok && req.IsCall() {
		c.w.mu.Lock()
		c.w.methods[fmt.Sprint(req.ID.Raw())] = req.Method
		c.w.mu.Unlock()
	}
	return c.Connection.Write(ctx, m)
}

func (c *wireConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if err != nil {
		return m, err
	}
	b, _ := jsonrpc.EncodeMessage(m)
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	c.w.all = append(c.w.all, b)
	if resp, ok := m.(*jsonrpc.Response); ok && resp.Error == nil {
		c.w.results = append(c.w.results, wireResult{c.w.methods[fmt.Sprint(resp.ID.Raw())], resp.Result})
	}
	return m, nil
}

// verify checks every result mcpscope serve sent against the schema of revision rev, and
// that none holds the secret.
func (w *wire) verify(t *testing.T, rev string) {
	t.Helper()
	defs := map[string]string{"initialize": "InitializeResult", "server/discover": "DiscoverResult",
		"tools/list": "ListToolsResult", "tools/call": "CallToolResult"}
	w.mu.Lock()
	defer w.mu.Unlock()
	checked := 0
	for _, r := range w.results {
		def, ok := defs[r.method]
		if !ok {
			continue
		}
		if err := sessiontest.Schemas(t).CheckResult(rev, def, r.raw); err != nil {
			t.Errorf("%s: %v", r.method, err)
		}
		checked++
	}
	if checked < 5 {
		t.Errorf("only %d results checked against the schema", checked)
	}
	for _, b := range w.all {
		if bytes.Contains(b, []byte(serveSecret)) {
			t.Errorf("a message from serve holds the secret: %.300s", b)
		}
	}
}

// agent is a go-sdk client session on mcpscope serve.
type agent struct {
	t  *testing.T
	cs *mcp.ClientSession
}

// call calls a tool of serve, wants a result that is not a tool error, and decodes its
// structured content into out.
func (a agent) call(name string, args any, out any) {
	a.t.Helper()
	res := a.result(name, args)
	if res.IsError {
		a.t.Fatalf("%s: tool error: %s", name, text(res))
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, out); err != nil {
		a.t.Fatalf("%s: structured content %s: %v", name, b, err)
	}
}

func (a agent) result(name string, args any) *mcp.CallToolResult {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := a.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		a.t.Fatalf("%s: %v", name, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var sb strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			sb.WriteString(tc.Text)
		}
	}
	return sb.String()
}

// startAgent connects a go-sdk client, asking for revision version ("" for the SDK's
// latest), through t.
func startAgent(t *testing.T, tr mcp.Transport, version string) (agent, *wire) {
	t.Helper()
	w := &wire{Transport: tr, methods: map[string]string{}}
	c := mcp.NewClient(&mcp.Implementation{Name: "serve-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var opts *mcp.ClientSessionOptions
	if version != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := c.Connect(ctx, w, opts)
	if err != nil {
		t.Fatalf("connect to mcpscope serve: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return agent{t, cs}, w
}

// serveEnv is the environment of a serve process: its own state directory.
func serveEnv(t *testing.T) []string {
	env, _ := serveEnvState(t)
	return env
}

// serveEnvState is serveEnv and the state directory it names.
func serveEnvState(t *testing.T) ([]string, string) {
	state := t.TempDir()
	return append(os.Environ(), "XDG_STATE_HOME="+state, "MCPSCOPE_TOKEN_STORE=none"), state
}

// driveServe runs the journey every transport shares on a connected session: list, call,
// timeline with a filter, the frame against the recording, send_raw of a malformed
// request, pin and diff, and the recording read back as mcpscope open reads it.
func driveServe(t *testing.T, a agent, id, tool string, toolArgs map[string]any, change func()) {
	t.Helper()
	var list serve.Answer
	a.call("list", map[string]any{"session": id, "kind": "tools"}, &list)
	if !strings.Contains(string(list.Result), `"`+tool+`"`) || list.Exchange.RequestSeq == 0 || list.Exchange.ResponseSeq <= list.Exchange.RequestSeq {
		t.Fatalf("list: %+v", list)
	}

	var call serve.Answer
	a.call("call_tool", map[string]any{"session": id, "name": tool, "arguments": toolArgs}, &call)
	x := call.Exchange
	if x.ResponseSeq == 0 || x.Error != nil || x.LatencyMS <= 0 || len(call.Result) == 0 {
		t.Fatalf("call_tool: %+v", call)
	}
	if !strings.Contains(string(call.Result), "****") {
		t.Errorf("call_tool result does not show the secret masked: %s", call.Result)
	}

	var tl serve.Timeline
	a.call("timeline", map[string]any{"session": id, "query": "method:tools/call", "body_bytes": 64}, &tl)
	seen := map[uint64]bool{}
	for _, ev := range tl.Events {
		if ev.Method != "tools/call" {
			t.Errorf("timeline method:tools/call has %+v", ev)
		}
		if len(ev.Body) > 64 {
			t.Errorf("body of %d bytes past body_bytes 64", len(ev.Body))
		}
		seen[ev.Seq] = true
	}
	if !seen[x.RequestSeq] || !seen[x.ResponseSeq] {
		t.Fatalf("timeline method:tools/call lacks the call's events %d and %d: %+v", x.RequestSeq, x.ResponseSeq, tl)
	}
	var page serve.Timeline
	a.call("timeline", map[string]any{"session": id, "limit": 1}, &page)
	if len(page.Events) != 1 || !page.More || page.NextSince != page.Events[0].Seq {
		t.Errorf("timeline limit 1: %+v", page)
	}

	// The response's bytes in parts of 40.
	var whole strings.Builder
	offset := 0
	for {
		var f serve.Frame
		a.call("frame", map[string]any{"session": id, "seq": x.ResponseSeq, "offset": offset, "max_bytes": 40}, &f)
		whole.WriteString(f.Bytes)
		if f.NextOffset == 0 {
			if f.RequestSeq != x.RequestSeq {
				t.Errorf("frame %d names request %d, want %d", f.Seq, f.RequestSeq, x.RequestSeq)
			}
			break
		}
		offset = f.NextOffset
	}

	// A malformed request: the answer carries the findings it produced.
	var raw serve.RawOut
	a.call("send_raw", map[string]any{"session": id, "text": `{"jsonrpc":"2.0","id":77,"method":"tools/list"`}, &raw)
	if raw.SentSeq == 0 || !hasCode(raw.Findings, "wire.not-json") {
		t.Errorf("send_raw of a malformed request: %+v", raw)
	}

	// Pin, then diff: the same; after a change the diff shows it.
	var p serve.PinOut
	a.call("pin", map[string]any{"session": id, "file": filepath.Join(t.TempDir(), "pin.json")}, &p)
	if len(p.Items) == 0 {
		t.Fatalf("pin: %+v", p)
	}
	var d serve.DiffOut
	a.call("diff", map[string]any{"session": id, "against": p.File}, &d)
	if !d.Equal {
		t.Errorf("diff right after pin: %s", d.Text)
	}
	if change != nil {
		change()
		a.call("diff", map[string]any{"session": id, "against": p.File}, &d)
		if d.Equal || !strings.Contains(string(d.Report), `"added"`) {
			t.Errorf("diff after a change: %s", d.Text)
		}
	}

	var rec serve.Recording
	a.call("recording", map[string]any{"session": id}, &rec)
	var bye serve.Disconnected
	a.call("disconnect", map[string]any{"session": id}, &bye)
	if bye.Recording != rec.Path || bye.Open != "mcpscope open "+rec.Path {
		t.Errorf("disconnect: %+v, recording %+v", bye, rec)
	}
	if res := a.result("timeline", map[string]any{"session": id}); !res.IsError || !strings.Contains(text(res), "no session") {
		t.Errorf("timeline after disconnect: %s", text(res))
	}

	// The recording opens as mcpscope open reads it, and holds the frame's bytes.
	rd, err := recordings.Open(rec.Path)
	if err != nil {
		t.Fatalf("open the recording: %v", err)
	}
	defer rd.Close()
	entries, problems := rd.Events()
	if len(problems) > 0 || !rd.Header().Redacted {
		t.Errorf("recording: problems %v, header %+v", problems, rd.Header())
	}
	found := false
	for _, e := range entries {
		if e.Event.Seq == x.ResponseSeq && e.Event.Kind == session.EvFrame {
			found = true
			if string(e.Event.Frame.Raw) != whole.String() {
				t.Errorf("frame bytes differ from the recording's:\nframe     %s\nrecording %s", whole.String(), e.Event.Frame.Raw)
			}
		}
	}
	if !found {
		t.Errorf("the recording lacks event %d", x.ResponseSeq)
	}
	if b, _ := os.ReadFile(rec.Path); bytes.Contains(b, []byte(serveSecret)) || len(b) == 0 {
		t.Errorf("the recording holds the secret, or nothing")
	}
}

func hasCode(fs []serve.Finding, code string) bool {
	for _, f := range fs {
		if f.Code == code {
			return true
		}
	}
	return false
}

// TestServeStdioDemo drives the built binary's serve over stdio with the go-sdk client
// against the demo server.
func TestServeStdioDemo(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	cmd := exec.Command(bin, "serve", "--record-dir", t.TempDir())
	var state string
	cmd.Env, state = serveEnvState(t)
	a, w := startAgent(t, &mcp.CommandTransport{Command: cmd}, "")
	rev := a.cs.InitializeResult().ProtocolVersion

	var c serve.Connected
	a.call("connect", map[string]any{"command": []string{bin, "demo"}, "env": []string{"DEMO_TOKEN=" + serveSecret}}, &c)
	if c.Session == "" || c.Handshake.Name != "mcpscope-demo" || c.Handshake.Revision == "" || c.Recording == "" ||
		!strings.HasPrefix(c.Answers.Sampling, "asked") {
		t.Fatalf("connect: %+v", c)
	}
	// The other requests: each answers with the server's result and the exchange.
	for _, r := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"read_resource", map[string]any{"uri": "demo://readme"}, `"contents"`},
		{"get_prompt", map[string]any{"name": "greet", "arguments": map[string]string{"name": "Ada", "style": "pirate"}}, `Ada`},
		{"complete", map[string]any{"ref": "prompt", "name": "greet", "argument": "style", "value": "pi"}, `"pirate"`},
		{"complete", map[string]any{"ref": "resource", "name": "demo://notes/{topic}", "argument": "topic", "value": ""}, `"values"`},
		{"list", map[string]any{"kind": "templates"}, `demo://notes/{topic}`},
	} {
		r.args["session"] = c.Session
		var ans serve.Answer
		a.call(r.tool, r.args, &ans)
		if !strings.Contains(string(ans.Result), r.want) || ans.Exchange.ResponseSeq == 0 || ans.Exchange.Error != nil {
			t.Errorf("%s %v: %s %+v", r.tool, r.args, ans.Result, ans.Exchange)
		}
	}
	// A JSON-RPC error is part of the answer; a result over max_result_bytes is left out.
	var missing serve.Answer
	a.call("read_resource", map[string]any{"session": c.Session, "uri": "demo://no-such-thing"}, &missing)
	if missing.Exchange.Error == nil || missing.Exchange.ResponseSeq == 0 {
		t.Errorf("read_resource of a missing resource: %+v", missing)
	}
	var big serve.Answer
	a.call("list", map[string]any{"session": c.Session, "kind": "tools", "max_result_bytes": 100}, &big)
	if !big.ResultOmitted || big.Result != nil || big.ResultBytes <= 100 {
		t.Errorf("list with max_result_bytes 100: %+v", big)
	}

	var pinned serve.PinOut
	a.call("pin", map[string]any{"session": c.Session}, &pinned)
	if want := filepath.Join(state, "mcpscope", "pins") + string(filepath.Separator); !strings.HasPrefix(pinned.File, want) {
		t.Errorf("pin without a file wrote %s, not in %s", pinned.File, want)
	}
	var list serve.SessionList
	a.call("sessions", map[string]any{}, &list)
	if len(list.Sessions) != 1 || list.Sessions[0].Session != c.Session {
		t.Errorf("sessions: %+v", list)
	}

	var chk serve.CheckOut
	a.call("check", map[string]any{"session": c.Session}, &chk)
	if chk.Errors != 0 || chk.Warnings != 0 || len(chk.Recordings) == 0 || !bytes.Contains(chk.Report, []byte(`"runs"`)) {
		t.Errorf("check of the demo: %d errors, %d warnings: %.2000s", chk.Errors, chk.Warnings, chk.Report)
	}

	// The worked example: call a failing tool, find the failing frame, read it.
	var fail serve.Answer
	a.call("call_tool", map[string]any{"session": c.Session, "name": "fail", "arguments": map[string]any{}}, &fail)
	if !fail.Exchange.ToolError || len(fail.Exchange.ChainSeqs) != 0 {
		t.Errorf("call_tool fail: %+v", fail.Exchange)
	}
	var errs serve.Timeline
	a.call("timeline", map[string]any{"session": c.Session, "query": "has:error"}, &errs)
	if len(errs.Events) == 0 || errs.Events[len(errs.Events)-1].Seq != fail.Exchange.ResponseSeq {
		t.Errorf("timeline has:error does not end with the failing response %d: %+v", fail.Exchange.ResponseSeq, errs)
	}
	var failing serve.Frame
	a.call("frame", map[string]any{"session": c.Session, "seq": fail.Exchange.ResponseSeq}, &failing)
	if !strings.Contains(failing.Bytes, `"isError":true`) || failing.RequestSeq != fail.Exchange.RequestSeq {
		t.Errorf("the failing frame: %+v", failing)
	}
	// check makes the calls of a recording, as check --calls does: this session's.
	var again serve.CheckOut
	a.call("check", map[string]any{"session": c.Session, "calls_from": c.Recording, "read": 0, "read_only_calls": false}, &again)
	var called struct {
		Runs []struct{ Calls []string }
	}
	if err := json.Unmarshal(again.Report, &called); err != nil || len(called.Runs) == 0 || !slices.Contains(called.Runs[0].Calls, "fail") {
		t.Errorf("check with calls_from made no call of fail (%v): %+v", err, called)
	}

	driveServe(t, a, c.Session, "echo", map[string]any{"text": "hello " + serveSecret}, func() {
		var x serve.Answer
		a.call("call_tool", map[string]any{"session": c.Session, "name": "toggle_tools", "arguments": map[string]any{}}, &x)
	})
	w.verify(t, rev)
}

// TestServeHTTPEverything drives serve --http, in the 2026-07-28 era, against the pinned
// reference server.
func TestServeHTTPEverything(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
	const token = "serve-test-token-0123456789"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "serve", "--http", "127.0.0.1:0", "--record-dir", t.TempDir())
	cmd.Env = append(serveEnv(t), "MCPSCOPE_SERVE_TOKEN="+token)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cancel()
	lines := bufio.NewScanner(stderr)
	url := ""
	for url == "" && lines.Scan() {
		if _, rest, ok := strings.Cut(lines.Text(), "Streamable HTTP at "); ok {
			url, _, _ = strings.Cut(rest, " ")
		}
	}
	if url == "" {
		t.Fatal("serve --http printed no URL")
	}
	go func() {
		for lines.Scan() {
		}
	}()
	if resp, err := http.Post(url, "application/json", strings.NewReader(`{}`)); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a request without the token: %v %v", resp, err)
	}
	// With the token, a rebound name or another site's page is still refused.
	for _, h := range []map[string]string{{"Host": "rebind.attacker.example"}, {"Origin": "http://attacker.example"}} {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		for k, v := range h {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("serve --http with the token and %v: %v %v, want 403", h, resp, err)
		}
		if resp != nil {
			resp.Body.Close()
		}
	}

	hc := &http.Client{Transport: bearer{token}}
	a, w := startAgent(t, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, "2026-07-28")
	rev := a.cs.InitializeResult().ProtocolVersion
	if rev != "2026-07-28" {
		t.Fatalf("negotiated %q, want 2026-07-28", rev)
	}
	var c serve.Connected
	a.call("connect", map[string]any{"command": []string{node, index}, "env": []string{"EVERYTHING_TOKEN=" + serveSecret}}, &c)
	if c.Session == "" || c.Handshake.Name == "" {
		t.Fatalf("connect: %+v", c)
	}
	// A second client, of the stateful era, sees the same session: sessions belong to serve.
	b, bw := startAgent(t, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, "2025-11-25")
	var list serve.SessionList
	b.call("sessions", map[string]any{}, &list)
	if len(list.Sessions) != 1 || list.Sessions[0].Session != c.Session {
		t.Errorf("sessions seen by a second client: %+v", list)
	}
	var tl serve.Timeline
	for range 3 {
		b.call("timeline", map[string]any{"session": c.Session, "limit": 1}, &tl)
	}
	bw.verify(t, "2025-11-25")

	var chk serve.CheckOut
	a.call("check", map[string]any{"session": c.Session, "read": 2}, &chk)
	if !bytes.Contains(chk.Report, []byte(`"runs"`)) || len(chk.Recordings) == 0 {
		t.Errorf("check of server-everything: %.2000s", chk.Report)
	}
	driveServe(t, a, c.Session, "echo", map[string]any{"message": "hello " + serveSecret}, nil)
	w.verify(t, rev)
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestCheckServeClean: mcpscope check finds no error and no warning in mcpscope serve, in
// either era, and no response to a request it cancelled.
func TestCheckServeClean(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	for _, proto := range []string{"auto", "2025-11-25"} {
		out, errOut, code := run(t, "check", "--json", "--protocol", proto, "--", bin, "serve", "--record-dir", t.TempDir())
		var rep struct {
			Runs []struct {
				Revision string
				Items    []struct {
					Code, Severity, Message string
				}
				Err string
			}
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 || len(rep.Runs) == 0 {
			t.Fatalf("check --protocol %s -- mcpscope serve: exit %d, %v\n%s\n%s", proto, code, err, out, errOut)
		}
		for _, run := range rep.Runs {
			if run.Err != "" {
				t.Errorf("%s: run: %s", proto, run.Err)
			}
			for _, it := range run.Items {
				if it.Severity == "error" || it.Severity == "warning" || it.Code == "session.late-response" {
					t.Errorf("%s (%s): %s %s: %s", proto, run.Revision, it.Severity, it.Code, it.Message)
				}
			}
		}
	}
}

// TestServeSkill: serve --skill prints the skill file kept in the repository.
func TestServeSkill(t *testing.T) {
	out, errOut, code := run(t, "serve", "--skill")
	if code != 0 || out != serve.Skill || errOut != "" {
		t.Errorf("serve --skill: exit %d, %d bytes (want %d), %s", code, len(out), len(serve.Skill), errOut)
	}
}

// TestServeLoopbackOnly: --http refuses an address other hosts can reach unless
// --allow-remote.
func TestServeLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:7777"} {
		_, errOut, code := run(t, "serve", "--http", addr)
		if code != 2 || !strings.Contains(errOut, "loopback") {
			t.Errorf("serve --http %s: exit %d, %s", addr, code, errOut)
		}
	}
}

// TestServeUsage: serve refuses what does not apply to it, saying why. Grant credentials
// are refused: an authorization server named by a server the agent chose would get them.
func TestServeUsage(t *testing.T) {
	for _, args := range [][]string{{"-e", "A=B"}, {"--url", "http://127.0.0.1:1/mcp"}, {"--record", "x.jsonl"}, {"--allow-remote"},
		{"--grant", "jwt-bearer", "--assertion", "/dev/null"}, {"--private-key", "/dev/null"}, {"--id-token", "/dev/null"}} {
		_, errOut, code := run(t, append([]string{"serve"}, args...)...)
		if code != 2 || !strings.Contains(errOut, "mcpscope: ") {
			t.Errorf("serve %v: exit %d, %s", args, code, errOut)
		}
	}
}

// TestServeURLTargets: connect to an HTTP server with a secret header (masked everywhere),
// diff two sessions, and no bearer token from serve's environment reaches a URL the agent
// names.
func TestServeURLTargets(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	const envToken = "env-bearer-token-5d2c9a"
	var mu sync.Mutex
	var auths []string
	probe := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auths = append(auths, r.Header.Get("Authorization"))
		mu.Unlock()
		http.Error(w, "not an MCP server", http.StatusNotFound)
	}))
	defer probe.Close()
	cmd := exec.Command(bin, "serve", "--record-dir", t.TempDir())
	cmd.Env = append(serveEnv(t), "MCPSCOPE_BEARER="+envToken)
	var log bytes.Buffer
	cmd.Stderr = &log
	a, w := startAgent(t, &mcp.CommandTransport{Command: cmd}, "2025-11-25")

	for _, bad := range []map[string]any{{}, {"command": []string{bin, "demo"}, "url": probe.URL}, {"command": []string{bin, "demo"}, "transport": "smoke"}} {
		if res := a.result("connect", bad); !res.IsError {
			t.Errorf("connect %v: %s", bad, text(res))
		}
	}
	if res := a.result("connect", map[string]any{"url": probe.URL + "/mcp", "transport": "http"}); !res.IsError {
		t.Errorf("connect to a server that is not one: %s", text(res))
	}
	mu.Lock()
	if len(auths) == 0 {
		t.Error("the probe server saw no request")
	}
	for _, h := range auths {
		if strings.Contains(h, envToken) {
			t.Errorf("serve sent $MCPSCOPE_BEARER to a URL the agent named: %q", h)
		}
	}
	mu.Unlock()

	streamable, _ := sessiontest.StartDemoHTTP(t)
	var web, local serve.Connected
	a.call("connect", map[string]any{"url": streamable + "?api_key=" + serveSecret, "headers": []string{"Authorization: Bearer " + serveSecret}}, &web)
	a.call("connect", map[string]any{"command": []string{bin, "demo"}, "sampling_reply": "a canned summary", "roots": []string{t.TempDir()}}, &local)
	if !strings.Contains(local.Answers.Sampling, "fixed text") || len(local.Answers.RootList) != 1 {
		t.Errorf("connect with sampling_reply and roots: %+v", local.Answers)
	}
	// The server's own request is answered as connect said.
	var sum serve.Answer
	a.call("call_tool", map[string]any{"session": local.Session, "name": "summarize", "arguments": map[string]any{"text": "MCP"}}, &sum)
	if !strings.Contains(string(sum.Result), "a canned summary") || sum.Exchange.ToolError {
		t.Errorf("summarize with a sampling reply: %s", sum.Result)
	}
	if web.Handshake.Transport == local.Handshake.Transport {
		t.Errorf("both sessions over %s", web.Handshake.Transport)
	}
	var call serve.Answer
	a.call("call_tool", map[string]any{"session": web.Session, "name": "echo", "arguments": map[string]any{"text": "over HTTP"}}, &call)
	if call.Exchange.ResponseSeq == 0 {
		t.Errorf("call over HTTP: %+v", call)
	}
	var tl serve.Timeline
	a.call("timeline", map[string]any{"session": web.Session, "query": "kind:http", "body_bytes": 4096}, &tl)
	if len(tl.Events) == 0 {
		t.Errorf("no HTTP exchange in the timeline: %+v", tl)
	}
	var d serve.DiffOut
	a.call("diff", map[string]any{"session": web.Session, "against": local.Session}, &d)
	if !d.Equal {
		t.Errorf("the demo over HTTP and over stdio differ:\n%s", d.Text)
	}
	w.verify(t, a.cs.InitializeResult().ProtocolVersion)
	a.cs.Close()
	_ = cmd.Wait()
	if !strings.Contains(log.String(), "session s1") || strings.Contains(log.String(), serveSecret) {
		t.Errorf("serve's log names no session, or holds the secret:\n%s", log.String())
	}
}
