package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/transport"
)

// stdioWire is a wireTransport that says it is stdio: a newline ends a frame there.
type stdioWire struct{ wireTransport }

func (w *stdioWire) Name() string { return "stdio" }

// dialogText is the screen's text with the dialog's borders gone and every run of spaces
// and line breaks made one space: a wrapped sentence reads whole.
func dialogText(m *Model) string {
	s := strings.NewReplacer("│", " ", "╭", " ", "╮", " ", "╰", " ", "╯", " ", "─", " ").Replace(ansi.Strip(m.View().Content))
	return strings.Join(strings.Fields(s), " ")
}

// TestHoldTextsWrapped: at 80x24 the hold editor's flag, the answer editor's label and
// the breakpoint list's error are wrapped and read whole; on stdio an invalid edit sent
// anyway reaches the server as one frame, its line breaks as spaces, and the flag says so;
// the answer editor starts a tools/call's result with content, sent unflagged.
func TestHoldTextsWrapped(t *testing.T) {
	bps := fault.NewBreakpoints()
	bps.Add("tool:=echo")
	m := newTimelineModel(t, Options{Breakpoints: bps}, 80, 24)
	wi := newEvWire()
	inner, sink := &stdioWire{}, &wireSink{}
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
	hold(wi.req(dirOut, 1, "tools/call", `{"name":"echo","arguments":{"text":"hi"}}`).Frame.Raw)
	d := dialogOf[*holdDialog](m)
	if d == nil {
		t.Fatal("no hold dialog")
	}
	pressKey(m, "e")
	d.editor.SetValue(d.editor.Value() + "xx")
	m.Update(keyMsg("ctrl+s"))
	screen := dialogText(m)
	for _, want := range []string{"flagged:", "ctrl+s again sends it as it is, its line breaks as spaces (a stdio frame is one line)"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the flag lacks %q:\n%s", want, screen)
		}
	}
	m.Update(keyMsg("backspace")) // the text changed: the flag, about the text before, goes
	if screen := dialogText(m); strings.Contains(screen, "flagged:") {
		t.Errorf("the flag stayed after the text changed:\n%s", screen)
	}
	m.Update(keyMsg("x"))
	m.Update(keyMsg("ctrl+s"))
	_, cmd := m.Update(keyMsg("ctrl+s"))
	decide(t, m, cmd)
	if len(inner.sent) != 1 || strings.ContainsAny(string(inner.sent[0]), "\r\n") || !strings.HasSuffix(string(inner.sent[0]), "xx") {
		t.Errorf("sent anyway: %q, want one frame of one line", inner.sent)
	}

	hold(wi.req(dirOut, 2, "tools/call", `{"name":"echo","arguments":{}}`).Frame.Raw)
	pressKey(m, "r")
	screen = dialogText(m)
	if !strings.Contains(screen, "(ctrl+s sends, esc: back)") {
		t.Errorf("the answer editor's label is cut:\n%s", screen)
	}
	if v := dialogOf[*holdDialog](m).editor.Value(); !strings.Contains(v, `"content": [`) || !strings.Contains(v, `"type": "text"`) {
		t.Errorf("the answer to a tools/call starts without content: %s", v)
	}
	// The template is a valid result: ctrl+s sends it at once, unflagged, as one line.
	_, cmd = m.Update(keyMsg("ctrl+s"))
	decide(t, m, cmd)
	if n := len(sink.frames); n != 1 || string(sink.frames[0]) != `{"jsonrpc":"2.0","id":2,"result":{"content":[{"text":"","type":"text"}]}}` {
		t.Errorf("answered %q", sink.frames)
	}

	pressKey(m, "B")
	pressKey(m, "a")
	typeKeys(m, "kind:bogus")
	pressKey(m, "enter")
	screen = dialogText(m)
	for _, want := range []string{"column 1: kind:bogus (want request, notification, response, result, error, batch, invalid, frame, stderr, http, transport, state, exit, or gap)"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the error lacks %q:\n%s", want, screen)
		}
	}
}

// TestAnswerResultTemplate: the answer editor's template is a valid result of the
// session's revision: content for a tool, resultType where the revision requires it.
func TestAnswerResultTemplate(t *testing.T) {
	call := fault.Held{Method: "tools/call", Dir: protocol.ClientToServer, MsgID: protocol.IntID(3)}
	cases := []struct {
		h    fault.Held
		rev  protocol.Revision
		want string
	}{
		{call, protocol.Rev20260728, `{"jsonrpc":"2.0","id":3,"result":{"content":[{"text":"","type":"text"}],"resultType":"complete"}}`},
		{call, protocol.Rev20250618, `{"jsonrpc":"2.0","id":3,"result":{"content":[{"text":"","type":"text"}]}}`},
		{fault.Held{Method: "roots/list", Dir: protocol.ServerToClient, MsgID: protocol.IntID(4)}, protocol.Rev20260728, `{"jsonrpc":"2.0","id":4,"result":{}}`},
	}
	for _, c := range cases {
		raw := answerResult(c.h, c.rev)
		if string(raw) != c.want {
			t.Errorf("%s %s: %s, want %s", c.h.Method, c.rev, raw, c.want)
		}
		f := protocol.Decode(raw)
		if fs := protocol.Check(f, opposite(c.h.Dir), protocol.CheckContext{Revision: c.rev}); len(fs) > 0 {
			t.Errorf("%s %s: flagged %v", c.h.Method, c.rev, fs)
		}
	}
}
