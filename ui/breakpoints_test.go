package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/transport"
)

// wireTransport is a transport that records what reaches the server.
type wireTransport struct{ sent [][]byte }

func (w *wireTransport) Name() string                                { return "test" }
func (w *wireTransport) Start(context.Context, transport.Sink) error { return nil }
func (w *wireTransport) Close(context.Context) error                 { return nil }
func (w *wireTransport) Send(_ context.Context, m transport.Outgoing) error {
	w.sent = append(w.sent, m.Raw)
	return nil
}

// wireSink records what reaches the session: frames, and the notes as events for the view.
type wireSink struct {
	frames [][]byte
	notes  []transport.Note
}

func (s *wireSink) Received(raw []byte, _ transport.RecvInfo) { s.frames = append(s.frames, raw) }
func (s *wireSink) Stderr([]byte)                             {}
func (s *wireSink) HTTP(*transport.HTTPExchange)              {}
func (s *wireSink) Note(n transport.Note)                     { s.notes = append(s.notes, n) }
func (s *wireSink) Exited(transport.ExitInfo)                 {}

// decide runs a command a held message's key returned and gives the model its outcome.
func decide(t *testing.T, m *Model, cmd tea.Cmd) {
	t.Helper()
	var run func(tea.Cmd) bool
	run = func(c tea.Cmd) bool {
		if c == nil {
			return false
		}
		switch msg := c().(type) {
		case holdDecidedMsg:
			m.Update(msg)
			return true
		case tea.BatchMsg:
			for _, c := range msg {
				if run(c) {
					return true
				}
			}
		}
		return false
	}
	if !run(cmd) {
		t.Fatal("no decision was made")
	}
}

// TestBreakpointsByHand: b on a tools/call row sets a breakpoint on its tool; a matching
// call is held and the hold dialog shows it, counted in the status line; edited, it is
// flagged when not JSON-RPC and sent on the second ctrl+s; x answers a held request with
// an error in the server's place; B lists the breakpoints, adds one (a bad query refused
// with its column), turns one off.
func TestBreakpointsByHand(t *testing.T) {
	bps := fault.NewBreakpoints()
	m := newTimelineModel(t, Options{Breakpoints: bps}, 120, 30)
	wi := newEvWire()
	row := wi.req(dirOut, 1, "tools/call", `{"name":"echo","arguments":{"text":"as typed"}}`)
	feedEvents(m, row)
	pressKey(m, "b")
	if l := bps.List(); len(l) != 1 || l[0].Query != "tool:=echo" || !l[0].Enabled {
		t.Fatalf("breakpoints after b: %+v", l)
	}

	inner, sink := &wireTransport{}, &wireSink{}
	tr := fault.WrapBreaking(inner, nil, bps)
	tr.Start(context.Background(), sink)
	hold := func(raw []byte) {
		t.Helper()
		n := len(sink.notes)
		tr.Send(context.Background(), transport.Outgoing{Raw: raw, IsRequest: true})
		for _, note := range sink.notes[n:] {
			feedEvents(m, wi.ev(time.Millisecond, &session.Event{Kind: session.EvTransport, Note: note.Kind, Text: note.Text}))
		}
	}
	hold(row.Frame.Raw)
	d := dialogOf[*holdDialog](m)
	if d == nil || len(inner.sent) != 0 {
		t.Fatalf("hold dialog %v, sent %q", d, inner.sent)
	}
	m.timeline.Now = time.Now().Add(3 * time.Second)
	screen := ansi.Strip(m.View().Content)
	for _, want := range []string{"Held #1  out request tools/call #1", "held 3s", "breakpoint tool:=echo", `"text": "as typed"`, "1 held"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen lacks %q:\n%s", want, screen)
		}
	}

	pressKey(m, "e")
	d.editor.SetValue(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"as edited"}}`)
	if cmd, _ := m.Update(keyMsg("ctrl+s")); cmd != nil && len(inner.sent) != 0 {
		t.Fatal("the unfinished edit was sent at once")
	}
	if !strings.Contains(d.problem, "flagged") {
		t.Errorf("an unfinished edit is not flagged: %q", d.problem)
	}
	d.editor.SetValue(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"as edited"}}}`)
	_, cmd := m.Update(keyMsg("ctrl+s"))
	decide(t, m, cmd)
	if len(inner.sent) != 1 || !strings.Contains(string(inner.sent[0]), "as edited") || dialogOf[*holdDialog](m) != nil || len(m.brk.held) != 0 {
		t.Errorf("after ctrl+s: sent %q, dialog open %v", inner.sent, dialogOf[*holdDialog](m) != nil)
	}

	hold(wi.req(dirOut, 2, "tools/call", `{"name":"echo","arguments":{}}`).Frame.Raw)
	decide(t, m, pressKey(m, "x"))
	if len(sink.frames) != 1 || !strings.Contains(string(sink.frames[0]), `"id":2,"error":{"code":-32603`) || len(inner.sent) != 1 {
		t.Errorf("x: answered %q, sent %d", sink.frames, len(inner.sent))
	}

	pressKey(m, "B")
	ld := dialogOf[*breakpointsDialog](m)
	if ld == nil {
		t.Fatal("B opened no list")
	}
	pressKey(m, "a")
	typeKeys(m, "method:=ping kind:nope")
	pressKey(m, "enter")
	if !strings.Contains(ld.problem, "column 14") || len(bps.List()) != 1 {
		t.Errorf("a bad query: %q, %d breakpoints", ld.problem, len(bps.List()))
	}
	for range len("kind:nope") + 1 {
		pressKey(m, "backspace")
	}
	pressKey(m, "enter")
	if l := bps.List(); len(l) != 2 || l[1].Query != "method:=ping" {
		t.Errorf("added: %+v", l)
	}
	m.Update(keyMsg("space"))
	if l := bps.List(); l[1].Enabled {
		t.Errorf("space did not disable the chosen breakpoint: %+v", l)
	}
	pressKey(m, "esc")
	if dialogOf[*breakpointsDialog](m) != nil {
		t.Error("esc did not close the list")
	}
}
