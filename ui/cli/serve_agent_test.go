package cli_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session/demo"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/serve"
)

// eventually calls check until it reports true, failing after a minute: for what the
// server does on its own time (a task's end, a periodic log entry or update).
func eventually(t *testing.T, what string, check func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !check(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within a minute", what)
		}
	}
}

// TestServeAgentLoop drives the built serve over stdio with the go-sdk client the way a
// coding agent would, on server-everything: a form elicitation answered through pending and
// answer; a task started, polled and its result read; the log tailed; a subscription's
// update in the timeline; the server killed and the next call answered after reconnect;
// then a login to the demo behind its OAuth server through pending_auth, with a browser
// stand-in. The recording holds it all.
func TestServeAgentLoop(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "serve", "--record-dir", dir)
	cmd.Env = serveEnv(t)
	a, _ := startAgent(t, &mcp.CommandTransport{Command: cmd}, "")
	pidFile := filepath.Join(t.TempDir(), "pid")
	var c serve.Connected
	a.call("connect", map[string]any{"command": []string{"sh", "-c", `echo $$ > "$0"; exec "$1" "$2"`, pidFile, node, index},
		"protocol": "2025-11-25", "reconnect": true}, &c)
	id := c.Session

	// A form, answered.
	var form serve.Answer
	a.call("call_tool", map[string]any{"session": id, "name": "trigger-elicitation-request"}, &form)
	if form.Call == "" || len(form.Pending) != 1 || form.Pending[0].Kind != "form" {
		t.Fatalf("trigger-elicitation-request: %+v", form)
	}
	var pending serve.PendingOut
	a.call("pending", map[string]any{"session": id}, &pending)
	if len(pending.Questions) != 1 || pending.Questions[0].ID != form.Pending[0].ID {
		t.Errorf("pending: %+v", pending)
	}
	var sent serve.Answered
	a.call("answer", map[string]any{"id": form.Pending[0].ID, "action": "accept",
		"content": map[string]any{"name": "Ada Lovelace", "check": true, "email": "ada@example.com"}}, &sent)
	var formDone serve.Answer
	a.call("await_call", map[string]any{"call": form.Call}, &formDone)
	if !strings.Contains(string(formDone.Result), "Ada Lovelace") {
		t.Errorf("the elicitation's call after the answer: %s %+v", formDone.Result, formDone.Exchange)
	}

	// A task: started, polled until it ends, its result read.
	var started serve.Answer
	a.call("call_tool", map[string]any{"session": id, "name": "simulate-research-query", "task": true,
		"arguments": map[string]any{"topic": "MCP tasks"}}, &started)
	var created struct {
		Task struct {
			TaskID string `json:"taskId"`
		} `json:"task"`
	}
	if json.Unmarshal(started.Result, &created) != nil || created.Task.TaskID == "" {
		t.Fatalf("simulate-research-query as a task: %s %+v", started.Result, started.Exchange)
	}
	eventually(t, "the task's end", func() bool {
		var got serve.Answer
		a.call("tasks", map[string]any{"session": id, "action": "get", "task_id": created.Task.TaskID}, &got)
		return strings.Contains(string(got.Result), `"completed"`)
	})
	var result serve.Answer
	a.call("tasks", map[string]any{"session": id, "action": "result", "task_id": created.Task.TaskID}, &result)
	if !strings.Contains(string(result.Result), "MCP tasks") {
		t.Errorf("the task's result: %s %+v", result.Result, result.Exchange)
	}

	// The log, and a subscription's updates.
	var lvl serve.LogLevelOut
	a.call("log_level", map[string]any{"session": id, "level": "debug"}, &lvl)
	var sub serve.SubscribeOut
	a.call("subscribe", map[string]any{"session": id, "uri": "demo://resource/static/document/architecture.md"}, &sub)
	var toggled serve.Answer
	a.call("call_tool", map[string]any{"session": id, "name": "toggle-subscriber-updates"}, &toggled)
	eventually(t, "a log entry about the subscription", func() bool {
		var tail serve.LogTail
		a.call("log_tail", map[string]any{"session": id}, &tail)
		for _, e := range tail.Entries {
			if strings.Contains(e.Data, "Subscribe") {
				return true
			}
		}
		return false
	})
	eventually(t, "a resource update in the timeline", func() bool {
		var tl serve.Timeline
		a.call("timeline", map[string]any{"session": id, "query": "method:notifications/resources/updated"}, &tl)
		return len(tl.Events) > 0
	})

	// The server dies; the next call is answered by a new session.
	b, err := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid == 0 {
		t.Fatalf("the server's pid: %q %v", b, err)
	}
	if p, err := os.FindProcess(pid); err != nil || p.Kill() != nil {
		t.Fatalf("kill the server %d: %v", pid, err)
	}
	eventually(t, "the session's end", func() bool {
		var list serve.SessionList
		a.call("sessions", map[string]any{}, &list)
		return strings.HasPrefix(list.Sessions[0].State, "closed")
	})
	var echo serve.Answer
	a.call("call_tool", map[string]any{"session": id, "name": "echo", "arguments": map[string]any{"message": "after the restart"}}, &echo)
	if !strings.Contains(string(echo.Result), "after the restart") {
		t.Errorf("the call after the server died: %s %+v", echo.Result, echo.Exchange)
	}
	var list serve.SessionList
	a.call("sessions", map[string]any{}, &list)
	if list.Sessions[0].Reconnects != 1 {
		t.Errorf("sessions after the reconnect: %+v", list.Sessions[0])
	}

	// A login, handed to the user.
	mcpURL := sessiontest.StartDemoAuthHTTP(t, demo.AuthOptions{})
	var pa serve.Connected
	a.call("connect", map[string]any{"url": mcpURL}, &pa)
	if pa.PendingAuth == nil || pa.PendingAuth.URL == "" {
		t.Fatalf("connect to the demo with --auth: %+v", pa)
	}
	approveInBrowser(t, pa.PendingAuth.URL)
	var authed serve.Connected
	a.call("await_auth", map[string]any{"session": pa.Session}, &authed)
	var who serve.Answer
	a.call("call_tool", map[string]any{"session": pa.Session, "name": "whoami"}, &who)
	if authed.Handshake.Name != "mcpscope-demo" || who.Exchange.ToolError || who.Exchange.ResponseSeq == 0 {
		t.Errorf("after the login: %+v, whoami %s %+v", authed.Handshake, who.Result, who.Exchange)
	}

	// The recording holds both sessions of the first, and what the agent did.
	var d serve.Disconnected
	a.call("disconnect", map[string]any{"session": id}, &d)
	r, err := recordings.Open(d.Recording)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	evs, _ := r.Events()
	seen := map[string]int{}
	for _, e := range evs {
		if e.Event.Frame != nil {
			seen[e.Event.Frame.Method]++
		}
	}
	for _, m := range []string{"elicitation/create", "tasks/get", "tasks/result", "notifications/message", "notifications/resources/updated"} {
		if seen[m] == 0 {
			t.Errorf("the recording has no %s", m)
		}
	}
	if seen["initialize"] < 2 {
		t.Errorf("the recording has %d initialize requests, want the first session's and the new one's", seen["initialize"])
	}
}

// approveInBrowser is the user's browser: it opens the authorization URL, approves, and
// follows the redirect to serve's loopback listener.
func approveInBrowser(t *testing.T, u string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u+"&approve=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("the browser: %v", err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the browser: the callback answered %s", resp.Status)
	}
}
