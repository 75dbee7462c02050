package cli_test

import (
	"bytes"
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

// TestTapFaults puts the tap with fault rules between a scripted host and the reference
// server: the host gets the error mcpscope answers in the server's place (and the server
// never sees that call), the tools/list answer late, no progress, a truncated ping answer;
// the answers no rule matched are the server's bytes; the recording holds each fault and
// the answer made by mcpscope.
func TestTapFaults(t *testing.T) {
	t.Parallel()
	node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
	bin := sessiontest.BuildMCPScope(t)
	rec := filepath.Join(t.TempDir(), "tap.jsonl")
	p := start(t, tapEnv(t), bin, "tap", "--quiet", "--record", rec,
		"--fault", "error=-32603 tool:=get-sum",
		"--fault", "delay=500ms method:=tools/list dir:in",
		"--fault", "drop method:=notifications/progress",
		"--fault", "corrupt=truncate method:=ping dir:in",
		"--", node, index, "stdio")
	s := hostScript
	p.write(s.initialize)
	p.waitResponse(1)
	p.write(s.initialized)
	sent := time.Now()
	p.write(s.listHead + s.listTail)
	p.waitResponse(2)
	if took := time.Since(sent); took < 500*time.Millisecond {
		t.Errorf("tools/list answered after %s, want at least the 500ms delay", took)
	}
	p.write(s.sum)
	p.waitResponse(3)
	p.write(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"trigger-long-running-operation","arguments":{"duration":0.3,"steps":3},"_meta":{"progressToken":"p5"}}}` + "\n")
	p.waitResponse(5)
	p.write(`{"jsonrpc":"2.0","id":6,"method":"ping"}` + "\n")
	p.wait(func() bool {
		return len(p.lines) > 0 && bytes.HasPrefix(p.lines[len(p.lines)-1], []byte("{")) && protocol.Decode(p.lines[len(p.lines)-1]).Kind == protocol.KindInvalid
	})
	if code := p.exit(); code != 0 {
		t.Errorf("exit status %d", code)
	}

	byID := map[string][]byte{}
	for _, l := range p.lines {
		f := protocol.Decode(l)
		if f.Method == "notifications/progress" {
			t.Errorf("a progress notification reached the host: %s", l)
		}
		if f.Kind.IsResponse() {
			byID[f.ID.String()] = l
		}
	}
	if got, want := string(byID["3"]), `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"injected by mcpscope"}}`; got != want {
		t.Errorf("the host got %s for the get-sum call, want %s", got, want)
	}

	r, err := recordings.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	es, _ := r.Events()
	var notes []string
	var viaUs, progress int
	recorded := map[string][]byte{} // the server's own answers, as recorded
	for _, e := range es {
		ev := e.Event
		switch {
		case ev.Kind == session.EvTransport && ev.Note == fault.NoteKind:
			notes = append(notes, ev.Text[:strings.IndexByte(ev.Text, '\n')])
		case ev.Kind == session.EvFrame && ev.Recv.Via == fault.ViaMcpscope:
			viaUs++
			if ev.Dir != protocol.ServerToClient || ev.Frame.ID.String() != "3" {
				t.Errorf("the answer made by mcpscope is recorded as %s", ev.Summary())
			}
		case ev.Kind == session.EvFrame && ev.Frame.Method == "notifications/progress":
			progress++
		case ev.Kind == session.EvFrame && ev.Dir == protocol.ServerToClient && ev.Frame.Kind.IsResponse():
			recorded[ev.Frame.ID.String()] = ev.Frame.Raw
			if ev.Frame.ID.String() == "3" {
				t.Error("the server answered the get-sum call it should never have seen")
			}
		}
	}
	if viaUs != 1 || progress != 3 {
		t.Errorf("recorded %d answers by mcpscope (want 1) and %d progress notifications (want the 3 the server sent)", viaUs, progress)
	}
	want := []string{"delay 500ms (rule 2", "error: answered by mcpscope (rule 1", "dropped (rule 3", "dropped (rule 3",
		"dropped (rule 3", "corrupt truncate (rule 4"}
	if len(notes) != len(want) {
		t.Fatalf("fault notes:\n%s\nwant %d", strings.Join(notes, "\n"), len(want))
	}
	for i := range want {
		if !strings.HasPrefix(notes[i], want[i]) {
			t.Errorf("fault note %d: %s, want %s…", i, notes[i], want[i])
		}
	}
	for _, id := range []string{"1", "2", "5"} {
		if !bytes.Equal(byID[id], recorded[id]) {
			t.Errorf("answer %s reached the host as\n%.200s\nthe server sent\n%.200s", id, byID[id], recorded[id])
		}
	}
	if ping := recorded["6"]; len(ping) == 0 || string(p.lines[len(p.lines)-1]) != string(ping[:len(ping)/2]) {
		t.Errorf("the ping answer reached the host as %q, want the first half of %q", p.lines[len(p.lines)-1], ping)
	}
}

// TestTapFaultDisconnect: a disconnect rule on the host's messages closes the server's
// stdin in their place; the server ends, and the tap with it, the request unanswered.
func TestTapFaultDisconnect(t *testing.T) {
	t.Parallel()
	node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
	bin := sessiontest.BuildMCPScope(t)
	p := start(t, tapEnv(t), bin, "tap", "--quiet", "--no-record", "--fault", "disconnect method:=tools/list", "--", node, index, "stdio")
	p.write(hostScript.initialize)
	p.waitResponse(1)
	p.write(hostScript.initialized)
	p.write(hostScript.listHead + hostScript.listTail)
	p.wait(func() bool { return p.ended })
	for _, l := range p.lines {
		if f := protocol.Decode(l); f.Kind.IsResponse() && f.ID.String() == "2" {
			t.Errorf("tools/list was answered: %s", l)
		}
	}
}

// TestTapFaultSeed: with --seed, a rule's p= drops the same messages run after run; another
// seed drops others.
func TestTapFaultSeed(t *testing.T) {
	t.Parallel()
	bin := sessiontest.BuildMCPScope(t)
	answered := func(seed string) string {
		p := start(t, tapEnv(t), bin, "tap", "--quiet", "--no-record", "--seed", seed, "--fault", "drop dir:in method:=ping p=0.5", "--", bin, "demo")
		p.write(hostScript.initialize)
		p.waitResponse(1)
		p.write(hostScript.initialized)
		for id := 10; id < 42; id++ {
			p.write(`{"jsonrpc":"2.0","id":` + jsonInt(id) + `,"method":"ping"}` + "\n")
		}
		p.write(`{"jsonrpc":"2.0","id":99,"method":"tools/list"}` + "\n")
		p.waitResponse(99) // the host's messages are answered in order: every ping before it was
		p.exit()
		var got []byte
		for id := 10; id < 42; id++ {
			mark := byte('.')
			for _, l := range p.lines {
				if f := protocol.Decode(l); f.Kind.IsResponse() && f.ID.String() == jsonInt(id) {
					mark = 'x'
				}
			}
			got = append(got, mark)
		}
		return string(got)
	}
	a, b, c := answered("7"), answered("7"), answered("8")
	if a != b {
		t.Errorf("seed 7 twice:\n%s\n%s", a, b)
	}
	if a == c {
		t.Errorf("seeds 7 and 8 dropped the same pings: %s", a)
	}
	if n := strings.Count(a, "x"); n == 0 || n == len(a) {
		t.Errorf("p=0.5 answered %d of %d", n, len(a))
	}
}
