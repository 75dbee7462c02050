package explorer

import (
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/recordings/pin"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// pinMark is how an item stands against the pin file given with --pin: changed (with its
// differences) or new since the pin. Items the same as pinned have no mark.
type pinMark struct {
	change pin.Change
}

// SetPin gives the definitions pinned in a pin file (named name on screen): from now on
// every tab marks its items that changed or are new since the pin, says which pinned items
// are gone, and an item's detail shows what changed.
func (x *Explorer) SetPin(set *pin.Set, name string) {
	x.pin, x.pinName = set, name
	for _, t := range x.tabs {
		x.markPinned(t)
	}
}

// markPinned compares the items of tab t with the pin.
func (x *Explorer) markPinned(t *exTab) {
	t.pinGone = nil
	kind := pin.KindOf(t.kind)
	if x.pin == nil || kind == "" || !t.fetched {
		return
	}
	present := map[string]bool{}
	for _, it := range t.items {
		it.pin, it.detail = nil, nil
		k := it.key()
		if k == "" || it.invalid != "" {
			continue
		}
		present[k] = true
		now := pin.Item{Kind: kind, Name: k, Hash: pin.Hash(it.raw), Definition: it.raw}
		old, ok := x.pin.Find(kind, k)
		switch {
		case !ok:
			it.pin = &pinMark{change: pin.Change{Status: pin.Added, Kind: kind, Name: k, NewHash: now.Hash, New: it.raw}}
		case old.Hash != now.Hash:
			it.pin = &pinMark{change: pin.ItemChange(old, now)}
		}
	}
	for _, it := range x.pin.Items {
		if it.Kind == kind && !present[it.Name] {
			t.pinGone = append(t.pinGone, it.Name)
		}
	}
}

// pinChanged reports whether tab t differs from the pin.
func (t *exTab) pinChanged() bool {
	if len(t.pinGone) > 0 {
		return true
	}
	for _, it := range t.items {
		if it.pin != nil {
			return true
		}
	}
	return false
}

// pinBadge is the mark of a changed or new item's list row.
func (x *Explorer) pinBadge(it *exItem) []badge {
	if it.pin == nil {
		return nil
	}
	if it.pin.change.Status == pin.Added {
		return []badge{{"new", x.c.Styles.BadgeError}}
	}
	return []badge{{"changed", x.c.Styles.BadgeError}}
}

// pinGoneNote says which pinned items of tab t the server no longer lists.
func (x *Explorer) pinGoneNote(t *exTab) string {
	if len(t.pinGone) == 0 {
		return ""
	}
	return fmt.Sprintf("gone since the pin (%s): %s", x.pinName, strings.Join(t.pinGone, ", "))
}

// pinLines is the detail's account of how an item differs from the pin: each place that
// changed, as a JSON pointer with its pinned and current values (invisible characters
// escaped), or that the item is new.
func pinLines(s *Styles, it *exItem, w int) []string {
	if it.pin == nil {
		return nil
	}
	const pad = " "
	c := it.pin.change
	if c.Status == pin.Added {
		return []string{"", pad + s.BadgeError.Render("new since the pin") + s.Muted.Render(" (the pin file does not have this "+string(c.Kind)+")")}
	}
	out := []string{"", pad + s.BadgeError.Render("changed since the pin") + s.Muted.Render(" "+shortHash(c.OldHash)+" → "+shortHash(c.NewHash))}
	return append(out, PinDiffLines(s, c.Differences, pad+pad, w)...)
}

// PinDiffLines lists differences from the pin: each JSON pointer, then the pinned value
// ("was") and the current one ("now"), invisible characters escaped.
func PinDiffLines(s *Styles, diffs []pin.Difference, indent string, w int) []string {
	var out []string
	for _, d := range diffs {
		p := d.Path
		if p == "" {
			p = "(whole definition)"
		}
		out = append(out, indent+s.JSONKey.Render(p))
		out = append(out, textfmt.WrapProse(s.Muted, "was "+pin.Shown(d.Old, 2000), indent+" ", w)...)
		out = append(out, textfmt.WrapProse(s.Text, "now "+pin.Shown(d.New, 2000), indent+" ", w)...)
	}
	return out
}

// shortHash is a hash cut to its algorithm and first twelve hex digits, enough to tell two
// apart on screen.
func shortHash(h string) string {
	if alg, hex, ok := strings.Cut(h, ":"); ok && len(hex) > 12 {
		return alg + ":" + hex[:12] + "…"
	}
	return h
}
