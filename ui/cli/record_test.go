package cli_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// traceEvents parses --trace output (stderr) into events by seq.
func traceEvents(t *testing.T, stderr string) []session.EventJSON {
	t.Helper()
	var out []session.EventJSON
	sc := bufio.NewScanner(strings.NewReader(stderr))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e session.EventJSON
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Seq > 0 {
			out = append(out, e)
		}
	}
	return out
}

// checkRecording opens a recording made together with --trace and checks it against the
// trace: the header, every line, the number of events and each frame's exact bytes.
func checkRecording(t *testing.T, path, stderr, server string) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("%s: mode %v, want 0600", path, st.Mode().Perm())
	}
	data, _ := os.ReadFile(path)
	for i, l := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		if !json.Valid(l) {
			t.Errorf("%s line %d is not JSON: %.200s", path, i+1, l)
		}
	}
	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h := r.Header()
	if h.Format != recordings.FormatVersion || h.Transport != "stdio" || h.Protocol != "auto" || !strings.Contains(h.Server, server) || !h.Redacted {
		t.Errorf("%s: header %+v", path, h)
	}
	if len(r.Problems()) > 0 {
		t.Errorf("%s: problems %v", path, r.Problems())
	}
	trace := traceEvents(t, stderr)
	if r.Len() != len(trace) || r.Len() < 8 {
		t.Fatalf("%s: %d events, the trace has %d", path, r.Len(), len(trace))
	}
	for i, want := range trace {
		e, err := r.Event(i)
		if err != nil {
			t.Fatal(err)
		}
		if e.Seq != want.Seq || e.Kind.String() != want.Kind {
			t.Errorf("event %d: %d %s, trace has %d %s", i, e.Seq, e.Kind, want.Seq, want.Kind)
		}
		if want.Raw != nil && string(e.Frame.Raw) != *want.Raw {
			t.Errorf("frame %d: bytes %q, trace has %q", want.Seq, e.Frame.Raw, *want.Raw)
		}
	}
}

// TestRecordReplayMockEverything records four commands against the reference server,
// checks each recording, replays each against the same server (no differences, exit 0) and
// serves them with mock.
func TestRecordReplayMockEverything(t *testing.T) {
	t.Parallel()
	node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
	server := []string{"--", node, index, "stdio"}
	dir := t.TempDir()
	cmds := map[string][]string{
		"list":   {"list", "tools"},
		"call":   {"call", "get-sum", "a=1", "b=2"},
		"read":   {"read", "demo://resource/static/document/architecture.md"},
		"prompt": {"prompt", "simple-prompt"},
	}
	order := []string{"list", "call", "read", "prompt"}
	files := map[string]string{}
	outputs := map[string]string{}
	for _, name := range order {
		files[name] = filepath.Join(dir, name+".jsonl")
		args := append(append([]string{"--trace", "--record", files[name]}, cmds[name]...), server...)
		stdout, stderr, code := run(t, args...)
		if code != cli.ExitOK {
			t.Fatalf("%s: exit %d\n%s\n%s", name, code, stdout, stderr)
		}
		outputs[name] = stdout
		checkRecording(t, files[name], stderr, "index.js stdio")
	}
	for _, name := range order {
		stdout, stderr, code := run(t, append([]string{"replay", files[name]}, server...)...)
		if code != cli.ExitOK || !strings.Contains(stdout, " same") || strings.Contains(stdout, "different") {
			t.Errorf("replay %s: exit %d\n%s\n%s", name, code, stdout, stderr)
		}
	}
	mock := []string{"--", sessiontest.BuildMCPScope(t), "mock"}
	// list tools through the mock prints exactly what the recorded session printed.
	if got := runOK(t, append([]string{"list", "tools"}, append(mock, files["list"])...)...); got != outputs["list"] {
		t.Errorf("list tools through mock:\n%.400s\nrecorded:\n%.400s", got, outputs["list"])
	}
	all := append(append([]string{}, mock...), files["list"], files["call"], files["read"], files["prompt"])
	for _, name := range order[1:] {
		if got := runOK(t, append(cmds[name], all...)...); got != outputs[name] {
			t.Errorf("%s through mock:\n%s\nrecorded:\n%s", name, got, outputs[name])
		}
	}
	stdout, _, code := run(t, append([]string{"rpc", "tasks/list"}, all...)...)
	if code != cli.ExitRPCError || !strings.Contains(stdout, "-32601") || !strings.Contains(stdout, `\"tasks/list\" is not in the recording`) {
		t.Errorf("unrecorded method through mock: exit %d\n%s", code, stdout)
	}
	stdout, _, code = run(t, append([]string{"call", "get-sum", "a=5", "b=2"}, all...)...)
	if code != cli.ExitRPCError || !strings.Contains(stdout, "-32602") || !strings.Contains(stdout, "no recorded response for these params") {
		t.Errorf("unrecorded params through mock: exit %d\n%s", code, stdout)
	}
	// The recording of a stateful session refuses the stateless handshake in words.
	stdout, _, code = run(t, append([]string{"info", "--protocol", "2026-07-28"}, all...)...)
	if code != cli.ExitConnect {
		t.Errorf("info --protocol 2026-07-28 through mock: exit %d\n%s", code, stdout)
	}
}

// TestReplayChangedServer records a call against the demo server and replays it against a
// server whose echo tool answers differently: the difference is reported, exit code 1.
func TestReplayChangedServer(t *testing.T) {
	file := filepath.Join(t.TempDir(), "echo.jsonl")
	runOK(t, "--record", file, "call", "echo", "text=hello")
	changed := sessiontest.BuildChangedServer(t)
	stdout, stderr, code := run(t, "replay", file, "--", changed)
	if code != cli.ExitRPCError {
		t.Fatalf("replay against the changed server: exit %d, want 1\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, `/result/content/0/text: "hello" → "hello (changed)"`) {
		t.Errorf("the difference is not reported:\n%s", stdout)
	}
	stdout, _, _ = run(t, "replay", "--json", file, "--", changed)
	var rep recordings.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("replay --json: %v\n%s", err, stdout)
	}
	statuses := map[string]int{}
	for _, r := range rep.Results {
		statuses[r.Method+" "+r.Status]++
	}
	if statuses["tools/call different"] != 1 || statuses["tools/list same"] == 0 || len(rep.Results) < 3 {
		t.Errorf("replay --json statuses %v", statuses)
	}
	if stdout := runOK(t, "replay", "--ignore", "/result/content/*/text", file, "--", changed); !strings.Contains(stdout, "tools/call") {
		t.Errorf("replay with --ignore:\n%s", stdout)
	}
	// Against the demo itself the replay matches.
	runOK(t, "replay", file)
}

// TestRecordKill9 kills mcpscope while it records a long call: every line of the file is
// whole JSON and the header is there.
func TestRecordKill9(t *testing.T) {
	node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
	file := filepath.Join(t.TempDir(), "killed.jsonl")
	cmd := exec.Command(sessiontest.BuildMCPScope(t), "--record", file, "call", "trigger-long-running-operation", "duration=30", "steps=60", "--", node, index, "stdio")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(30 * time.Second)
	for {
		data, _ := os.ReadFile(file)
		if bytes.Count(data, []byte(`notifications/progress`)) >= 2 {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("mcpscope ended before it was killed: %v\n%s", err, data)
		case <-deadline:
			_ = cmd.Process.Kill()
			t.Fatalf("no progress recorded within 30s:\n%s", data)
		case <-time.After(25 * time.Millisecond):
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-exited
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(data, []byte("\n"))
	if len(lines[len(lines)-1]) != 0 {
		t.Errorf("the file does not end with a whole line: %q", lines[len(lines)-1])
	}
	for i, l := range lines[:len(lines)-1] {
		if !json.Valid(l) {
			t.Errorf("line %d is not JSON: %.200s", i+1, l)
		}
	}
	r, err := recordings.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Header().Format != 1 || r.Len() < 10 || len(r.Problems()) > 0 {
		t.Errorf("after kill -9: header %+v, %d events, problems %v", r.Header(), r.Len(), r.Problems())
	}
}

// TestRecordRedaction: a bearer token (HTTP) and an -e value (stdio, echoed back by the
// server's get-env tool) are masked by default and kept with --no-redact.
func TestRecordRedaction(t *testing.T) {
	const token = "tok-1234567890abcdefWXYZ"
	const secret = "s3cr3t-value-4242"
	url, _ := sessiontest.StartDemoHTTP(t)
	node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
	dir := t.TempDir()
	for _, noRedact := range []bool{false, true} {
		extra := []string{}
		if noRedact {
			extra = append(extra, "--no-redact")
		}
		httpFile := filepath.Join(dir, "http"+strings.Join(extra, "")+".jsonl")
		runOK(t, append(extra, "--record", httpFile, "--bearer", token, "call", "echo", "text=my token is "+token, "--url", url)...)
		stdioFile := filepath.Join(dir, "stdio"+strings.Join(extra, "")+".jsonl")
		runOK(t, append(extra, "--record", stdioFile, "-e", "MY_SECRET="+secret, "call", "get-env", "--", node, index, "stdio")...)
		httpData, _ := os.ReadFile(httpFile)
		stdioData, _ := os.ReadFile(stdioFile)
		if got := bytes.Contains(httpData, []byte(token)); got != noRedact {
			t.Errorf("no-redact=%v: the bearer token is in the recording: %v", noRedact, got)
		}
		if got := bytes.Contains(stdioData, []byte(secret)); got != noRedact {
			t.Errorf("no-redact=%v: the -e value is in the recording: %v", noRedact, got)
		}
		if !noRedact {
			if bytes.Contains(httpData, []byte("WXYZ")) || !bytes.Contains(httpData, []byte(`"Bearer ****"`)) {
				t.Errorf("the Authorization header is not fully masked")
			}
			if !bytes.Contains(stdioData, []byte(`MY_SECRET\\\": \\\"****`)) {
				t.Errorf("the masked get-env output does not show MY_SECRET as ****")
			}
		}
		for _, f := range []string{httpFile, stdioFile} {
			if st, err := os.Stat(f); err != nil || st.Mode().Perm() != 0o600 {
				t.Errorf("%s: mode %v (%v), want 0600", f, st.Mode().Perm(), err)
			}
		}
	}
	if _, stderr, code := run(t, "--record", filepath.Join(dir, "http.jsonl"), "info", "--url", url); code != cli.ExitUsage || !strings.Contains(stderr, "already exists") {
		t.Errorf("--record over an existing file: exit %d\n%s", code, stderr)
	}
}

// TestReplayAnswersFromRecording: the demo's list_roots tool asks the client for its roots
// (a roots/list request in the stateful era, an input_required chain in 2026-07-28). The
// replay runs without --root, so only the recorded answer makes the responses match.
func TestReplayAnswersFromRecording(t *testing.T) {
	dir := t.TempDir()
	for _, proto := range []string{"2025-11-25", "2026-07-28"} {
		file := filepath.Join(dir, proto+".jsonl")
		out := runOK(t, "--protocol", proto, "--root", "file:///recorded/root", "--record", file, "call", "list_roots")
		if !strings.Contains(out, "file:///recorded/root") {
			t.Fatalf("%s: list_roots printed %s", proto, out)
		}
		stdout, stderr, code := run(t, "replay", file)
		if code != cli.ExitOK || strings.Contains(stdout, "different") {
			t.Errorf("%s: replay without --root: exit %d\n%s\n%s", proto, code, stdout, stderr)
		}
	}
}
