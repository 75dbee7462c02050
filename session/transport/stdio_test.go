//go:build unix

package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`

func TestStdioBannerAndHandshake(t *testing.T) {
	tr, sink := startBadserver(t, StdioOptions{Args: []string{"-banner"}})
	if tr.Name() != "stdio" {
		t.Errorf("Name = %q", tr.Name())
	}
	send(t, tr, initialize)
	send(t, tr, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(t, tr, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	frames := sink.waitFrames(t, 3)

	const banner = "badserver 0.1 starting up (this line is not JSON)"
	if got := string(frames[0].raw); got != banner {
		t.Errorf("first frame = %q, want the banner %q", got, banner)
	}
	want := RecvInfo{Via: "stdout", Size: int64(len(banner))}
	if frames[0].info != want {
		t.Errorf("banner info = %+v, want %+v", frames[0].info, want)
	}
	var init struct {
		ID     int `json:"id"`
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if err := json.Unmarshal(frames[1].raw, &init); err != nil || init.ID != 1 || init.Result.ProtocolVersion != "2025-06-18" {
		t.Errorf("initialize answer %s (%v)", frames[1].raw, err)
	}
	if got := string(frames[2].raw); got != `{"id":2,"jsonrpc":"2.0","result":{}}` {
		t.Errorf("ping answer %s", got)
	}

	_, stderr, notes, _ := sink.snapshot()
	if len(stderr) == 0 || stderr[0] != "badserver: ready" {
		t.Errorf("stderr = %q, want badserver: ready first", stderr)
	}
	wantSpawn := "pid " + strconv.Itoa(tr.Pid()) + ": "
	if len(notes) == 0 || notes[0].Kind != "spawn" || !strings.HasPrefix(notes[0].Text, wantSpawn) ||
		!strings.HasSuffix(notes[0].Text, "badserver -banner") {
		t.Errorf("notes = %+v, want a spawn note with pid %d and the command line", notes, tr.Pid())
	}
}

func TestStdioMisbehavingTools(t *testing.T) {
	tests := []struct {
		tool  string
		n     int // frames expected
		check func(t *testing.T, f []frame)
	}{
		{"split", 1, func(t *testing.T, f []frame) {
			if !json.Valid(f[0].raw) || !bytes.Contains(f[0].raw, []byte(`"id":7`)) {
				t.Errorf("split frame not whole: %s", f[0].raw)
			}
		}},
		{"badutf8", 1, func(t *testing.T, f []frame) {
			if !bytes.Contains(f[0].raw, []byte("bad \xff\xfe \xc3\x28 bytes")) {
				t.Errorf("invalid UTF-8 not preserved: %q", f[0].raw)
			}
		}},
		{"unknownid", 2, func(t *testing.T, f []frame) {
			if !bytes.Contains(f[0].raw, []byte(`"nobody-asked-for-this"`)) || !bytes.Contains(f[1].raw, []byte(`"id":7`)) {
				t.Errorf("frames %q %q", f[0].raw, f[1].raw)
			}
		}},
		{"duplicate", 2, func(t *testing.T, f []frame) {
			if !bytes.Equal(f[0].raw, f[1].raw) {
				t.Errorf("duplicate differs: %q %q", f[0].raw, f[1].raw)
			}
		}},
		{"resulterror", 1, func(t *testing.T, f []frame) {
			if !bytes.Contains(f[0].raw, []byte(`"result"`)) || !bytes.Contains(f[0].raw, []byte(`"error"`)) {
				t.Errorf("frame %s", f[0].raw)
			}
		}},
		{"notjson", 2, func(t *testing.T, f []frame) {
			if string(f[0].raw) != "}{ this is not json" || !json.Valid(f[1].raw) {
				t.Errorf("frames %q %q", f[0].raw, f[1].raw)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			tr, sink := startBadserver(t, StdioOptions{})
			send(t, tr, callTool(7, tt.tool))
			// A ping after the tool proves nothing more arrives for it.
			send(t, tr, `{"jsonrpc":"2.0","id":8,"method":"ping"}`)
			f := sink.waitFrames(t, tt.n+1)
			if len(f) != tt.n+1 || !bytes.Contains(f[tt.n].raw, []byte(`"id":8`)) {
				t.Fatalf("got %d frames, want %d then the ping answer", len(f), tt.n)
			}
			for _, fr := range f {
				if fr.info.Truncated || fr.info.Unterminated || fr.info.Size != int64(len(fr.raw)) {
					t.Errorf("frame info %+v for %d bytes", fr.info, len(fr.raw))
				}
			}
			tt.check(t, f)
		})
	}
}

func TestStdioHugeLine(t *testing.T) {
	// With the default limit the 20 MB line arrives whole.
	tr, sink := startBadserver(t, StdioOptions{})
	send(t, tr, callTool(3, "huge"))
	whole := sink.waitFrames(t, 1)[0]
	if whole.info.Truncated || whole.info.Size != int64(len(whole.raw)) || len(whole.raw) < 20<<20 || !json.Valid(whole.raw) {
		t.Fatalf("huge frame: %d bytes, info %+v", len(whole.raw), whole.info)
	}

	// Over a 1 MiB limit it arrives as its head, with its real size, and reading goes on.
	tr, sink = startBadserver(t, StdioOptions{MaxLine: 1 << 20})
	send(t, tr, callTool(3, "huge"))
	send(t, tr, callTool(4, "echo"))
	f := sink.waitFrames(t, 2)
	want := RecvInfo{Via: "stdout", Size: whole.info.Size, Truncated: true}
	if f[0].info != want {
		t.Errorf("truncated info = %+v, want %+v", f[0].info, want)
	}
	if len(f[0].raw) != TruncatedHead || !bytes.HasPrefix(whole.raw, f[0].raw) {
		t.Errorf("truncated head: %d bytes, prefix of the whole line: %v", len(f[0].raw), bytes.HasPrefix(whole.raw, f[0].raw))
	}
	if f[1].info.Truncated || !bytes.Contains(f[1].raw, []byte(`"id":4`)) {
		t.Errorf("frame after the huge one: %s %+v", f[1].raw, f[1].info)
	}
}

func TestStdioLineEdges(t *testing.T) {
	// A "\r" stays, empty lines are frames, and a last line without newline is Unterminated.
	tr, sink := startStdio(t, StdioOptions{Command: "sh", Args: []string{"-c",
		`printf 'one\r\n\n' ; printf 'err one\nerr two' >&2 ; printf 'last'`}})
	ex := sink.waitExit(t)
	f, stderr, _, _ := sink.snapshot()
	got := make([]string, len(f))
	for i, fr := range f {
		got[i] = strconv.Quote(string(fr.raw))
	}
	if strings.Join(got, " ") != `"one\r" "" "last"` {
		t.Fatalf("frames %v", got)
	}
	if f[1].info.Size != 0 || f[2].info != (RecvInfo{Via: "stdout", Size: 4, Unterminated: true}) {
		t.Errorf("infos %+v %+v", f[1].info, f[2].info)
	}
	if f[0].info.Unterminated {
		t.Errorf("first line marked unterminated")
	}
	if strings.Join(stderr, "|") != "err one|err two" {
		t.Errorf("stderr %q", stderr)
	}
	if ex.Code != 0 || ex.Signal != "" || ex.ByUs || strings.Join(ex.LastStderr, "|") != "err one|err two" {
		t.Errorf("exit %+v", ex)
	}
	if err := tr.Send(t.Context(), Outgoing{Raw: []byte("{}")}); err == nil {
		t.Errorf("Send after exit succeeded")
	}
}

func TestStdioCrash(t *testing.T) {
	tr, sink := startBadserver(t, StdioOptions{})
	send(t, tr, callTool(5, "crash"))
	ex := sink.waitExit(t)
	if ex.Code != 3 || ex.Signal != "" || ex.ByUs {
		t.Errorf("exit %+v, want code 3 not by us", ex)
	}
	last := strings.Join(ex.LastStderr, "\n")
	if !strings.HasSuffix(last, "badserver: something went badly wrong\nbadserver: crashing with code 3") {
		t.Errorf("LastStderr %q", ex.LastStderr)
	}
	if n := sink.frameCount(); n != 0 {
		t.Errorf("%d frames from a crash", n)
	}
	err := tr.Send(t.Context(), Outgoing{Raw: []byte(callTool(6, "echo"))})
	if err == nil {
		t.Errorf("Send to a dead process succeeded")
	}
	if !processGone(tr.Pid()) {
		t.Errorf("pid %d still exists after Exited", tr.Pid())
	}
}

func TestStdioClose(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		signal string
		code   int
	}{
		{"stdin", nil, "", 0},
		{"sigterm", []string{"-ignore-stdin-close"}, "terminated", -1},
		{"sigkill", []string{"-ignore-stdin-close", "-ignore-sigterm"}, "killed", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const grace = 300 * time.Millisecond
			tr, sink := startBadserver(t, StdioOptions{Args: tt.args, Grace: grace})
			send(t, tr, callTool(1, "echo"))
			sink.waitFrames(t, 1)

			start := time.Now()
			if err := tr.Close(t.Context()); err != nil {
				t.Fatalf("Close: %v", err)
			}
			took := time.Since(start)
			_, _, _, exits := sink.snapshot()
			if len(exits) != 1 {
				t.Fatalf("Close returned with %d exits reported", len(exits))
			}
			ex := exits[0]
			if ex.Signal != tt.signal || ex.Code != tt.code || !ex.ByUs {
				t.Errorf("exit %+v, want signal %q code %d by us", ex, tt.signal, tt.code)
			}
			if limit := 2*grace + 5*time.Second; took > limit {
				t.Errorf("Close took %v", took)
			}
			if tt.signal == "" && took >= grace {
				t.Errorf("Close waited %v for a server that exits on stdin close", took)
			}
			if !processGone(tr.Pid()) {
				t.Errorf("pid %d still exists after Close", tr.Pid())
			}
			if err := tr.Close(t.Context()); err != nil {
				t.Errorf("second Close: %v", err)
			}
			if err := tr.Send(t.Context(), Outgoing{Raw: []byte("{}")}); !errors.Is(err, ErrClosed) {
				t.Errorf("Send after Close: %v", err)
			}
		})
	}
}

func TestStdioCloseContextKills(t *testing.T) {
	tr, sink := startBadserver(t, StdioOptions{Args: []string{"-ignore-stdin-close", "-ignore-sigterm"}, Grace: time.Hour})
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	if err := tr.Close(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Close = %v, want the deadline error", err)
	}
	if ex := sink.waitExit(t); ex.Signal != "killed" || !ex.ByUs {
		t.Errorf("exit %+v", ex)
	}
}

func TestStdioSpawnFailure(t *testing.T) {
	tests := []struct{ command, want string }{
		{"mcpscope-test-no-such-command", "start mcpscope-test-no-such-command: exec: \"mcpscope-test-no-such-command\": executable file not found in $PATH"},
		{"./no/such/server", "no such file or directory"},
	}
	for _, tt := range tests {
		tr := NewStdio(StdioOptions{Command: tt.command})
		sink := newRecSink()
		err := tr.Start(t.Context(), sink)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "start "+tt.command+": ") {
			t.Errorf("Start(%s) = %v, want %q", tt.command, err, tt.want)
		}
		if err := tr.Close(t.Context()); err != nil {
			t.Errorf("Close after failed Start: %v", err)
		}
		if f, e, n, x := sink.snapshot(); len(f)+len(e)+len(n)+len(x) != 0 {
			t.Errorf("sink got calls after a failed Start: %v %v %v %v", f, e, n, x)
		}
	}
}

func TestStdioNoLeaks(t *testing.T) {
	path := badserver(t)
	base := runtime.NumGoroutine()
	tr := NewStdio(StdioOptions{Command: path, Grace: 300 * time.Millisecond, Args: []string{"-ignore-stdin-close"}})
	sink := newRecSink()
	if err := tr.Start(t.Context(), sink); err != nil {
		t.Fatal(err)
	}
	send(t, tr, callTool(1, "echo"))
	sink.waitFrames(t, 1)
	if err := tr.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, "goroutines back to "+strconv.Itoa(base), func() bool { return runtime.NumGoroutine() <= base })
	if err := syscall.Kill(tr.Pid(), 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("kill(%d, 0) after Close = %v, want ESRCH", tr.Pid(), err)
	}
	sink.checkClean(t)
}

func TestStdioKillsProcessGroup(t *testing.T) {
	// The shell ignores stdin and waits for its child, so only a signal to the group ends
	// both.
	tr, sink := startStdio(t, StdioOptions{Command: "sh", Grace: 200 * time.Millisecond,
		Args: []string{"-c", "sleep 60 & echo $!; wait"}})
	f := sink.waitFrames(t, 1)
	child, err := strconv.Atoi(string(f[0].raw))
	if err != nil {
		t.Fatalf("child pid line %q", f[0].raw)
	}
	if err := tr.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if ex := sink.waitExit(t); ex.Signal != "terminated" || !ex.ByUs {
		t.Errorf("exit %+v", ex)
	}
	waitGone(t, child)
}

func TestStdioDescendantHoldsStdout(t *testing.T) {
	// The shell exits at once; its background child ignores the SIGTERM that what the
	// server leaves behind gets, and keeps stdout open. The transport stops reading after
	// its drain timeout, well before the grace period ends, kills the child and reports
	// the exit.
	_, sink := startStdio(t, StdioOptions{Command: "sh", Grace: time.Minute,
		Args: []string{"-c", "trap '' TERM; sleep 60 & echo $!"}})
	ex := sink.waitExit(t)
	if ex.Code != 0 || ex.ByUs {
		t.Errorf("exit %+v", ex)
	}
	f, _, notes, _ := sink.snapshot()
	if len(f) != 1 {
		t.Fatalf("frames %v", f)
	}
	child, err := strconv.Atoi(string(f[0].raw))
	if err != nil {
		t.Fatalf("child pid line %q", f[0].raw)
	}
	found := false
	for _, n := range notes {
		found = found || n.Kind == "stream-end" && strings.Contains(n.Text, "stdout still open")
	}
	if !found {
		t.Errorf("no stream-end note in %+v", notes)
	}
	waitGone(t, child)
}

func TestStdioSendHonoursContext(t *testing.T) {
	tr, sink := startBadserver(t, StdioOptions{Grace: 200 * time.Millisecond})
	send(t, tr, callTool(1, "deaf"))
	// The server no longer reads: a write larger than the pipe buffer must block, and give up
	// when its context ends.
	big := `{"jsonrpc":"2.0","method":"x","params":{"pad":"` + strings.Repeat("p", 8<<20) + `"}}`
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := tr.Send(ctx, Outgoing{Raw: []byte(big)})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Send = %v, want the context's deadline error", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Send took %v to notice its context", took)
	}
	// Half a line is on stdin now; anything more would be corrupt.
	if err := tr.Send(t.Context(), Outgoing{Raw: []byte("{}")}); err == nil {
		t.Errorf("Send after a cut-short write succeeded")
	}
	if err := tr.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if ex := sink.waitExit(t); ex.Signal != "terminated" {
		t.Errorf("exit %+v", ex)
	}
}

func TestStdioEnvAndDir(t *testing.T) {
	dir := t.TempDir()
	_, sink := startStdio(t, StdioOptions{Command: "sh", Dir: dir, Env: []string{"MCPSCOPE_TEST_VAR=hello world"},
		Args: []string{"-c", `echo "$MCPSCOPE_TEST_VAR"; pwd -P`}})
	sink.waitExit(t)
	f, _, _, _ := sink.snapshot()
	real, err := exec.Command("sh", "-c", "cd "+strconv.Quote(dir)+" && pwd -P").Output()
	if err != nil {
		t.Fatal(err)
	}
	if len(f) != 2 || string(f[0].raw) != "hello world" || string(f[1].raw) != strings.TrimSpace(string(real)) {
		t.Errorf("frames %v, want the variable then %s", f, real)
	}
}

func TestCommandLine(t *testing.T) {
	got := commandLine("npx", []string{"-y", "@scope/server", "a b", "it's", ""})
	if want := `npx -y @scope/server 'a b' 'it'\''s' ''`; got != want {
		t.Errorf("commandLine = %s, want %s", got, want)
	}
}

func TestStdioMaxLineBoundary(t *testing.T) {
	_, sink := startStdio(t, StdioOptions{Command: "sh", MaxLine: 10,
		Args: []string{"-c", `printf '0123456789\n01234567890\nok\n0123456789abc'`}})
	sink.waitExit(t)
	f, _, _, _ := sink.snapshot()
	want := []frame{
		{[]byte("0123456789"), RecvInfo{Via: "stdout", Size: 10}},
		{[]byte("0123456789"), RecvInfo{Via: "stdout", Size: 11, Truncated: true}},
		{[]byte("ok"), RecvInfo{Via: "stdout", Size: 2}},
		{[]byte("0123456789"), RecvInfo{Via: "stdout", Size: 13, Truncated: true, Unterminated: true}},
	}
	if len(f) != len(want) {
		t.Fatalf("got %d frames, want %d: %v", len(f), len(want), f)
	}
	for i := range want {
		if !bytes.Equal(f[i].raw, want[i].raw) || f[i].info != want[i].info {
			t.Errorf("frame %d = %q %+v, want %q %+v", i, f[i].raw, f[i].info, want[i].raw, want[i].info)
		}
	}
}

func TestStdioLongStderr(t *testing.T) {
	// A line longer than StderrChunk arrives in pieces; one that fills a piece exactly leaves
	// no empty piece behind.
	script := `head -c 65546 /dev/zero | tr '\0' a >&2; echo >&2; head -c 65536 /dev/zero | tr '\0' b >&2; echo >&2; echo end >&2`
	_, sink := startStdio(t, StdioOptions{Command: "sh", Args: []string{"-c", script}})
	ex := sink.waitExit(t)
	_, stderr, _, _ := sink.snapshot()
	want := []string{strings.Repeat("a", StderrChunk), "aaaaaaaaaa", strings.Repeat("b", StderrChunk), "end"}
	if len(stderr) != len(want) {
		t.Fatalf("got %d stderr pieces, want %d", len(stderr), len(want))
	}
	for i := range want {
		if stderr[i] != want[i] {
			t.Errorf("piece %d: %d bytes %.12q…, want %d bytes %.12q…", i, len(stderr[i]), stderr[i], len(want[i]), want[i])
		}
	}
	if len(ex.LastStderr) != len(want) || ex.LastStderr[3] != "end" {
		t.Errorf("LastStderr has %d lines", len(ex.LastStderr))
	}
}
