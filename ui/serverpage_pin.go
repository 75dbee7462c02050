package ui

import (
	"github.com/mcpscope/mcpscope/recordings/pin"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/explorer"
)

// SetPin gives the definitions pinned in a pin file (named name): the page then says
// whether the capabilities and instructions changed since, and how.
func (p *ServerPage) SetPin(set *pin.Set, name string) {
	p.pin, p.pinName = set, name
	p.changed = true
}

// pinSection is the page's account of the capabilities and instructions against the pin,
// ending with a blank line; nil without a pin or before the handshake completed.
func pinSection(s *Styles, set *pin.Set, name string, info session.ServerInfo, w int) []string {
	if set == nil || info.Revision == "" {
		return nil
	}
	const pad, pad2 = " ", "   "
	now := pin.New(session.ServerInfo{Capabilities: info.Capabilities, Instructions: info.Instructions}, nil)
	out := []string{pad + s.PaneTitleFocused.Render("Since the pin") + s.Muted.Render(" "+name)}
	same := true
	for _, k := range []pin.Kind{pin.KindCapabilities, pin.KindInstructions} {
		old, hadOld := set.Find(k, "")
		cur, hasCur := now.Find(k, "")
		if hadOld == hasCur && old.Hash == cur.Hash {
			continue
		}
		same = false
		var diffs []pin.Difference
		status := pin.Changed
		switch {
		case !hadOld:
			status, diffs = pin.Added, []pin.Difference{{New: cur.Definition}}
		case !hasCur:
			status, diffs = pin.Removed, []pin.Difference{{Old: old.Definition}}
		default:
			diffs = pin.ItemChange(old, cur).Differences
		}
		out = append(out, pad2+s.BadgeError.Render(string(k)+" "+string(status)+" since the pin"))
		out = append(out, explorer.PinDiffLines(s, diffs, pad2+" ", w)...)
	}
	if same {
		out = append(out, pad2+s.Muted.Render("the capabilities and instructions are as pinned"))
	}
	return append(out, "")
}
