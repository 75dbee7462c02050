package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// pageDef is one page of the program: what the model looks up about the page it shows
// instead of switching on it.
type pageDef struct {
	title string                       // the page's name (logs, tests)
	key   func(k *KeyMap) *key.Binding // the global key that shows the page
	// focuses are the stops the focus cycle (tab) makes on the page, in order; nil: one.
	focuses []focus
	pane    func(m *Model) Pane          // the pane that has the keys
	body    func(m *Model) string        // what the page draws in the body; nil: its pane's View
	fit     bool                         // the pane's View is fitted to the body's cells
	keys    func(m *Model) []key.Binding // the footer's keys while no dialog is open
	shown   func(m *Model) tea.Cmd       // what showing the page starts, or nil
}

// pages are the program's pages, indexed by page; their order is the focus cycle's.
var pages = [...]pageDef{
	pageTraffic: {
		title: "traffic", key: func(k *KeyMap) *key.Binding { return &k.Traffic },
		focuses: []focus{focusTimeline, focusDetail},
		pane:    (*Model).trafficPane, body: (*Model).trafficBody, keys: (*Model).trafficKeys,
	},
	pageExplorer: {
		title: "explorer", key: func(k *KeyMap) *key.Binding { return &k.Explorer },
		pane: func(m *Model) Pane { return m.explorer }, fit: true, keys: (*Model).explorerKeys,
	},
	pageServer: {
		title: "server", key: func(k *KeyMap) *key.Binding { return &k.Server },
		pane: func(m *Model) Pane { return m.server }, fit: true,
		keys: func(m *Model) []key.Binding {
			k := m.c.Keys
			return append(m.server.Keys(), k.Traffic, k.Explorer, k.NextPane, k.Help, k.Quit)
		},
	},
	pageTasks: {
		title: "tasks", key: func(k *KeyMap) *key.Binding { return &k.Tasks },
		pane: func(m *Model) Pane { return m.tasks },
		keys: func(m *Model) []key.Binding {
			k := m.c.Keys
			return append(m.tasks.Keys(), k.Back, k.Help, k.Quit)
		},
	},
	pageServers: {
		title: "servers", key: func(k *KeyMap) *key.Binding { return &k.Servers },
		pane: func(m *Model) Pane { return m.servers },
		keys: func(m *Model) []key.Binding {
			k := m.c.Keys
			return append(m.servers.Keys(), k.Stats, k.Back, k.Help, k.Quit)
		},
	},
	pageStats: {
		title: "stats", key: func(k *KeyMap) *key.Binding { return &k.Stats },
		pane: func(m *Model) Pane { return m.stats },
		keys: func(m *Model) []key.Binding {
			k := m.c.Keys
			return append(m.stats.Keys(), k.Servers, k.Back, k.Help, k.Quit)
		},
		shown: (*Model).statsShown,
	},
	pageAuth: {
		title: "auth", key: func(k *KeyMap) *key.Binding { return &k.Auth },
		pane: func(m *Model) Pane { return m.auth },
		keys: func(m *Model) []key.Binding {
			k := m.c.Keys
			return append(m.auth.Keys(), k.Back, k.Help, k.Quit)
		},
	},
}

// body is what the current page draws: its pane's View, fitted when the table says so,
// or what the page draws itself.
func (m *Model) body() string {
	d := pages[m.page]
	if d.body != nil {
		return d.body(m)
	}
	if d.fit {
		return textfmt.FitBlock(d.pane(m).View(), m.layout.Body.W, m.layout.Body.H)
	}
	return d.pane(m).View()
}

func (p page) String() string {
	if p < 0 || int(p) >= len(pages) {
		return "page?"
	}
	return pages[p].title
}

// trafficPane is the traffic page's pane with the keys: the timeline or the detail.
func (m *Model) trafficPane() Pane {
	if m.focus == focusDetail {
		return m.detail
	}
	return m.timeline
}

// trafficBody is the timeline, the detail, or both side by side.
func (m *Model) trafficBody() string {
	l := m.layout
	switch {
	case l.Split:
		return joinColumns(m.timeline.View(), m.detail.View(), l.Detail.W, l.Body.H)
	case l.Detail.H > 0:
		return m.detail.View()
	}
	return m.timeline.View()
}

// trafficKeys are the footer's keys on the timeline or the detail.
func (m *Model) trafficKeys() []key.Binding {
	k := m.c.Keys
	if m.focus == focusDetail {
		return append(m.withCancel(m.detail.Keys()), k.Back, k.Help, k.Quit)
	}
	if m.filter.Value() != "" {
		// The filter text takes room: keep the keys that matter most.
		return []key.Binding{k.Help, k.Filter, k.Open, k.Pair, k.Quit}
	}
	return append(m.withCancel(m.timeline.Keys()), k.Explorer, k.Help, k.Quit)
}

// explorerKeys are the footer's keys on the explorer.
func (m *Model) explorerKeys() []key.Binding {
	k := m.c.Keys
	if m.explorer.Capturing() {
		return m.explorer.Keys() // every key goes to its input or form: ? and q are text there
	}
	return append(m.withCancel(m.explorer.Keys()), k.NextPane, k.Help, k.Quit)
}

// pageKeys are the global keys that show each page, in the table's order.
func pageKeys() []globalKey {
	out := make([]globalKey, len(pages))
	for p, d := range pages {
		out[p] = globalKey{d.key, nil, toPage(page(p))}
	}
	return out
}

// focusStop is one stop of the focus cycle: a page, and the focus on it.
type focusStop struct {
	p page
	f focus
}

// focusCycle is the focus cycle, worked out once from the table.
var focusCycle = focusStops()

// focusStops are the focus cycle's stops: every page's, in the table's order.
func focusStops() []focusStop {
	var out []focusStop
	for p, d := range pages {
		if d.focuses == nil {
			out = append(out, focusStop{page(p), focusTimeline})
		}
		for _, f := range d.focuses {
			out = append(out, focusStop{page(p), f})
		}
	}
	return out
}

// showEntry switches to the traffic page with e selected and open in the detail.
func (m *Model) showEntry(e *traffic.Entry) tea.Cmd {
	m.page = pageTraffic
	if m.filter.Value() != "" && !m.timeline.Select(e) {
		m.filter.SetValue("")
		m.timeline.SetQuery(traffic.Query{})
	}
	if !m.timeline.Select(e) {
		return statusCmd("that row is hidden in the timeline", true)
	}
	m.timeline.follow = false // the row asked for stays selected as new rows come in
	m.focus = focusDetail
	m.relayout()
	return m.detail.SetEntry(e)
}
