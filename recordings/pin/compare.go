package pin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/mcpscope/mcpscope/recordings"
)

// Status is how an item changed.
type Status string

// The ways an item can change.
const (
	Added   Status = "added"
	Removed Status = "removed"
	Changed Status = "changed"
)

// Difference is one place where an item's two definitions differ. Old or New is nil where
// the member or element is absent on that side.
type Difference struct {
	Path string          `json:"path"` // JSON pointer (RFC 6901) into the definition; "" is the whole of it
	Old  json.RawMessage `json:"old,omitempty"`
	New  json.RawMessage `json:"new,omitempty"`
}

// Change is one item that is not the same in both sets.
type Change struct {
	Status      Status       `json:"status"`
	Kind        Kind         `json:"kind"`
	Name        string       `json:"name"`
	OldHash     string       `json:"oldHash,omitempty"`
	NewHash     string       `json:"newHash,omitempty"`
	Differences []Difference `json:"differences,omitempty"` // for a changed item
	// Old and New are the definitions (Old for a removed item, New for an added one, both
	// for a changed one).
	Old json.RawMessage `json:"old,omitempty"`
	New json.RawMessage `json:"new,omitempty"`
}

// Label is how reports name the changed item.
func (c Change) Label() string { return Item{Kind: c.Kind, Name: c.Name}.Label() }

// Report is the outcome of Compare.
type Report struct {
	Old     string   `json:"old"` // where each set came from
	New     string   `json:"new"`
	Same    int      `json:"same"` // items unchanged
	Changes []Change `json:"changes"`
}

// Equal reports whether nothing changed.
func (r *Report) Equal() bool { return len(r.Changes) == 0 }

// Compare matches the items of old and new by kind and name, in old's order and then the
// order of the items new adds. An item is changed when its hash differs; its differences are
// the places where the definitions differ (objects by member, arrays by position).
func Compare(old, new *Set) *Report {
	rep := &Report{Old: old.Source, New: new.Source, Changes: []Change{}}
	newBy := map[string]Item{}
	for _, it := range new.Items {
		newBy[it.Key()] = it
	}
	oldKeys := map[string]bool{}
	for _, o := range old.Items {
		oldKeys[o.Key()] = true
		n, ok := newBy[o.Key()]
		switch {
		case !ok:
			rep.Changes = append(rep.Changes, Change{Status: Removed, Kind: o.Kind, Name: o.Name, OldHash: o.Hash, Old: o.Definition})
		case n.Hash == o.Hash:
			rep.Same++
		default:
			rep.Changes = append(rep.Changes, ItemChange(o, n))
		}
	}
	for _, n := range new.Items {
		if !oldKeys[n.Key()] {
			rep.Changes = append(rep.Changes, Change{Status: Added, Kind: n.Kind, Name: n.Name, NewHash: n.Hash, New: n.Definition})
		}
	}
	return rep
}

// ItemChange is the change between two definitions of one item.
func ItemChange(o, n Item) Change {
	c := Change{Status: Changed, Kind: o.Kind, Name: o.Name, OldHash: o.Hash, NewHash: n.Hash, Old: o.Definition, New: n.Definition}
	for _, d := range recordings.Diff(o.Definition, n.Definition, nil) {
		c.Differences = append(c.Differences, Difference{Path: d.Path, Old: d.Recorded, New: d.Live})
	}
	return c
}

// maxShown bounds how much of a value that is not a string a report line shows; strings
// are shown whole, since the change that matters may be at the end of a long description.
const maxShown = 300

// WriteText writes the report for a terminal: one paragraph per change, each difference a
// JSON pointer with its old and new values. Values are JSON, with control, format and other
// invisible characters escaped (\u…) so that nothing a server wrote can hide from the reader
// or move the cursor.
func (r *Report) WriteText(w io.Writer) {
	if r.Equal() {
		fmt.Fprintf(w, "no changes: %d %s the same\n", r.Same, plural(r.Same, "item is", "items are"))
		return
	}
	for _, c := range r.Changes {
		switch c.Status {
		case Added:
			fmt.Fprintf(w, "+ added %s (%s)\n    %s\n", c.Label(), c.NewHash, Shown(c.New, maxShown))
		case Removed:
			fmt.Fprintf(w, "- removed %s (%s)\n    %s\n", c.Label(), c.OldHash, Shown(c.Old, maxShown))
		case Changed:
			fmt.Fprintf(w, "~ changed %s (%s → %s)\n", c.Label(), c.OldHash, c.NewHash)
			for _, d := range c.Differences {
				fmt.Fprintln(w, "    "+d.String())
			}
		}
	}
	fmt.Fprintf(w, "%d added, %d removed, %d changed, %d unchanged\n", r.count(Added), r.count(Removed), r.count(Changed), r.Same)
}

func (r *Report) count(s Status) int {
	n := 0
	for _, c := range r.Changes {
		if c.Status == s {
			n++
		}
	}
	return n
}

func (d Difference) String() string {
	p := d.Path
	if p == "" {
		p = "(whole definition)"
	}
	switch {
	case d.Old == nil:
		return fmt.Sprintf("%s: added %s", p, Shown(d.New, maxShown))
	case d.New == nil:
		return fmt.Sprintf("%s: removed %s", p, Shown(d.Old, maxShown))
	}
	return fmt.Sprintf("%s: %s → %s", p, Shown(d.Old, maxShown), Shown(d.New, maxShown))
}

// Shown renders a JSON value for a report: a string whole, anything else cut to max bytes,
// with every character that is not a visible one (controls, format characters such as
// bidirectional overrides and zero-width spaces, tag characters) escaped as \u….
func Shown(v json.RawMessage, max int) string {
	if v == nil {
		return "(absent)"
	}
	var c bytes.Buffer
	if json.Compact(&c, v) == nil {
		v = c.Bytes() // a definition's own layout (newlines, indents) is not part of it
	}
	s := string(v)
	if !strings.HasPrefix(s, `"`) && len(s) > max {
		cut := max
		for cut > 0 && !utf8RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return escapeInvisible(s)
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

func escapeInvisible(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == ' ' || (unicode.IsPrint(r) && !unicode.Is(unicode.Cf, r)) || r == '…' {
			b.WriteRune(r)
			continue
		}
		if r > 0xFFFF {
			for _, u := range []rune{0xD800 + (r-0x10000)>>10, 0xDC00 + (r-0x10000)&0x3FF} {
				b.WriteString(`\u` + strconv.FormatInt(int64(u), 16))
			}
			continue
		}
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
