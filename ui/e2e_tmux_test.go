package ui_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// These tests run the built mcpscope binary in a real terminal: a detached tmux session,
// driven with send-keys and read with capture-pane, the way a user sees it. Each test owns
// its own tmux server (a private socket), so they never touch a user's tmux sessions. The
// package's TestMain (main_test.go) removes the built binary when the tests end.

// waitTimeout bounds every wait for the screen to show something.
const waitTimeout = 30 * time.Second

// term is one program running in a tmux pane.
type term struct {
	t      *testing.T
	tmux   string   // path of the tmux binary
	socket string   // socket path of the private tmux server
	name   string   // session name
	last   string   // the last captured screen, shown when the test fails
	state  string   // XDG_STATE_HOME of the program: its default recordings go there
	env    []string // KEY=VAL the program's environment overrides (startTermEnv)
}

// startTerm runs mcpscope with args in a w×h tmux pane, with TERM=xterm-256color. The
// pane stays after the program exits (remain-on-exit), so its exit can be observed; the
// tmux server is killed when the test ends, and on failure the last screen is logged.
// Each test has its own tmux server and state directory, so the journeys run in parallel
// (t.Parallel); one that sets the environment (t.Setenv) cannot, and runs before them.
func startTerm(t *testing.T, w, h int, args ...string) *term {
	t.Helper()
	return startTermEnv(t, nil, w, h, args...)
}

// startTermEnv is startTerm with env (KEY=VAL) overriding the program's environment.
func startTermEnv(t *testing.T, env []string, w, h int, args ...string) *term {
	t.Helper()
	tmuxPath, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatalf("tmux is not installed (%v): the end-to-end tests of the interactive view need tmux; install it (apt-get install tmux) and run again", err)
	}
	bin := sessiontest.BuildMCPScope(t)
	dir := t.TempDir()
	conf := filepath.Join(dir, "tmux.conf")
	confText := strings.Join([]string{
		"set -g remain-on-exit on",
		"set -g status off",
		"set -g default-terminal xterm-256color",
		"set -g escape-time 0",
		// What the program writes may set tmux's paste buffer (OSC 52), so a journey can
		// tell whether a clipboard write reached the terminal.
		"set -g set-clipboard on",
		"",
	}, "\n")
	if err := os.WriteFile(conf, []byte(confText), 0o600); err != nil {
		t.Fatal(err)
	}
	// A socket path must be short (about 100 bytes), which a test's TempDir may not be.
	sockDir, err := os.MkdirTemp("", "mcpscope-tmux-")
	if err != nil {
		t.Fatal(err)
	}
	tm := &term{
		t:      t,
		tmux:   tmuxPath,
		socket: filepath.Join(sockDir, "s"),
		name:   "scope",
		state:  filepath.Join(dir, "state"),
		env:    env,
	}
	t.Cleanup(func() {
		if t.Failed() {
			if s, err := tm.capture(); err == nil {
				tm.last = s
			}
			t.Logf("last screen (%s %s):\n%s", bin, strings.Join(args, " "), frame(tm.last))
		}
		_ = tm.cmd("kill-server").Run()
		os.RemoveAll(sockDir)
	})
	// A shell runs mcpscope and then prints its exit status, which stays on the dead pane.
	cmdArgs := []string{"-f", conf, "new-session", "-d", "-s", tm.name, "-c", dir,
		"-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "--",
		"/bin/sh", "-c", `"$@"; echo "` + exitMarker + `$?"`, "sh", bin}
	cmdArgs = append(cmdArgs, args...)
	if out, err := tm.cmd(cmdArgs...).CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	return tm
}

// cmd is a tmux command on the test's private server.
func (tm *term) cmd(args ...string) *exec.Cmd {
	c := exec.Command(tm.tmux, append([]string{"-S", tm.socket}, args...)...)
	env := append([]string{"TERM=xterm-256color", "XDG_STATE_HOME=" + tm.state}, tm.env...)
	over := func(kv string) bool {
		for _, o := range tm.env {
			if name, _, _ := strings.Cut(o, "="); strings.HasPrefix(kv, name+"=") {
				return true
			}
		}
		return false
	}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TERM=") && !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") &&
			!strings.HasPrefix(kv, "XDG_STATE_HOME=") && !over(kv) {
			env = append(env, kv)
		}
	}
	c.Env = env
	return c
}

// capture returns the pane's text, one line per terminal row.
func (tm *term) capture() (string, error) {
	out, err := tm.cmd("capture-pane", "-p", "-t", tm.name).Output()
	if err != nil {
		return "", fmt.Errorf("tmux capture-pane: %w", err)
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}

// keys sends tmux key names (Enter, Escape, Up, ...) or single characters.
func (tm *term) keys(keys ...string) {
	tm.t.Helper()
	if out, err := tm.cmd(append([]string{"send-keys", "-t", tm.name}, keys...)...).CombinedOutput(); err != nil {
		tm.t.Fatalf("tmux send-keys %q: %v\n%s", keys, err, out)
	}
}

// typeText types s literally.
func (tm *term) typeText(s string) {
	tm.t.Helper()
	if out, err := tm.cmd("send-keys", "-t", tm.name, "-l", s).CombinedOutput(); err != nil {
		tm.t.Fatalf("tmux send-keys -l %q: %v\n%s", s, err, out)
	}
}

// waitFor polls the screen every 50 ms until cond holds, and fails the test when it does
// not within waitTimeout (the test's cleanup logs the last screen). It returns the screen
// that satisfied cond.
func (tm *term) waitFor(what string, cond func(screen string) bool) string {
	tm.t.Helper()
	return tm.waitCheck(what, func(s string) string {
		if cond(s) {
			return ""
		}
		return "not yet"
	})
}

// waitCheck polls the screen every 50 ms until check returns "" (nothing wrong), and fails
// the test with check's last complaint when that does not happen within waitTimeout.
func (tm *term) waitCheck(what string, check func(screen string) string) string {
	tm.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		s, err := tm.capture()
		if err != nil {
			tm.t.Fatalf("waiting for %s: %v", what, err)
		}
		tm.last = s
		why := check(s)
		if why == "" {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("the screen did not show %s within %s (%s); the screen is logged below", what, waitTimeout, why)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// exitMarker precedes mcpscope's exit status, printed by the pane's shell once it exits.
const exitMarker = "mcpscope-test-exit-status="

// exitStatus matches the exit status line.
var exitStatus = regexp.MustCompile(exitMarker + `(\d+)`)

// exitCode returns mcpscope's exit status once it has exited. The status line may have
// scrolled into the pane's history, so the whole history is searched.
func (tm *term) exitCode() (int, bool) {
	tm.t.Helper()
	out, err := tm.cmd("capture-pane", "-p", "-S", "-", "-t", tm.name).Output()
	if err != nil {
		tm.t.Fatalf("tmux capture-pane: %v", err)
	}
	m := exitStatus.FindStringSubmatch(string(out))
	if m == nil {
		return 0, false
	}
	code, err := strconv.Atoi(m[1])
	if err != nil {
		tm.t.Fatal(err)
	}
	return code, true
}

// quit presses q and checks that mcpscope exits with status 0. When requests are still in
// flight (the server's lists are fetched in the background) mcpscope asks first; the answer
// is y.
func (tm *term) quit() {
	tm.t.Helper()
	tm.keys("q")
	confirmed := false
	deadline := time.Now().Add(waitTimeout)
	for {
		if code, ok := tm.exitCode(); ok {
			if code != 0 {
				tm.t.Fatalf("mcpscope exited with status %d after q", code)
			}
			return
		}
		s, err := tm.capture()
		if err != nil {
			tm.t.Fatal(err)
		}
		tm.last = s
		if !confirmed && strings.Contains(s, "Quit anyway") {
			tm.keys("y")
			confirmed = true
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("mcpscope did not exit within %s after q", waitTimeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// resize resizes the tmux window (and so the pane) to w×h.
func (tm *term) resize(w, h int) {
	tm.t.Helper()
	if out, err := tm.cmd("resize-window", "-t", tm.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h)).CombinedOutput(); err != nil {
		tm.t.Fatalf("tmux resize-window: %v\n%s", err, out)
	}
}

// filter opens the timeline filter, types query and applies it.
func (tm *term) filter(query string) {
	tm.t.Helper()
	tm.keys("/")
	tm.typeText(query)
	tm.keys("Enter")
}

// clearFilter opens the filter input and closes it with esc, which empties it. Each step
// waits for the screen to change, so the esc is not read together with the next key (as
// alt+key).
func (tm *term) clearFilter() {
	tm.t.Helper()
	tm.keys("/")
	tm.waitFor("the filter input", func(s string) bool {
		f := footerLine(s)
		return strings.HasPrefix(f, "/") && !strings.Contains(f, "help")
	})
	tm.keys("Escape")
	tm.waitFor("the help line after closing the filter", func(s string) bool {
		f := footerLine(s)
		return !strings.HasPrefix(f, "/") && strings.Contains(f, "help")
	})
}

// lines splits a screen into rows.
func lines(screen string) []string { return strings.Split(screen, "\n") }

// statusLine is the first row: the status bar.
func statusLine(screen string) string { return lines(screen)[0] }

// footerLine is the last row: the help line (or the filter input).
func footerLine(screen string) string {
	ls := lines(screen)
	return ls[len(ls)-1]
}

// body is every row between the status bar and the footer.
func body(screen string) []string {
	ls := lines(screen)
	if len(ls) < 3 {
		return nil
	}
	return ls[1 : len(ls)-1]
}

// bodyHas reports whether some body row contains every one of texts.
func bodyHas(screen string, texts ...string) bool {
	for _, l := range body(screen) {
		all := true
		for _, x := range texts {
			all = all && strings.Contains(l, x)
		}
		if all {
			return true
		}
	}
	return false
}

// bodyContains reports whether any body row contains text.
func bodyContains(screen, text string) bool { return bodyHas(screen, text) }

// frame numbers a screen's rows and marks where each ends, so empty rows and trailing
// blanks show in the log.
func frame(screen string) string {
	var b strings.Builder
	for i, l := range lines(screen) {
		fmt.Fprintf(&b, "%2d|%s|\n", i, l)
	}
	return b.String()
}

// ready reports whether the status bar says the session is ready.
func ready(s string) bool { return strings.Contains(statusLine(s), "ready") }

// listsAnswered reports whether the start's tools/list was answered: its response is on the
// screen, or the response of a list the start asks for after it (prompts/list, then
// events/list), which at 80×24 may have scrolled it off.
func listsAnswered(s string) bool {
	return bodyHas(s, "tools/list", "res") || bodyHas(s, "prompts/list", "res") || bodyHas(s, "events/list", "res")
}

// openFirstResponse filters the timeline to the responses of method, selects the first one
// and opens its detail.
func (tm *term) openFirstResponse(method string) {
	tm.t.Helper()
	tm.clearFilter()
	tm.filter("kind:response method:" + method)
	tm.waitFor("only "+method+" responses", func(s string) bool {
		return allRows(s, func(l string) bool { return strings.Contains(l, method) && strings.Contains(l, "res") })
	})
	tm.keys("g")
	tm.keys("Enter")
}

// allRows reports whether the body has rows and every non-blank one passes ok.
func allRows(screen string, ok func(row string) bool) bool {
	n := 0
	for _, l := range body(screen) {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if !ok(l) {
			return false
		}
		n++
	}
	return n > 0
}

// scrollUntil presses j (down) in the focused pane until the screen contains text.
func (tm *term) scrollUntil(text string) string {
	tm.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		s, err := tm.capture()
		if err != nil {
			tm.t.Fatal(err)
		}
		tm.last = s
		if strings.Contains(s, text) {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("scrolling down did not bring %q into view within %s; the screen is logged below", text, waitTimeout)
		}
		tm.keys("-N", "10", "j")
		time.Sleep(50 * time.Millisecond)
	}
}

// TestTmuxDemoJourney opens mcpscope with no arguments (the built-in demo server) and walks
// the main journey: handshake and traffic, stderr, filtering, the detail of a response,
// help, the explorer, quitting.
func TestTmuxDemoJourney(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, 100, 30)
	tm.waitFor(`status "ready" with tools/list traffic and a demo stderr line`, func(s string) bool {
		return ready(s) && bodyContains(s, "tools/list") && bodyContains(s, "demo: ")
	})
	tm.keys("g") // the top of the timeline: the handshake
	tm.waitFor("the server/discover handshake rows", func(s string) bool {
		return bodyHas(s, "server/discover", "req") && bodyHas(s, "server/discover", "res")
	})
	tm.keys("G")

	tm.filter("method:tools/list")
	tm.waitFor("only tools/list rows", func(s string) bool {
		return allRows(s, func(l string) bool { return strings.Contains(l, "tools/list") && !strings.Contains(l, "demo: ") })
	})

	tm.openFirstResponse("tools/list")
	tm.waitFor("the tools/list result as JSON", func(s string) bool {
		return bodyContains(s, `"tools"`) && bodyContains(s, `"jsonrpc"`)
	})

	tm.keys("Escape")
	tm.waitFor("the timeline again", func(s string) bool {
		return !bodyContains(s, `"jsonrpc"`) && bodyContains(s, "tools/list")
	})

	tm.keys("?")
	tm.waitFor("the full help", func(s string) bool { return bodyContains(s, "mcpscope keys") && bodyContains(s, "Recording") })
	tm.keys("?")
	tm.waitFor("the timeline after closing help", func(s string) bool {
		return !bodyContains(s, "mcpscope keys") && bodyContains(s, "tools/list")
	})

	tm.keys("2")
	tm.waitFor("the explorer with the demo's tools", func(s string) bool {
		return bodyContains(s, "tools") && bodyContains(s, "create_ticket")
	})
	tm.keys("3")
	tm.waitFor("the server page naming the recording", func(s string) bool {
		return bodyContains(s, "recording") && bodyContains(s, ".jsonl")
	})
	tm.quit()
	// After the view has left the alternate screen, the recording's path stays in the terminal.
	out, err := tm.cmd("capture-pane", "-p", "-J", "-S", "-", "-t", tm.name).Output()
	if err != nil {
		t.Fatalf("tmux capture-pane: %v", err)
	}
	if !strings.Contains(string(out), "mcpscope: recorded to "+tm.state) {
		t.Errorf("no \"recorded to\" line naming the recording under %s after exit:\n%s", tm.state, out)
	}
}

// TestTmuxEverythingStdio runs the reference server over stdio: handshake, serverInfo in the
// status bar, its stderr, filtering, and the detail of its tools list.
func TestTmuxEverythingStdio(t *testing.T) {
	t.Parallel()
	node := sessiontest.NodePath(t)
	index := sessiontest.Everything(t)
	tm := startTerm(t, 100, 30, "--", node, index)
	tm.waitFor(`status "ready" with serverInfo mcp-servers/everything, and a tools/list response`, func(s string) bool {
		return ready(s) && strings.Contains(statusLine(s), "mcp-servers/everything") && listsAnswered(s)
	})

	tm.filter("kind:stderr")
	tm.waitFor("the server's stderr line", func(s string) bool {
		return bodyContains(s, "Starting default (STDIO) server...")
	})

	tm.clearFilter()
	tm.filter("method:tools/list")
	tm.waitFor("only tools/list rows", func(s string) bool {
		return bodyHas(s, "tools/list", "req") && bodyHas(s, "tools/list", "res") &&
			allRows(s, func(l string) bool { return strings.Contains(l, "tools/list") })
	})

	tm.openFirstResponse("tools/list")
	tm.waitFor("the tools/list result as JSON", func(s string) bool { return bodyContains(s, `"tools"`) })
	tm.scrollUntil(`"get-sum"`)
	tm.quit()
}

// TestTmuxEverythingHTTP runs the reference server over Streamable HTTP: handshake, the HTTP
// exchanges in the timeline, and the detail of its tools list.
func TestTmuxEverythingHTTP(t *testing.T) {
	t.Parallel()
	base := sessiontest.StartEverythingHTTP(t, "streamableHttp")
	tm := startTerm(t, 100, 30, "--url", base+"/mcp")
	tm.waitFor(`status "ready" and a tools/list response`, func(s string) bool {
		return ready(s) && listsAnswered(s)
	})

	tm.filter("kind:http")
	tm.waitFor("an http row: POST answered with 200", func(s string) bool {
		return bodyHas(s, "http", "POST", "200")
	})

	tm.openFirstResponse("tools/list")
	tm.waitFor("the tools/list result as JSON", func(s string) bool {
		return bodyContains(s, `"tools"`) && bodyContains(s, `"name": "echo"`)
	})
	tm.quit()
}

// TestTmuxResize resizes the terminal under the running program and checks after each
// resize that the screen is intact: no row wider than the terminal, the status bar on the
// first row and the help line on the last.
func TestTmuxResize(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, 100, 30)
	tm.waitFor(`status "ready" with tools/list traffic`, func(s string) bool {
		return ready(s) && bodyContains(s, "tools/list")
	})
	for _, size := range []struct{ w, h int }{{100, 30}, {80, 24}, {100, 30}} {
		tm.resize(size.w, size.h)
		tm.waitCheck(fmt.Sprintf("an intact %d×%d screen", size.w, size.h), func(s string) string {
			return intact(s, size.w, size.h)
		})
	}
	tm.quit()
}

// intact says what is wrong with a w×h screen, or "" when nothing is.
func intact(s string, w, h int) string {
	ls := lines(s)
	if len(ls) != h {
		return fmt.Sprintf("%d rows, want %d", len(ls), h)
	}
	for i, l := range ls {
		if n := ansi.StringWidth(l); n > w {
			return fmt.Sprintf("row %d is %d cells wide, want at most %d", i, n, w)
		}
	}
	if !ready(s) {
		return `the first row is not the status bar saying "ready"`
	}
	if !strings.Contains(footerLine(s), "help") {
		return `the last row is not the help line (no "help")`
	}
	if !bodyContains(s, "/list") {
		return "the timeline lost its rows"
	}
	return ""
}

// retryHint matches the failure text's advice to press R.
var retryHint = regexp.MustCompile(`\bR\b.*retry`)

// TestTmuxFailedStart runs mcpscope on a command that does not exist: the screen explains
// the failure and how to retry, the program keeps running, and q quits.
func TestTmuxFailedStart(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, 100, 30, "--", "mcpscope-test-no-such-command")
	s := tm.waitFor("the connection failure and how to retry", func(s string) bool {
		return strings.Contains(s, "Connection failed") && retryHint.MatchString(s)
	})
	if !strings.Contains(s, "mcpscope-test-no-such-command") {
		t.Errorf("the failure does not name the command that could not start:\n%s", frame(s))
	}
	if _, exited := tm.exitCode(); exited {
		t.Fatalf("mcpscope exited after the failed start instead of showing it:\n%s", frame(s))
	}
	tm.quit()
}

// TestTmuxRecordThenOpen records a session with the demo server (--record), quits, and
// opens the recording: the same tools/list rows, read-only, and the detail of the response.
func TestTmuxRecordThenOpen(t *testing.T) {
	t.Parallel()
	rec := filepath.Join(t.TempDir(), "session.jsonl")
	tm := startTerm(t, 100, 30, "--record", rec)
	tm.waitFor(`status "ready", recording, with a tools/list response`, func(s string) bool {
		return ready(s) && strings.Contains(statusLine(s), "● rec") && listsAnswered(s)
	})
	tm.quit()

	op := startTerm(t, 100, 30, "open", rec)
	op.waitFor("the recording, read-only, with the handshake", func(s string) bool {
		return strings.Contains(statusLine(s), "recording session.jsonl (read-only)") && bodyHas(s, "server/discover", "req")
	})
	op.filter("method:tools/list")
	op.waitFor("the recorded tools/list rows", func(s string) bool {
		return bodyHas(s, "tools/list", "req") && bodyHas(s, "tools/list", "res") &&
			allRows(s, func(l string) bool { return strings.Contains(l, "tools/list") })
	})
	op.openFirstResponse("tools/list")
	op.waitFor("the recorded tools/list result as JSON", func(s string) bool {
		return bodyContains(s, `"tools"`) && bodyContains(s, `"jsonrpc"`)
	})
	op.quit()
}
