package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestHoldMasksBeforeLayout: a held message with a secret member longer than the dialog is
// wide shows no piece of the secret, in the message or in the editor that wraps it; sent
// from the editor, the secret goes out as it was.
func TestHoldMasksBeforeLayout(t *testing.T) {
	const sec = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY0123456789abcdefghijklmnop"
	bps := fault.NewBreakpoints()
	m := newTimelineModel(t, Options{Breakpoints: bps}, 60, 30)
	if _, err := bps.Add("tool:=deploy"); err != nil {
		t.Fatal(err)
	}
	wi := newEvWire()
	row := wi.req(dirOut, 1, "tools/call", `{"name":"deploy","arguments":{"env":{"AWS_SECRET_ACCESS_KEY":"`+sec+`","REGION":"eu-west-1"}}}`)
	inner, sink := &wireTransport{}, &wireSink{}
	tr := fault.WrapBreaking(inner, nil, bps)
	tr.Start(context.Background(), sink)
	tr.Send(context.Background(), transport.Outgoing{Raw: row.Frame.Raw, IsRequest: true})
	for _, note := range sink.notes {
		feedEvents(m, wi.ev(time.Millisecond, &session.Event{Kind: session.EvTransport, Note: note.Kind, Text: note.Text}))
	}
	if dialogOf[*holdDialog](m) == nil {
		t.Fatal("the message was not held")
	}
	leaks := func(where string) {
		t.Helper()
		screen := strings.Join(strings.Fields(ansi.Strip(m.View().Content)), "")
		for i := 0; i+6 <= len(sec); i++ {
			if strings.Contains(screen, sec[i:i+6]) {
				t.Fatalf("%s: the screen shows %q of the secret:\n%s", where, sec[i:i+6], ansi.Strip(m.View().Content))
			}
		}
		if !strings.Contains(screen, "eu-west-1") {
			t.Fatalf("%s: the message is not shown:\n%s", where, ansi.Strip(m.View().Content))
		}
	}
	leaks("the held message")
	pressKey(m, "e")
	leaks("the editor")
	d := dialogOf[*holdDialog](m)
	d.editor.SetValue(strings.Replace(d.editor.Value(), "eu-west-1", "eu-west-2", 1))
	_, cmd := m.Update(keyMsg("ctrl+s"))
	decide(t, m, cmd)
	if len(inner.sent) != 1 || !strings.Contains(string(inner.sent[0]), `"AWS_SECRET_ACCESS_KEY":"`+sec+`"`) || !strings.Contains(string(inner.sent[0]), "eu-west-2") {
		t.Errorf("sent %q", inner.sent)
	}
}
