package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestTapBreakpoints drives a stdio tap's breakpoints through its viewer socket, as
// attach does, between a scripted host and the reference server: the server's answer to
// tools/list is held and forwarded edited (the host gets the edited bytes), the host's
// get-sum call is held and answered with an error in the server's place (the server never
// sees it), and a ping held when the viewer goes away is forwarded as it came; the
// recording says each.
func TestTapBreakpoints(t *testing.T) {
	env := tapEnv(t)
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v) // this process dials the tap
	}
	node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
	bin := sessiontest.BuildMCPScope(t)
	rec := filepath.Join(t.TempDir(), "break.jsonl")
	p := start(t, env, bin, "tap", "--quiet", "--record", rec, "--name", "ctl", "--", node, index, "stdio")
	var l *recordings.Live
	deadline := time.Now().Add(waitLimit)
	for l == nil {
		var err error
		if l, err = recordings.Dial("ctl"); err != nil {
			if time.Now().After(deadline) {
				t.Fatal(err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	notes := make(chan string, 64)
	go func() {
		for {
			e, err := l.Next()
			if err != nil {
				close(notes)
				return
			}
			if e.Event.Kind == session.EvTransport && e.Event.Note == fault.HoldNoteKind {
				notes <- e.Event.Text
			}
		}
	}()
	waitNote := func(prefix string) {
		t.Helper()
		for {
			select {
			case n, ok := <-notes:
				if !ok {
					t.Fatalf("the tap's stream ended before a note %q", prefix)
				}
				if strings.HasPrefix(n, prefix) {
					return
				}
			case <-time.After(waitLimit):
				t.Fatalf("no note %q", prefix)
			}
		}
	}
	bps := l.Breakpoints()

	p.write(hostScript.initialize)
	p.waitResponse(1)
	p.write(hostScript.initialized)
	if _, err := bps.Add("method:=tools/list dir:in"); err != nil {
		t.Fatal(err)
	}
	waitNote("breakpoints from the viewer: method:=tools/list dir:in")
	p.write(hostScript.listHead + hostScript.listTail)
	waitNote("held #1 by breakpoint method:=tools/list dir:in")
	held := bps.Held()
	if len(held) != 1 || held[0].Dir != protocol.ServerToClient || held[0].Method != "tools/list" || held[0].Request {
		t.Fatalf("held %+v", held)
	}
	edited := `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`
	if err := bps.Decide(held[0].ID, fault.Decision{Verb: fault.Forward, Raw: []byte(edited)}); err != nil {
		t.Fatal(err)
	}
	p.waitResponse(2)
	if got := string(p.lines[len(p.lines)-1]); got != edited {
		t.Errorf("the host got %s, want the edited answer %s", got, edited)
	}

	bps.Enable(1, false)
	if _, err := bps.Add("tool:=get-sum"); err != nil {
		t.Fatal(err)
	}
	waitNote("breakpoints from the viewer: method:=tools/list dir:in (off), tool:=get-sum")
	p.write(hostScript.sum)
	waitNote("held #2 by breakpoint tool:=get-sum")
	held = bps.Held()
	if len(held) != 1 || !held[0].Request {
		t.Fatalf("held %+v", held)
	}
	answer, _ := protocol.EncodeError(held[0].MsgID, -32000, "answered at a breakpoint", nil)
	if err := bps.Decide(held[0].ID, fault.Decision{Verb: fault.Answer, Raw: answer}); err != nil {
		t.Fatal(err)
	}
	p.waitResponse(3)
	if got := string(p.lines[len(p.lines)-1]); got != string(answer) {
		t.Errorf("the host got %s, want %s", got, answer)
	}

	// A second viewer's breakpoints are not the tap's while the first controls them.
	other, err := recordings.Dial("ctl")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Breakpoints().Add("method:=resources/list"); err != nil {
		t.Fatal(err)
	}
	waitNote("another viewer's breakpoints ignored")
	other.Close()

	if _, err := bps.Add("method:=ping"); err != nil {
		t.Fatal(err)
	}
	waitNote("breakpoints from the viewer:")
	p.write(`{"jsonrpc":"2.0","id":9,"method":"ping"}` + "\n")
	waitNote("held #3 by breakpoint method:=ping")
	l.Close() // the viewer goes away: the tap forwards the ping as it came
	p.waitResponse(9)
	if code := p.exit(); code != 0 {
		t.Errorf("tap: exit %d", code)
	}

	r, err := recordings.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	es, _ := r.Events()
	var got []string
	madeAnswer := false
	for _, e := range es {
		ev := e.Event
		if ev.Kind == session.EvTransport && ev.Note == fault.HoldNoteKind {
			first, _, _ := strings.Cut(ev.Text, "\n")
			got = append(got, first)
		}
		if ev.Kind == session.EvFrame && ev.Dir == protocol.ServerToClient && ev.Frame.ID.String() == "3" {
			if ev.Recv.Via != fault.ViaMcpscope {
				t.Errorf("the server answered the call held and answered at the breakpoint: %s", ev.Frame.Raw)
			}
			madeAnswer = true
		}
	}
	if !madeAnswer {
		t.Error("the answer made at the breakpoint is not recorded as a frame made by mcpscope")
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{"held #1 forwarded after", ", edited", "held #2 answered by mcpscope after",
		"the viewer that set breakpoints went away: 3 breakpoint(s) removed, 1 held message(s) forwarded as they came"} {
		if !strings.Contains(all, want) {
			t.Errorf("the recording's hold notes lack %q:\n%s", want, all)
		}
	}
}
