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
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// TestHeldEditMarked: a request held at a breakpoint and forwarded edited is marked on its
// own row, and its detail shows the bytes as they came and as the server got them.
func TestHeldEditMarked(t *testing.T) {
	bps := fault.NewBreakpoints()
	bps.Add("tool:=echo")
	m := newTimelineModel(t, Options{Breakpoints: bps}, 160, 30)
	wi := newEvWire()
	inner, sink := &wireTransport{}, &wireSink{}
	tr := fault.WrapBreaking(inner, nil, bps)
	tr.Start(context.Background(), sink)
	notes := func(n int) {
		for _, note := range sink.notes[n:] {
			feedEvents(m, wi.ev(time.Millisecond, &session.Event{Kind: session.EvTransport, Note: note.Kind, Text: note.Text}))
		}
	}
	row := wi.req(dirOut, 1, "tools/call", `{"name":"echo","arguments":{"uppercase":false}}`)
	feedEvents(m, row) // the session publishes the frame, then sends it
	tr.Send(context.Background(), transport.Outgoing{Raw: row.Frame.Raw, IsRequest: true})
	notes(0)
	n := len(sink.notes)
	edited := strings.Replace(string(row.Frame.Raw), `"uppercase":false`, `"uppercase":true`, 1)
	if err := bps.Decide(bps.Held()[0].ID, fault.Decision{Verb: fault.Forward, Raw: []byte(edited)}); err != nil {
		t.Fatal(err)
	}
	notes(n)
	var e *traffic.Entry
	for _, x := range m.hist.Entries() {
		if x.Ev.Kind == session.EvFrame {
			e = x
		}
	}
	if got := ansi.Strip(rowText(m.c.Styles, e, 160, m.hist.Start, wi.now)); !strings.Contains(got, "⏸ edited at a breakpoint") {
		t.Errorf("the request's row is not marked: %q", got)
	}
	b := newTextBlock(m.c.Styles, 200)
	frameHeader(b, e)
	detail := ansi.Strip(strings.Join(b.lines, "\n"))
	for _, want := range []string{"held #1 forwarded after", `"uppercase":false`, `"uppercase":true`, "the server got the bytes under delivered"} {
		if !strings.Contains(detail, want) {
			t.Errorf("the detail lacks %q:\n%s", want, detail)
		}
	}
}
