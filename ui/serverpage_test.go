package ui

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/explorer"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// handshakeTrace reads a --trace capture (NDJSON events) back into session events, decoding
// each frame from its exact bytes.
func handshakeTrace(t *testing.T, name string) []*session.Event {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	kinds := map[string]session.EventKind{}
	for k := session.EvFrame; k <= session.EvLists; k++ {
		kinds[k.String()] = k
	}
	states := map[string]session.State{}
	for st := session.StateIdle; st <= session.StateClosed; st++ {
		states[st.String()] = st
	}
	var evs []*session.Event
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var j session.EventJSON
		if err := json.Unmarshal(sc.Bytes(), &j); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ev := &session.Event{Seq: j.Seq, Time: j.Time, Kind: kinds[j.Kind], Text: j.Text, Note: j.Note, State: states[j.State]}
		if j.Raw != nil {
			ev.Frame = protocol.Decode([]byte(*j.Raw))
			ev.Dir = protocol.ServerToClient
			if j.Dir == "out" {
				ev.Dir = protocol.ClientToServer
			}
			ev.Corr = session.Correlation{Method: j.Method, RequestSeq: j.Request, Latency: time.Duration(j.LatencyMS * float64(time.Millisecond))}
		}
		evs = append(evs, ev)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return evs
}

// infoFromTrace is what the session learns from the handshake's answer in evs.
func infoFromTrace(t *testing.T, evs []*session.Event) session.ServerInfo {
	t.Helper()
	for _, ev := range evs {
		if ev.Frame == nil || ev.Frame.Kind != protocol.KindResult {
			continue
		}
		var res struct {
			ProtocolVersion string                     `json:"protocolVersion"`
			Capabilities    json.RawMessage            `json:"capabilities"`
			Instructions    string                     `json:"instructions"`
			ServerInfo      session.Implementation     `json:"serverInfo"`
			Supported       []string                   `json:"supportedVersions"`
			Meta            map[string]json.RawMessage `json:"_meta"`
		}
		if err := json.Unmarshal(ev.Frame.Result, &res); err != nil {
			t.Fatal(err)
		}
		info := session.ServerInfo{Capabilities: res.Capabilities, Instructions: res.Instructions, Transport: "stdio"}
		switch ev.Corr.Method {
		case "initialize":
			info.Implementation, info.Revision = res.ServerInfo, protocol.Revision(res.ProtocolVersion)
		case "server/discover":
			_ = json.Unmarshal(res.Meta["io.modelcontextprotocol/serverInfo"], &info.Implementation)
			info.Revision, info.Stateless, info.SupportedVersions = protocol.Revision(res.Supported[0]), true, res.Supported
		default:
			continue
		}
		return info
	}
	t.Fatal("no handshake answer in the trace")
	return session.ServerInfo{}
}

// serverPageFor builds a server page from a captured handshake.
func serverPageFor(t *testing.T, trace string, w, h int) (*ServerPage, []*traffic.Entry) {
	t.Helper()
	evs := handshakeTrace(t, trace)
	hist := traffic.NewHistory(0)
	for _, ev := range evs {
		hist.Add(1, ev)
	}
	entries := HandshakeEntries(hist, 1)
	p := NewServerPage(NewCommon(nil))
	p.SetSize(w, h)
	p.SetHandshake(entries)
	p.SetInfo(infoFromTrace(t, evs))
	return p, entries
}

// pageText is every line of the server page, without styles.
func pageText(p *ServerPage) string { return ansi.Strip(strings.Join(p.render(), "\n")) }

func entrySummaries(entries []*traffic.Entry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Ev.Summary()
	}
	return out
}

func TestServerPageHandshakeEntries(t *testing.T) {
	tests := []struct {
		trace string
		want  []string // prefixes of each entry's summary
	}{
		{"handshake-stateful.ndjson", []string{
			"out request initialize id=1", "in result initialize id=1", "out notification notifications/initialized", "state ready"}},
		{"handshake-stateless.ndjson", []string{
			"out request server/discover id=1", "in result server/discover id=1", "state handshaking: stateless handshake done", "state ready"}},
		{"handshake-fallback.ndjson", []string{
			"state handshaking: probing server/discover", "out request server/discover id=1", "in error server/discover id=1",
			"state handshaking: server/discover failed", "out request initialize id=2", "in result initialize id=2",
			"out notification notifications/initialized", "state ready"}},
	}
	for _, tt := range tests {
		t.Run(tt.trace, func(t *testing.T) {
			_, entries := serverPageFor(t, tt.trace, 100, 40)
			got := entrySummaries(entries)
			if len(got) != len(tt.want) {
				t.Fatalf("handshake entries:\n%s\nwant %d entries starting %q", strings.Join(got, "\n"), len(tt.want), tt.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("entry %d = %q, want it to start with %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestServerPageContent(t *testing.T) {
	tests := []struct {
		trace   string
		want    []string
		notWant []string
	}{
		{"handshake-stateless.ndjson", []string{
			"name        mcpscope-demo", "title       mcpscope demo server", "version     1.0.0",
			"website     https://modelcontextprotocol.io",
			"revision    2026-07-28", "era         stateless (server/discover", "transport   stdio", "session id  none",
			"supported   2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05",
			"• completions", "• logging", "• prompts (listChanged)", "• resources (listChanged, subscribe)", "• tools (listChanged)",
			`"listChanged": true`,
			"This is the mcpscope demo server.",
			"→ req    server/discover #1", "← res    server/discover #1",
			`"io.modelcontextprotocol/protocolVersion": "2026-07-28"`,
			"· handshaking: stateless handshake done", "· ready: mcpscope-demo 1.0.0, protocol 2026-07-28",
		}, []string{"initialize"}},
		{"handshake-stateful.ndjson", []string{
			"name        mcpscope-demo", "revision    2025-11-25", "era         stateful (initialize",
			"• resources (listChanged, subscribe)",
			"→ req    initialize #1", "← res    initialize #1", "→ note   notifications/initialized",
			`"protocolVersion": "2025-11-25"`, "· ready: mcpscope-demo 1.0.0, protocol 2025-11-25",
			"website     https://modelcontextprotocol.io",
		}, []string{"supported ", "server/discover"}},
		{"handshake-fallback.ndjson", []string{
			"name        mcp-servers/everything", "era         stateful (initialize",
			"• tasks (list, cancel, requests)", "• resources (subscribe, listChanged)",
			"→ req    server/discover #1", "← error  server/discover #1", `"message": "Method not found"`,
			"· handshaking: server/discover failed (JSON-RPC error -32601", "→ req    initialize #2", "← res    initialize #2",
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.trace, func(t *testing.T) {
			p, _ := serverPageFor(t, tt.trace, 120, 40)
			text := pageText(p)
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("server page lacks %q:\n%s", w, text)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(text, w) {
					t.Errorf("server page has %q", w)
				}
			}
			order := []string{"Server", "Protocol", "Capabilities", "Instructions", "Handshake"}
			last := -1
			for _, sec := range order {
				i := strings.Index(text, "\n "+sec+"\n")
				if sec == "Server" {
					i = strings.Index(text, " Server\n")
				}
				if i <= last {
					t.Errorf("section %q missing or out of order", sec)
				}
				last = i
			}
		})
	}
}

func TestServerPageWrapsAndFits(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {60, 20}, {20, 4}} {
		p, _ := serverPageFor(t, "handshake-fallback.ndjson", size[0], size[1])
		checkPageBlock(t, p.View(), size[0], size[1])
		if size[0] < 40 {
			continue // too narrow to wrap: lines are cut
		}
		for _, l := range p.render() {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Fatalf("at width %d a line is %d cells: %q", size[0], w, ansi.Strip(l))
			}
		}
	}
}

func TestServerPageScroll(t *testing.T) {
	p, _ := serverPageFor(t, "handshake-stateless.ndjson", 100, 10)
	k := p.c.Keys
	first := func() string { return ansi.Strip(strings.SplitN(p.View(), "\n", 2)[0]) }
	top := first()
	p.Update(explorerKey(k.Down))
	if first() == top {
		t.Fatal("down did not scroll")
	}
	p.Update(explorerKey(k.PageDown))
	if p.off != 1+9 {
		t.Errorf("after down and page down, offset = %d, want 10", p.off)
	}
	p.Update(explorerKey(k.Bottom))
	if want := len(p.render()) - 10; p.off != want {
		t.Errorf("bottom: offset = %d, want %d", p.off, want)
	}
	p.Update(explorerKey(k.PageDown))
	if want := len(p.render()) - 10; p.off != want {
		t.Errorf("page down past the end: offset = %d, want %d", p.off, want)
	}
	p.Update(explorerKey(k.Top))
	if first() != top {
		t.Errorf("top: first line %q, want %q", first(), top)
	}
	p.Update(explorerKey(k.PageUp))
	if p.off != 0 {
		t.Errorf("page up at the top: offset = %d", p.off)
	}
}

func TestServerPageBeforeHandshake(t *testing.T) {
	p := NewServerPage(NewCommon(nil))
	p.SetSize(80, 12)
	text := ansi.Strip(p.View())
	for _, w := range []string{"the handshake has not completed", "nothing exchanged yet"} {
		if !strings.Contains(text, w) {
			t.Errorf("empty server page lacks %q:\n%s", w, text)
		}
	}
	checkPageBlock(t, p.View(), 80, 12)
}

// explorerKey is a key press of the binding's first key.
func explorerKey(b interface{ Keys() []string }) tea.KeyPressMsg {
	return explorerPress(b.Keys()[0])
}

// explorerPress is a key press as the terminal reports it: a named key or one printable rune.
func explorerPress(s string) tea.KeyPressMsg {
	named := map[string]rune{
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "backspace": tea.KeyBackspace,
	}
	if c, ok := named[s]; ok {
		return tea.KeyPressMsg{Code: c}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

// checkPageBlock fails unless s is exactly h lines of exactly w cells.
func checkPageBlock(t *testing.T, s string, w, h int) {
	t.Helper()
	lines := strings.Split(s, "\n")
	if len(lines) != h {
		t.Fatalf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Fatalf("line %d is %d cells, want %d: %q", i, got, w, ansi.Strip(l))
		}
	}
}

func TestModelFeedsServerPageAndExplorer(t *testing.T) {
	m := NewModel(NewCommon(nil), Options{})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	evs := handshakeTrace(t, "handshake-fallback.ndjson")
	info := infoFromTrace(t, evs)
	m.Update(EventsMsg{Gen: m.gen, Events: evs, Info: &info, Closed: true})
	if got := len(m.server.hs); got != 8 {
		t.Fatalf("the server page got %d handshake entries, want 8", got)
	}
	m.Update(explorerPress("3"))
	explorerHas(t, pageText(m.server), "← error  server/discover #1")
	explorerHas(t, ansi.Strip(m.Render()), " Server", "name        mcp-servers/everything")
	m.Update(explorerPress("end"))
	explorerHas(t, ansi.Strip(m.Render()), "· ready: mcp-servers/everything 2.0.0, protocol 2025-11-25")

	// A list refresh notice is aged by ticks even while another page is on screen.
	m.Update(ListsMsg{Gen: m.gen, Lists: demoListFixtures(t)})
	_, cmd := m.Update(EventsMsg{Gen: m.gen, Lists: map[session.ListKind][]json.RawMessage{session.ListPrompts: {}}, Closed: true})
	if cmd == nil || m.explorer.Notices() != 1 {
		t.Fatalf("a list change started no notice ticker (%d notices)", m.explorer.Notices())
	}
	m.Update(explorer.ExplorerTickMsg(time.Now().Add(time.Hour)))
	if m.explorer.Notices() != 0 {
		t.Error("the tick did not reach the explorer")
	}

	// esc closes the explorer's full detail first, then leaves the page.
	m.Update(explorerPress("2"))
	m.Update(explorerPress("z"))
	if !m.explorer.Zoomed() {
		t.Fatal("z did not open the full detail")
	}
	m.Update(explorerPress("esc"))
	if m.page != pageExplorer || m.explorer.Zoomed() {
		t.Errorf("esc: page %v zoom %v, want the explorer's list", m.page, m.explorer.Zoomed())
	}
	m.Update(explorerPress("esc"))
	if m.page != pageTraffic {
		t.Errorf("second esc: page %v, want traffic", m.page)
	}
}
