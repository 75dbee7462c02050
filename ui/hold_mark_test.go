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
	if got := ansi.Strip(rowText(m.c.Styles, e, 160, m.hist.Start, wi.now)); !strings.Contains(got, "⏸ edited tools/call echo uppercase=true") {
		t.Errorf("the request's row is not marked: %q", got)
	}
	// The row summarises what the server got, marked at its head, which a narrow row keeps;
	// so does its response's.
	for _, w := range []int{160, 80, 60} {
		got := ansi.Strip(rowText(m.c.Styles, e, w, m.hist.Start, wi.now))
		if !strings.Contains(got, "⏸ edited") || strings.Contains(got, "uppercase=false") {
			t.Errorf("at %d columns the request's row does not summarise what was delivered: %q", w, got)
		}
	}
	feedEvents(m, wi.res(time.Millisecond, row, `{"content":[{"type":"text","text":"HI"}]}`))
	resp := m.hist.Entries()[len(m.hist.Entries())-1]
	if resp.Pair != e {
		t.Fatalf("the response is not paired with the request")
	}
	// The detail opens on the delivered bytes; the Original key shows them as they came.
	d := NewDetail(m.c)
	d.SetSize(100, 60)
	d.SetEntry(e)
	d.side = pairRequest
	d.rebuild()
	view := ansi.Strip(d.View())
	if !strings.Contains(view, `"uppercase": true`) || strings.Contains(view, `"uppercase": false`) || !strings.Contains(view, "what the server got") {
		t.Errorf("the detail does not open on the delivered bytes:\n%s", view)
	}
	d.Update(tea.KeyPressMsg{Code: 'd', Text: "d"})
	view = ansi.Strip(d.View())
	if !strings.Contains(view, `"uppercase": false`) || !strings.Contains(view, "the server did not get these bytes") {
		t.Errorf("d does not show the original:\n%s", view)
	}
	b := newTextBlock(m.c.Styles, 200)
	frameHeader(b, e)
	detail := ansi.Strip(strings.Join(b.lines, "\n"))
	for _, want := range []string{"held #1 forwarded after", `"uppercase":false`, `"uppercase":true`, "the server got the bytes under delivered",
		" B delivered (103 B before the edit)"} {
		if !strings.Contains(detail, want) {
			t.Errorf("the detail lacks %q:\n%s", want, detail)
		}
	}
}
