package ui

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestHeadlessWords: each request becomes the headless command that sends the same
// params: call, read and prompt where they would, rpc (exact) otherwise.
func TestHeadlessWords(t *testing.T) {
	schema := func(string) json.RawMessage {
		return json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"n":{"type":"integer"},"id":{"type":"integer"}}}`)
	}
	for _, tc := range []struct {
		name, frame string
		stateless   bool
		want        string
	}{
		{"call", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a b","n":3},"_meta":{"progressToken":"x"}}}`, false,
			`call echo n:=3 'text=a b'`},
		{"call without progress", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"id":"7"}}}`, false,
			`call echo 'id:="7"' --no-progress`},
		{"call in 2026-07-28", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, true,
			`call echo --no-progress`},
		{"call with a foreign _meta", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","_meta":{"trace":1}}}`, false,
			`rpc tools/call --params '{"name":"echo","_meta":{"trace":1}}'`},
		{"read", `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"demo://a b"}}`, false,
			`read 'demo://a b'`},
		{"prompt", `{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"greet","arguments":{"who":"it's me"}}}`, false,
			`prompt greet 'who=it'\''s me'`},
		{"other", `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`, false, `rpc tools/list`},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/roots/list_changed","params":{}}`, false,
			`rpc notifications/roots/list_changed --params '{}' --notify`},
		{"stateless rpc", `{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{}}}`, true,
			`rpc tools/list --params '{"_meta":{}}' --exact`},
		{"not JSON-RPC", `{"jsonrpc":"2.0","id":77,"method":`, false, `rpc --raw '{"jsonrpc":"2.0","id":77,"method":'`},
	} {
		f := protocol.Decode([]byte(tc.frame))
		got := shellLine(headlessWords(f, reproInfo{stateless: tc.stateless, schema: schema}), nil)
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// TestCopyAsCommand: C on a call mcpscope sent opens the lines that reproduce it, with
// the server selection flags and secrets masked; the mcpscope line, run in a shell,
// calls the demo server's tool with the same arguments.
func TestCopyAsCommand(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	bin := sessiontest.BuildMCPScope(t)
	r.m.opts.Server = ServerArgs{Flags: []string{"--protocol", "2025-11-25", "-e", "API_KEY=hunter2-secret"}, Command: []string{bin, "demo"}}
	r.m.c.SetMasks(recordings.Options{Secrets: []string{"hunter2-secret"}})
	r.compose("tools/call", `{"name":"echo","arguments":{"text":"copied as a command"}}`)
	r.until("the call's response", func() bool {
		e := r.frame(`"method":"tools/call"`, `copied as a command`)
		return e != nil && e.Answered
	})
	resp := r.frame(`"result"`, `copied as a command`)
	if resp == nil || !r.m.timeline.Select(resp) {
		t.Fatal("the call's response is not in the timeline")
	}
	r.keys("C")
	d := dialogOf[*commandDialog](r.m)
	if d == nil || len(d.cmds) != 1 {
		t.Fatalf("C on a response did not open one command for its request: %+v", d)
	}
	line := d.cmds[0].Line
	want := "mcpscope call echo 'text=copied as a command' --no-progress --protocol 2025-11-25 -e "
	if !strings.HasPrefix(line, want) || strings.Contains(line, "hunter2") || !strings.HasSuffix(line, " -- "+bin+" demo") {
		t.Fatalf("the command line is\n%s\nwant it to start %q, end with the server command and mask the -e value", line, want)
	}
	if scr := r.screen(); !strings.Contains(scr, "Copy tools/call") {
		t.Fatalf("the dialog is not drawn:\n%s", scr)
	}

	// enter copies the line and closes the dialog.
	r.keys("enter")
	if dialogOf[*commandDialog](r.m) != nil {
		t.Fatalf("enter did not close the dialog")
	}
	r.until("the copy's status", func() bool { return strings.Contains(r.screen(), "(the mcpscope line)") })

	// The line reproduces the call.
	dir := t.TempDir()
	if err := os.Symlink(bin, filepath.Join(dir, "mcpscope")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", line)
	cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"), "XDG_STATE_HOME="+dir, "XDG_CACHE_HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "copied as a command") {
		t.Fatalf("the copied line failed (%v):\n%s", err, out)
	}
}

// TestCopyAsCurl: over Streamable HTTP the dialog offers curl too, with the session id
// (2025-11-25) or the headers 2026-07-28 mirrors from the body (Mcp-Method, Mcp-Name), the
// revision and the -H headers (a secret one masked); with the secret given back, the curl
// line gets the demo server's answer.
func TestCopyAsCurl(t *testing.T) {
	url, _ := sessiontest.StartDemoHTTP(t)
	for _, rev := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(rev, func(t *testing.T) {
			hdr := http.Header{"X-Api-Key": {"hunter2-secret"}}
			opts := Options{Target: url, TransportName: "http",
				NewSession: func() (*session.Session, error) {
					s := session.New(session.Config{Protocol: rev,
						Transport: transport.NewStreamableHTTP(transport.HTTPOptions{URL: url, Headers: hdr})})
					t.Cleanup(func() { _ = s.Close() })
					return s, nil
				},
				RecordOptions: recordings.Options{Secrets: []string{"hunter2-secret"}},
				Server:        ServerArgs{Flags: []string{"--url", url}, URL: url, Headers: []string{"X-Api-Key: hunter2-secret"}},
			}
			m := NewModel(NewCommon(nil), opts)
			d := newDriver(t, m)
			d.handle(tea.WindowSizeMsg{Width: 80, Height: 24})
			d.run(m.Init())
			d.until(60*time.Second, "the handshake", func() bool { return m.state == session.StateReady })
			r := &rig{t: t, m: m, d: d}
			// As the explorer sends it (the composer sends params exactly, without the
			// _meta 2026-07-28 needs).
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := m.Session().Call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "by curl"}}); err != nil {
				t.Fatalf("echo: %v", err)
			}
			r.until("the call's response", func() bool {
				e := r.frame(`"method":"tools/call"`, `by curl`)
				return e != nil && e.Answered
			})
			r.m.timeline.Select(r.frame(`"method":"tools/call"`, `by curl`))
			r.keys("C")
			dl := dialogOf[*commandDialog](m)
			if dl == nil || len(dl.cmds) != 2 || dl.cmds[1].Label != "curl" {
				t.Fatalf("no curl line over HTTP: %+v", dl)
			}
			c := dl.cmds[1].Line
			want := []string{"curl -sS -X POST " + url, "'MCP-Protocol-Version: " + rev + "'", `--data-raw '{"jsonrpc":"2.0"`}
			if rev == "2025-11-25" {
				want = append(want, "'Mcp-Session-Id: "+m.info.SessionID+"'")
			} else {
				want = append(want, "'Mcp-Method: tools/call'", "'Mcp-Name: echo'")
			}
			for _, part := range want {
				if !strings.Contains(c, part) {
					t.Errorf("the curl line lacks %s:\n%s", part, c)
				}
			}
			if strings.Contains(c, "hunter2") {
				t.Fatalf("the curl line shows the secret header:\n%s", c)
			}
			if scr := r.screen(); !strings.Contains(scr, "curl") {
				t.Fatalf("the curl line is not drawn at 80 columns:\n%s", scr)
			}
			masked := c[strings.Index(c, "X-Api-Key: ")+len("X-Api-Key: "):]
			masked = masked[:strings.IndexByte(masked, '\'')]
			out, err := exec.Command("sh", "-c", strings.Replace(c, masked, "hunter2-secret", 1)).CombinedOutput()
			if err != nil || !strings.Contains(string(out), "by curl") || !strings.Contains(string(out), `"result"`) {
				t.Fatalf("the curl line did not get the call's result (%v):\n%s", err, out)
			}
		})
	}
}

// TestCurlParamHeaders: a 2026-07-28 tools/call of a tool whose inputSchema annotates
// parameters with x-mcp-header gets those Mcp-Param-* headers, values encoded as the
// session sends them.
func TestCurlParamHeaders(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer","x-mcp-header":"Count"},"q":{"type":"string"}}}`)
	f := protocol.Decode([]byte(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"find","arguments":{"region":"eu-wést","n":3,"q":"x"}}}`))
	info := reproInfo{stateless: true, revision: "2026-07-28", schema: func(tool string) json.RawMessage {
		if tool == "find" {
			return schema
		}
		return nil
	}}
	got := strings.Join(mirroredHeaders(f, info), "|")
	want := "Mcp-Method: tools/call|Mcp-Name: find|Mcp-Param-Region: " + transport.HeaderValue("eu-wést") + "|Mcp-Param-Count: 3"
	if got != want {
		t.Errorf("mirrored headers\n got %s\nwant %s", got, want)
	}
	if !strings.HasPrefix(transport.HeaderValue("eu-wést"), "=?base64?") {
		t.Errorf("a non-ASCII value is not encoded: %s", transport.HeaderValue("eu-wést"))
	}
	if h := mirroredHeaders(f, reproInfo{revision: "2025-11-25", schema: info.schema}); h != nil {
		t.Errorf("2025-11-25 mirrors %v", h)
	}
}

// TestCopyAsCurlOAuth: a session authorized by an OAuth login gets an Authorization header
// naming $MCPSCOPE_TOKEN, which the shell expands (the token itself is never shown), and
// nothing else in the line is expanded.
func TestCopyAsCurlOAuth(t *testing.T) {
	f := &protocol.Frame{Method: "tools/list", Raw: []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"x":"$HOME"}}`)}
	line := shellLine(curlWords(f, reproInfo{oauth: "Bearer"}, ServerArgs{URL: "http://127.0.0.1:1/mcp"}), nil)
	if !strings.Contains(line, `"Authorization: Bearer $MCPSCOPE_TOKEN"`) {
		t.Fatalf("no token placeholder: %s", line)
	}
	cmd := exec.Command("sh", "-c", "printf '%s\\n' "+line)
	cmd.Env = append(os.Environ(), "MCPSCOPE_TOKEN=tok-123", "HOME=/nowhere")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "Authorization: Bearer tok-123\n") || !strings.Contains(string(out), `"x":"$HOME"`) {
		t.Errorf("the shell read the line as:\n%s", out)
	}
}

// TestCopyDialogNoRedactFits: with --no-redact the line copied holds the secret, and the
// dialog draws it masked, wrapped as drawn: every row of the dialog has the same width.
func TestCopyDialogNoRedactFits(t *testing.T) {
	const sec = "hunter2-secret-of-some-length-0123456789"
	m := NewModel(NewCommon(nil), Options{})
	m.c.SetMasks(recordings.Options{Secrets: []string{sec}, NoRedact: true})
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.pushDialog(&commandDialog{title: "Copy", cmds: []command{{"mcpscope", "mcpscope call echo --url http://127.0.0.1:1/mcp --bearer=" + sec + " -H 'X-Api-Key: " + sec + "' --protocol 2025-11-25"}}})
	scr := plainScreen(m)
	if strings.Contains(scr, sec) || !strings.Contains(scr, "****") {
		t.Fatalf("the dialog shows the secret, or no mask:\n%s", scr)
	}
	widths := map[int]int{}
	for _, l := range strings.Split(scr, "\n") {
		if strings.Contains(l, "│") {
			widths[ansi.StringWidth(strings.TrimRight(l, " "))]++
		}
	}
	if len(widths) != 1 {
		t.Errorf("the dialog's rows end at %d different columns (%v):\n%s", len(widths), widths, scr)
	}
}
