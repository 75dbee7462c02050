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

// TestHoldEditorFormKeys: the hold editor takes the form's editing keys and lists them:
// ctrl+a selects all (typing replaces it), ctrl+z goes back to the message as held,
// ctrl+x clears.
func TestHoldEditorFormKeys(t *testing.T) {
	bps := fault.NewBreakpoints()
	m := newTimelineModel(t, Options{Breakpoints: bps}, 100, 30)
	if _, err := bps.Add("tool:=deploy"); err != nil {
		t.Fatal(err)
	}
	wi := newEvWire()
	row := wi.req(dirOut, 1, "tools/call", `{"name":"deploy","arguments":{"region":"eu-west-1"}}`)
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
	pressKey(m, "e")
	d := dialogOf[*holdDialog](m)
	opened := d.editor.Value()
	screen := ansi.Strip(m.View().Content)
	if !strings.Contains(screen, "ctrl+a select all · ctrl+x clear field · ctrl+z undo: the message as held") {
		t.Errorf("the editor does not list the form's keys:\n%s", screen)
	}
	m.Update(keyMsg("ctrl+a"))
	typed := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	for _, c := range typed {
		m.Update(keyMsg(string(c)))
	}
	if got := d.editor.Value(); got != typed {
		t.Errorf("ctrl+a then typing: %q, want %q", got, typed)
	}
	m.Update(keyMsg("ctrl+z"))
	if got := d.editor.Value(); got != opened {
		t.Errorf("ctrl+z: %q, want the message as held %q", got, opened)
	}
	m.Update(keyMsg("ctrl+x"))
	if got := d.editor.Value(); got != "" {
		t.Errorf("ctrl+x: %q", got)
	}
}
