package ui

import (
	"os"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// ServerList is what the server picker offers: the server of the command line and every
// server of the config files found (--config, or the hosts' files in their usual places).
type ServerList struct {
	Servers []session.ConfiguredServer
	// Current is the server the view starts on; -1 starts on the picker, connected to none.
	Current int
	// Looked are the places searched for config files, found or not, and Errs the files
	// that could not be read, by path.
	Looked []session.ConfigSource
	Errs   map[string]error
	// Home, when set, is shown as ~ in paths.
	Home string
	// NewSession builds a fresh, unconnected session on one of Servers; rev, when not
	// empty, forces the protocol revision (see Options.NewSessionIn).
	NewSession func(cs session.ConfiguredServer, rev string) (*session.Session, error)
	// ArgsFor, when set, is how the headless commands select a server (copy as command).
	ArgsFor func(cs session.ConfiguredServer) ServerArgs
}

// ServersPage is the server picker: every configured server, its source file, and its
// command or URL, to connect to, switch to, or disconnect from.
type ServersPage struct {
	c    *Common
	w, h int

	list      *ServerList
	current   int    // the server connected to (or last connected to), -1: none
	connected bool   // a session on current is open
	offline   string // why there is no server to pick (a recording is browsed, a tap watched)
	cursor    int
	off       int
}

// NewServersPage makes the picker for list (nil: no picker, the page says so).
func NewServersPage(c *Common, list *ServerList) *ServersPage {
	p := &ServersPage{c: c, list: list, current: -1}
	if list != nil {
		p.current = list.Current
		p.cursor = max(0, list.Current)
	}
	return p
}

// SetSize sets the page size.
func (p *ServersPage) SetSize(w, h int) {
	p.w, p.h = w, h
	p.clamp()
}

// SetCurrent marks server i as the one connected to (connected false: disconnected from).
func (p *ServersPage) SetCurrent(i int, connected bool) { p.current, p.connected = i, connected }

// Selected is the index of the server under the cursor, -1 when there is none.
func (p *ServersPage) Selected() int {
	if p.list == nil || len(p.list.Servers) == 0 {
		return -1
	}
	return p.cursor
}

// Keys are the page's bindings for the help line.
func (p *ServersPage) Keys() []key.Binding {
	k := p.c.Keys
	return []key.Binding{k.Connect, k.Disconnect}
}

// Update moves the cursor (connecting is the model's: see Model.serversKey).
func (p *ServersPage) Update(msg tea.Msg) tea.Cmd {
	k := p.c.Keys
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			p.cursor--
		case key.Matches(msg, k.Down):
			p.cursor++
		case key.Matches(msg, k.Top):
			p.cursor = 0
		case key.Matches(msg, k.Bottom):
			p.cursor = 1 << 30
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			p.cursor--
		case tea.MouseWheelDown:
			p.cursor++
		}
	}
	p.clamp()
	return nil
}

func (p *ServersPage) clamp() {
	n := 0
	if p.list != nil {
		n = len(p.list.Servers)
	}
	p.cursor = min(max(0, p.cursor), max(0, n-1))
	vis := max(1, p.h/2)
	if p.cursor < p.off {
		p.off = p.cursor
	}
	if p.cursor >= p.off+vis {
		p.off = p.cursor - vis + 1
	}
	p.off = min(max(0, p.off), max(0, n-vis))
}

// tilde shows a path under the home directory with ~.
func (p *ServersPage) tilde(path string) string {
	if p.list == nil || p.list.Home == "" {
		return path
	}
	if rel, err := filepath.Rel(p.list.Home, path); err == nil && !strings.HasPrefix(rel, "..") {
		return "~" + string(os.PathSeparator) + rel
	}
	return path
}

// View renders the page: exactly h lines of w cells.
func (p *ServersPage) View() string {
	if p.w <= 0 || p.h <= 0 {
		return ""
	}
	s := p.c.Styles
	const pad = "   "
	out := []string{" " + s.PaneTitleFocused.Render("Servers")}
	if p.offline != "" {
		out = append(out, "")
		out = append(out, textfmt.WrapProse(s.Muted, "No server to connect to: "+p.offline+".", pad, p.w-1)...)
		return textfmt.FitBlock(strings.Join(out, "\n"), p.w, p.h)
	}
	if p.list == nil || len(p.list.Servers) == 0 {
		out = append(out, "", pad+s.Text.Render("No MCP server configuration found."))
		out = append(out, p.places(pad)...)
		out = append(out, "")
		out = append(out, textfmt.WrapProse(s.Muted, "Pass --config FILE to read another file (mcpServers, or VS Code's servers).", pad, p.w-1)...)
		return textfmt.FitBlock(strings.Join(out, "\n"), p.w, p.h)
	}
	all := p.list.Servers
	state := "not connected"
	if p.current >= 0 && p.current < len(all) {
		state = "disconnected from " + all[p.current].Name
		if p.connected {
			state = "connected to " + all[p.current].Name
		}
	}
	out[0] += "  " + s.Muted.Render(textfmt.Plural(len(all), "server")+" · "+state)
	nameW, hostW := 18, 15
	if p.w < 100 {
		nameW, hostW = 14, 13
	}
	fileW := 0 // wide: the file each server comes from, in a column of its own
	if p.w >= 140 {
		fileW = 44
	}
	restW := max(8, p.w-4-nameW-hostW-fileW)
	head := textfmt.Pad("name", nameW) + textfmt.Pad("from", hostW)
	if fileW > 0 {
		head += textfmt.Pad("file", fileW)
	}
	out = append(out, "", "  "+s.Muted.Render(head+"command or URL"))
	vis := max(1, p.h/2)
	end := min(len(all), p.off+vis)
	for i := p.off; i < end; i++ {
		cs := all[i]
		mark, st := "  ", s.Text
		if i == p.current {
			mark = s.Muted.Render("○ ")
			if p.connected {
				mark, st = s.Response.Render("● "), s.Bold
			}
		}
		what := p.c.Mask.String(cs.Spec.Describe())
		row := mark + st.Render(textfmt.Pad(textfmt.Clip(cs.Name, nameW-1), nameW)) +
			s.Muted.Render(textfmt.Pad(textfmt.Clip(cs.Source.Host, hostW-1), hostW))
		if fileW > 0 {
			row += s.Muted.Render(textfmt.Pad(clipLeft(p.tilde(cs.Source.Path), fileW-2), fileW))
		}
		row += s.Text.Render(textfmt.Clip(what, restW))
		if i == p.cursor {
			row = s.SelectRow(textfmt.FitRow(row, p.w))
		}
		out = append(out, row)
	}
	if sel := all[p.cursor]; sel.Source.Path != "" && fileW == 0 {
		out = append(out, "", pad+s.Muted.Render("file  ")+s.Text.Render(clipLeft(p.tilde(sel.Source.Path), max(8, p.w-10))))
	}
	fromFiles := false
	for _, cs := range all {
		fromFiles = fromFiles || cs.Source.Path != ""
	}
	if !fromFiles {
		out = append(out, "", pad+s.Text.Render("No MCP server configuration found."))
	}
	out = append(out, p.places(pad)...)
	return textfmt.FitBlock(strings.Join(out, "\n"), p.w, p.h)
}

// clipLeft cuts a path to w cells from its start, keeping its end (the file's name).
func clipLeft(path string, w int) string {
	if ansi.StringWidth(path) <= w {
		return path
	}
	r := []rune(path)
	for len(r) > 0 && ansi.StringWidth(string(r))+1 > w {
		r = r[1:]
	}
	return "…" + string(r)
}

// places lists where config files were looked for: found, unreadable, or absent.
func (p *ServersPage) places(pad string) []string {
	if p.list == nil || len(p.list.Looked) == 0 {
		return nil
	}
	s := p.c.Styles
	found := map[string]bool{}
	for _, cs := range p.list.Servers {
		found[cs.Source.Path] = true
	}
	out := []string{"", pad + s.Muted.Render("Looked in")}
	for _, src := range p.list.Looked {
		mark, st := "  ", s.Muted
		switch {
		case p.list.Errs[src.Path] != nil:
			mark, st = s.Error.Render("! "), s.Error
		case found[src.Path]:
			mark, st = s.Response.Render("✓ "), s.Text
		}
		path := clipLeft(p.tilde(src.Path), max(8, p.w-len(pad)-2-16))
		line := pad + mark + st.Render(textfmt.Pad(src.Host, 16)+path)
		if err := p.list.Errs[src.Path]; err != nil {
			line += "  " + s.Error.Render(err.Error())
		}
		out = append(out, textfmt.Clip(line, p.w))
	}
	return out
}
