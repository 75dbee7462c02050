package cli_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// waitLimit bounds every wait for a condition in the tap tests.
const waitLimit = 60 * time.Second

// proc is a running program whose stdin the test writes, whose stdout it collects line by
// line and whose stderr it collects whole.
type proc struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser

	mu      sync.Mutex
	changed chan struct{} // closed and replaced whenever output arrives or the program ends
	out     bytes.Buffer  // stdout, exactly
	lines   [][]byte      // stdout lines without "\n"
	errOut  bytes.Buffer
	ended   bool
	code    int
}

// start runs name with args and env added to the environment.
func start(t *testing.T, env []string, name string, args ...string) *proc {
	t.Helper()
	p := &proc{t: t, changed: make(chan struct{})}
	p.cmd = exec.Command(name, args...)
	p.cmd.Env = append(os.Environ(), env...)
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var readers sync.WaitGroup
	readers.Add(2)
	go func() {
		defer readers.Done()
		br := bufio.NewReader(stdout)
		for {
			b, err := br.ReadBytes('\n')
			p.update(func() {
				p.out.Write(b)
				if len(b) > 0 && b[len(b)-1] == '\n' {
					p.lines = append(p.lines, bytes.Clone(b[:len(b)-1]))
				}
			})
			if err != nil {
				return
			}
		}
	}()
	go func() {
		defer readers.Done()
		buf := make([]byte, 4096)
		for {
			n, err := stderr.Read(buf)
			p.update(func() { p.errOut.Write(buf[:n]) })
			if err != nil {
				return
			}
		}
	}()
	go func() {
		readers.Wait()
		err := p.cmd.Wait()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
			if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				code = 128 + int(ws.Signal())
			}
		}
		p.update(func() { p.ended, p.code = true, code })
	}()
	t.Cleanup(func() {
		if !p.done() {
			p.cmd.Process.Kill()
			p.wait(func() bool { return p.ended })
		}
	})
	return p
}

func (p *proc) update(f func()) {
	p.mu.Lock()
	f()
	close(p.changed)
	p.changed = make(chan struct{})
	p.mu.Unlock()
}

// stderrText is what the process wrote on stderr so far.
func (p *proc) stderrText() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.errOut.String()
}

func (p *proc) done() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ended
}

// wait waits until cond (called with the lock held) holds, failing the test after waitLimit.
func (p *proc) wait(cond func() bool) {
	p.t.Helper()
	deadline := time.NewTimer(waitLimit)
	defer deadline.Stop()
	for {
		p.mu.Lock()
		ok, ch := cond(), p.changed
		p.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-deadline.C:
			p.mu.Lock()
			defer p.mu.Unlock()
			p.t.Fatalf("%s: condition not met within %s\nstdout:\n%.2000s\nstderr:\n%.2000s", p.cmd.Path, waitLimit, p.out.String(), p.errOut.String())
		}
	}
}

// waitStderr waits until stderr contains s.
func (p *proc) waitStderr(s string) {
	p.t.Helper()
	p.wait(func() bool { return strings.Contains(p.errOut.String(), s) })
}

// waitResponse waits for the stdout line answering id.
func (p *proc) waitResponse(id int) {
	p.t.Helper()
	seen := 0 // lines already looked at: a flood of large lines is decoded once, not once per change
	p.wait(func() bool {
		for ; seen < len(p.lines); seen++ {
			f := protocol.Decode(p.lines[seen])
			if f.Kind.IsResponse() && f.ID.String() == jsonInt(id) {
				return true
			}
		}
		return false
	})
}

// exit closes stdin and waits for the program to end; it returns its exit status.
func (p *proc) exit() int {
	p.t.Helper()
	p.stdin.Close()
	p.wait(func() bool { return p.ended })
	return p.code
}

func (p *proc) write(s string) {
	p.t.Helper()
	if _, err := io.WriteString(p.stdin, s); err != nil {
		p.t.Fatalf("write to %s: %v", p.cmd.Path, err)
	}
}

func jsonInt(i int) string { b, _ := json.Marshal(i); return string(b) }

// hostScript is what the scripted host writes, as the writes it makes: a line split across
// two writes and one with extra whitespace around it included.
var hostScript = struct {
	initialize, initialized, listHead, listTail, sum string
}{
	initialize:  `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"tap-test","version":"1"}}}` + "\n",
	initialized: `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n",
	listHead:    `{"jsonrpc":"2.0","id":2,"met`,
	listTail:    `hod":"tools/list"}` + "\n",
	sum:         "  \t" + `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get-sum","arguments":{"a":1,"b":2}}}` + " \t\n",
}

// drive plays hostScript against p, waiting for each answer before going on.
func drive(p *proc) int {
	s := hostScript
	p.write(s.initialize)
	p.waitResponse(1)
	p.write(s.initialized)
	p.write(s.listHead)
	p.write(s.listTail)
	p.waitResponse(2)
	p.write(s.sum)
	p.waitResponse(3)
	return p.exit()
}

// frames returns the recorded frames of one direction, in order.
func frames(t *testing.T, path string, dir protocol.Direction) [][]byte {
	t.Helper()
	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if len(r.Problems()) > 0 {
		t.Errorf("%s: %v", path, r.Problems())
	}
	es, bad := r.Events()
	if len(bad) > 0 {
		t.Errorf("%s: %v", path, bad)
	}
	var out [][]byte
	for _, e := range es {
		if e.Event.Kind == session.EvFrame && e.Event.Dir == dir {
			out = append(out, e.Event.Frame.Raw)
		}
	}
	return out
}

// tapEnv isolates a test's taps and default recordings in temporary directories.
func tapEnv(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	return []string{"XDG_RUNTIME_DIR=" + dir, "XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		recordings.TapDirEnv + "=" + filepath.Join(dir, "mcpscope")}
}

// TestTapStdioByteIdentity drives the reference server directly and through the tap with
// the same script: the tap forwards exactly what the recording holds in both directions,
// the answers are the same bytes as the direct ones, stderr and the exit status pass
// through.
func TestTapStdioByteIdentity(t *testing.T) {
	t.Parallel()
	tapByteIdentity(t)
}

// TestTapStdioByteIdentityWithRules is TestTapStdioByteIdentity with fault rules that
// match nothing the script sends: every byte still passes as it came.
func TestTapStdioByteIdentityWithRules(t *testing.T) {
	t.Parallel()
	tapByteIdentity(t, "--fault", "error=-32603 tool:=no-such-tool", "--fault", "drop method:=no/such/method p=1",
		"--fault", "corrupt=truncate dir:in id:999", "--seed", "3")
}

// tapByteIdentity is the byte identity check, with the tap given extra flags.
func tapByteIdentity(t *testing.T, flags ...string) {
	node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
	bin := sessiontest.BuildMCPScope(t)
	env := tapEnv(t)
	rec := filepath.Join(t.TempDir(), "tap.jsonl")

	direct := start(t, env, node, index, "stdio")
	directCode := drive(direct)
	args := append(append([]string{"tap", "--quiet", "--record", rec}, flags...), "--", node, index, "stdio")
	tapped := start(t, env, bin, args...)
	tappedCode := drive(tapped)

	if directCode != 0 || tappedCode != directCode {
		t.Errorf("exit status: direct %d, through the tap %d", directCode, tappedCode)
	}
	if got, want := tapped.errOut.String(), direct.errOut.String(); got != want || want == "" {
		t.Errorf("stderr through the tap %q, direct %q", got, want)
	}
	// What the host received is exactly the server→client frames recorded, newline-ended.
	var fromServer bytes.Buffer
	for _, f := range frames(t, rec, protocol.ServerToClient) {
		fromServer.Write(f)
		fromServer.WriteByte('\n')
	}
	if !bytes.Equal(tapped.out.Bytes(), fromServer.Bytes()) {
		t.Errorf("stdout through the tap differs from the recorded frames:\n%q\nrecorded:\n%q", tapped.out.Bytes(), fromServer.Bytes())
	}
	// What the host wrote is exactly the client→server frames recorded.
	s := hostScript
	want := []string{s.initialize, s.initialized, s.listHead + s.listTail, s.sum}
	got := frames(t, rec, protocol.ClientToServer)
	if len(got) != len(want) {
		t.Fatalf("recorded %d client frames, want %d: %q", len(got), len(want), got)
	}
	for i := range want {
		if string(got[i])+"\n" != want[i] {
			t.Errorf("client frame %d recorded as %q, written as %q", i, got[i], want[i])
		}
	}
	// The server's answers are the same bytes either way; the other lines are the same set.
	answers := func(p *proc) (map[string]string, []string) {
		byID := map[string]string{}
		var rest []string
		for _, l := range p.lines {
			if f := protocol.Decode(l); f.Kind.IsResponse() {
				byID[f.ID.String()] = string(l)
			} else {
				rest = append(rest, string(l))
			}
		}
		return byID, rest
	}
	dIDs, dRest := answers(direct)
	tIDs, tRest := answers(tapped)
	for _, id := range []string{"1", "2", "3"} {
		if dIDs[id] == "" || dIDs[id] != tIDs[id] {
			t.Errorf("answer to %s through the tap:\n%.300s\ndirect:\n%.300s", id, tIDs[id], dIDs[id])
		}
	}
	if strings.Join(sortedCopy(dRest), "\n") != strings.Join(sortedCopy(tRest), "\n") {
		t.Errorf("other server lines through the tap %q, direct %q", tRest, dRest)
	}
	// The recording pairs the answer with its request and ends with the exit.
	r, err := recordings.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	es, _ := r.Events()
	last := es[len(es)-1].Event
	if last.Kind != session.EvExit || last.Exit.Code != 0 {
		t.Errorf("last recorded event %s, want exit status 0", last.Summary())
	}
	var sawSum, sawStderr bool
	for _, e := range es {
		ev := e.Event
		if ev.Kind == session.EvFrame && ev.Dir == protocol.ServerToClient && ev.Corr.Method == "tools/call" && ev.Corr.RequestSeq > 0 {
			sawSum = true
		}
		if ev.Kind == session.EvStderr && ev.Text != "" && strings.Contains(direct.errOut.String(), ev.Text) {
			sawStderr = true
		}
	}
	if !sawSum || !sawStderr {
		t.Errorf("recording: tools/call answer paired %v, stderr line recorded %v", sawSum, sawStderr)
	}
	if h := r.Header(); h.Transport != "stdio" || !strings.Contains(h.Server, "index.js stdio") {
		t.Errorf("header %+v", h)
	}
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// TestTapExitStatus checks that the server's exit status passes through the tap: its own
// code, and 128+n when a signal forwarded by the tap ends it.
func TestTapExitStatus(t *testing.T) {
	bin, bad := sessiontest.BuildMCPScope(t), sessiontest.BuildBadServer(t)
	env := tapEnv(t)
	dir := t.TempDir()

	crashRec := filepath.Join(dir, "crash.jsonl")
	p := start(t, env, bin, "tap", "--record", crashRec, "--name", "crash", "--", bad)
	p.waitStderr("badserver: ready")
	p.write(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"crash","arguments":{}}}` + "\n")
	p.wait(func() bool { return p.ended })
	if p.code != 3 || !strings.Contains(p.errOut.String(), "badserver: crashing with code 3\n") {
		t.Errorf("crash through the tap: exit %d, stderr:\n%s", p.code, p.errOut.String())
	}
	if p.out.Len() != 0 {
		t.Errorf("crash through the tap wrote on stdout: %q", p.out.String())
	}
	checkExit := func(path string, code int, signal string) {
		t.Helper()
		r, err := recordings.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		e, err := r.Event(r.Len() - 1)
		if err != nil {
			t.Fatal(err)
		}
		if e.Kind != session.EvExit || e.Exit.Code != code || e.Exit.Signal != signal {
			t.Errorf("%s: last event %s, want exit %d %q", path, e.Summary(), code, signal)
		}
	}
	checkExit(crashRec, 3, "")

	termRec := filepath.Join(dir, "term.jsonl")
	p = start(t, env, bin, "tap", "--record", termRec, "--name", "term", "--", bad)
	p.waitStderr("badserver: ready")
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	p.wait(func() bool { return p.ended })
	if p.code != 128+int(syscall.SIGTERM) {
		t.Errorf("SIGTERM to the tap: exit %d, want %d; stderr:\n%s", p.code, 128+int(syscall.SIGTERM), p.errOut.String())
	}
	checkExit(termRec, -1, "terminated")
}

// TestTapWithoutDashDash starts the server from the first word that is not a flag of tap, as
// when a host's argument parser ate the "--": the demo server answers through the tap, the
// server's own flags reach it, and a later "--" is passed on to the server.
func TestTapWithoutDashDash(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	env := tapEnv(t)
	dir := t.TempDir()

	rec := filepath.Join(dir, "demo.jsonl")
	p := start(t, env, bin, "tap", "--record", rec, "--name", "nodash", bin, "--grace", "1s", "demo")
	p.write(hostScript.initialize)
	p.waitResponse(1)
	if code := p.exit(); code != 0 {
		t.Fatalf("tap BIN demo: exit %d, stderr:\n%s", code, p.errOut.String())
	}
	r, err := recordings.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	server := r.Header().Server
	r.Close()
	if !strings.Contains(server, "--grace 1s demo") {
		t.Errorf("recorded server %q, want the whole command with its flags", server)
	}

	script := `echo "args: $*" >&2; exit 4`
	p = start(t, env, bin, "tap", "--no-record", "sh", "-c", script, "--", "a", "-b")
	p.wait(func() bool { return p.ended })
	if p.code != 4 || !strings.Contains(p.errOut.String(), "args: a -b\n") {
		t.Errorf("tap sh -c SCRIPT -- a -b: exit %d, stderr:\n%s", p.code, p.errOut.String())
	}
}
