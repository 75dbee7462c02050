package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings/pin"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/explorer"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// ServerPage shows what the server said about itself: serverInfo, the negotiated protocol,
// capabilities, instructions, and the handshake exchange frame by frame.
type ServerPage struct {
	c    *Common
	w, h int

	info    session.ServerInfo
	hs      []*traffic.Entry
	website string
	rec     string // the live recording's path, or ""
	faults  string // the fault rules' note: the seed, then each rule ("": none)

	lines   []string // rendered for linesW and linesS
	linesW  int
	linesS  *Styles
	off     int
	changed bool // info or handshake changed since the last render

	pin     *pin.Set // definitions pinned with --pin; nil: no pin
	pinName string

	roots  rootsOffer         // what mcpscope offers as roots
	apps   explorer.AppsTally // what the lists say of MCP Apps (serverpage_apps.go)
	hosted []string           // the addresses of the apps hosted, newest last (serverpage_apps.go)
}

// NewServerPage makes the server page.
func NewServerPage(c *Common) *ServerPage { return &ServerPage{c: c, changed: true} }

// SetSize sets the page size.
func (p *ServerPage) SetSize(w, h int) {
	p.w, p.h = w, h
	p.clamp()
}

// SetInfo shows info (what the handshake learned).
func (p *ServerPage) SetInfo(info session.ServerInfo) {
	p.info = info
	p.changed = true
	p.clamp()
}

// SetRecording names the file the session is recorded to ("": not recorded).
func (p *ServerPage) SetRecording(path string) {
	p.rec = path
	p.changed = true
}

// SetHandshake shows the handshake exchange: the entries HandshakeEntries picks.
func (p *ServerPage) SetHandshake(entries []*traffic.Entry) {
	if len(entries) == len(p.hs) && (len(entries) == 0 || entries[len(entries)-1] == p.hs[len(p.hs)-1]) {
		return
	}
	p.hs = entries
	p.website = websiteOf(entries)
	p.changed = true
	p.clamp()
}

// Keys are the page's bindings for the help line.
func (p *ServerPage) Keys() []key.Binding {
	k := p.c.Keys
	return []key.Binding{k.Era, k.Up, k.Down, k.PageUp, k.PageDown}
}

// Update scrolls.
func (p *ServerPage) Update(msg tea.Msg) tea.Cmd {
	k := p.c.Keys
	page := max(1, p.h-1)
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if cmd := k.DisabledKeyCmd(msg, &k.Era); cmd != nil {
			return cmd
		}
		switch {
		case key.Matches(msg, k.Era):
			if rev := otherEra(p.info); rev != "" {
				return eraRestartCmd(rev)
			}
			return statusCmd("the handshake has not completed: the era is not known yet", false)
		case key.Matches(msg, k.Up):
			p.off--
		case key.Matches(msg, k.Down):
			p.off++
		case key.Matches(msg, k.PageUp):
			p.off -= page
		case key.Matches(msg, k.PageDown):
			p.off += page
		case key.Matches(msg, k.Top):
			p.off = 0
		case key.Matches(msg, k.Bottom):
			p.off = 1 << 30
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			p.off -= 3
		case tea.MouseWheelDown:
			p.off += 3
		}
	}
	p.clamp()
	return nil
}

// View renders the page: exactly h lines of w cells.
func (p *ServerPage) View() string {
	if p.w <= 0 || p.h <= 0 {
		return ""
	}
	lines := p.render()
	end := min(len(lines), p.off+p.h)
	return textfmt.FitBlock(strings.Join(lines[min(p.off, end):end], "\n"), p.w, p.h)
}

// clamp keeps the scroll offset within the content.
func (p *ServerPage) clamp() {
	p.off = min(max(0, p.off), max(0, len(p.render())-p.h))
}

// render returns the page's lines, rendering them again only when the content, the width
// or the palette changed.
func (p *ServerPage) render() []string {
	if !p.changed && p.linesW == p.w && p.linesS == p.c.Styles {
		return p.lines
	}
	var switchTo protocol.Revision
	if p.c.Keys.Era.Enabled() {
		switchTo = otherEra(p.info)
	}
	client := append(rootsLines(p.c.Styles, p.roots, p.w), appsSection(p.c.Styles, p.apps, p.info, p.w)...)
	client = append(client, hostedLines(p.c.Styles, p.hosted, p.w)...)
	if f := faultRulesLines(p.c.Styles, p.faults, p.w); len(f) > 0 {
		if len(client) > 0 {
			client = append(client, "")
		}
		client = append(client, f...)
	}
	p.lines = append(pinSection(p.c.Styles, p.pin, p.pinName, p.info, p.w),
		serverLines(p.c.Styles, p.info, switchTo, p.website, p.rec, p.hs, p.w, client)...)
	p.linesW, p.linesS, p.changed = p.w, p.c.Styles, false
	return p.lines
}

// serverLines lays out the whole page for width w.
// client, when not empty, is a section about what mcpscope offers, put after the protocol.
func serverLines(s *Styles, info session.ServerInfo, switchTo protocol.Revision, website, rec string, hs []*traffic.Entry, w int, client []string) []string {
	const pad, pad2 = " ", "   "
	var out []string
	section := func(title string) {
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, pad+s.PaneTitleFocused.Render(title))
	}
	field := func(k, v string) {
		if v != "" {
			out = append(out, textfmt.Hanging(s.Text, pad2+s.Muted.Render(fmt.Sprintf("%-12s", k)), escapeText(v), w)...)
		}
	}
	done := info.Revision != ""
	section("Server")
	if !done {
		out = append(out, pad2+s.Muted.Render("the handshake has not completed: see the exchange below"))
	}
	impl := info.Implementation
	field("name", impl.Name)
	field("title", impl.Title)
	field("version", impl.Version)
	field("website", website)
	field("recording", rec)

	if done {
		section("Protocol")
		field("revision", string(info.Revision))
		era := "stateful (initialize, notifications/initialized)"
		if info.Stateless {
			era = "stateless (server/discover; every request carries its own _meta)"
		}
		field("era", era)
		field("other era", traffic.EraHint(info))
		if switchTo != "" {
			field("switch", "P restarts the server with --protocol "+string(switchTo))
		}
		field("transport", info.Transport)
		sid := info.SessionID
		if sid == "" {
			sid = "none"
		}
		field("session id", sid)
		if len(info.SupportedVersions) > 0 {
			field("supported", strings.Join(info.SupportedVersions, ", "))
		}

		if len(client) > 0 {
			out = append(append(out, ""), client...)
		}

		section("Capabilities")
		sum := capabilitySummary(info.Capabilities)
		if len(sum) == 0 {
			out = append(out, pad2+s.Muted.Render("none declared"))
		}
		for _, c := range sum {
			out = append(out, pad2+s.Accent.Render("• ")+s.Text.Render(escapeText(c)))
		}
		if len(info.Capabilities) > 0 {
			out = append(out, "")
			out = append(out, explorer.StyledJSONLines(s, info.Capabilities, pad2, w)...)
		}

		section("Instructions")
		if strings.TrimSpace(info.Instructions) == "" {
			out = append(out, pad2+s.Muted.Render("none"))
		} else {
			out = append(out, textfmt.WrapProse(s.Text, escapeProse(info.Instructions), pad2, w-1)...)
		}
	}

	if !done && len(client) > 0 {
		out = append(append(out, ""), client...)
	}
	section("Handshake")
	if len(hs) == 0 {
		out = append(out, pad2+s.Muted.Render("nothing exchanged yet"))
	}
	out = append(out, handshakeLines(s, hs, pad2, w)...)
	return out
}
