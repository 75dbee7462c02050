package ui

import (
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// TestPageTable checks that every page has its row in the table and that what the model
// shows on a page is what the row says: its key shows it, its pane has the keys, its body
// is drawn, its footer keys are the help line.
func TestPageTable(t *testing.T) {
	if len(pages) != int(pageAuth)+1 {
		t.Fatalf("%d rows for %d pages", len(pages), pageAuth+1)
	}
	m := newTimelineModel(t, Options{}, 100, 30)
	feedEvents(m, mixedTraffic(newEvWire(), 6)...)
	titles, keys := map[string]bool{}, map[string]bool{}
	for p, d := range pages {
		pg := page(p)
		if d.title == "" || titles[d.title] || d.key == nil || d.pane == nil || d.keys == nil {
			t.Fatalf("page %d: incomplete or repeated row (title %q)", p, d.title)
		}
		titles[d.title] = true
		b := d.key(m.c.Keys)
		if k := b.Keys(); len(k) == 0 || keys[k[0]] {
			t.Fatalf("%s: no key of its own (%v)", pg, k)
		}
		keys[b.Keys()[0]] = true
		pressKey(m, b.Keys()[0])
		if m.page != pg {
			t.Fatalf("key %q shows page %s, want %s", b.Keys()[0], m.page, pg)
		}
		if got, want := m.focusedPane(), d.pane(m); got != want {
			t.Errorf("%s: focused pane %T, the table says %T", pg, got, want)
		}
		if d.body == nil {
			want := d.pane(m).View()
			if d.fit {
				want = fitBody(m, want)
			}
			if got := m.body(); got != want {
				t.Errorf("%s: the body is not the pane's view:\n%s\nwant\n%s", pg, got, want)
			}
		}
		var got, want []string
		for _, kb := range m.shortKeys() {
			got = append(got, kb.Help().Key)
		}
		for _, kb := range d.keys(m) {
			want = append(want, kb.Help().Key)
		}
		if !slices.Equal(got, want) || len(got) == 0 {
			t.Errorf("%s: footer keys %v, the table says %v", pg, got, want)
		}
	}
}

// TestPageCycle checks that tab visits every page's stops in the table's order and comes
// back, and that shift+tab goes the other way.
func TestPageCycle(t *testing.T) {
	m := newTimelineModel(t, Options{}, 100, 30)
	feedEvents(m, mixedTraffic(newEvWire(), 6)...)
	type stop struct {
		p page
		f focus
	}
	want := []stop{{pageTraffic, focusTimeline}, {pageTraffic, focusDetail}, {pageExplorer, focusTimeline},
		{pageServer, focusTimeline}, {pageTasks, focusTimeline}, {pageServers, focusTimeline},
		{pageStats, focusTimeline}, {pageAuth, focusTimeline}}
	for i := range want {
		next := want[(i+1)%len(want)]
		m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
		if got := (stop{m.page, m.focus}); got != next {
			t.Fatalf("tab %d: at %s/%d, want %s/%d", i+1, got.p, got.f, next.p, next.f)
		}
	}
	for i := len(want); i > 0; i-- {
		prev := want[i-1]
		m.Update(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
		if got := (stop{m.page, m.focus}); got != prev {
			t.Fatalf("shift+tab: at %s/%d, want %s/%d", got.p, got.f, prev.p, prev.f)
		}
	}
}

// fitBody fits a pane's view to the body's cells, as the table's fit asks.
func fitBody(m *Model, v string) string {
	return textfmt.FitBlock(v, m.layout.Body.W, m.layout.Body.H)
}
