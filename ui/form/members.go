package form

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"
)

// Map objects: an object whose schema takes members beyond its properties (Schema.Additional:
// additionalProperties, patternProperties) lets the user add members by a key of their
// choice. A member is a kid with member set: its name is the key, edited in an object-key
// input (every printable key is text there too), its value a field typed by Additional.
// ctrl+n (or enter, or typing, on the object's row) adds one and asks for its key; f2
// renames it; ctrl+k deletes it. A key that is empty or already taken is a problem shown on
// the form; the member is left out of the arguments until it is fixed, never merged.
// A nested object that declares no members at all is such a map, of any values (freeForm).

// isMap reports whether f is an object the user can add members to.
func isMap(f *field) bool {
	return f != nil && f.s.Kind == KindObject && f.s.Additional != nil && f.raw == nil && !f.collapsed
}

// declared is kids without the members the user added.
func declared(kids []*field) []*field {
	return slices.DeleteFunc(kids, func(k *field) bool { return k.member })
}

// newMember makes a member of the map f, keyed name, its value the schema default if any.
func (f *field) newMember(name string) *field {
	k := newField(f.s.Additional, f, name, true, true, append(f.ancestors(), f.s))
	if k.collapsed { // a member the user asks for opens one level, even when recursive
		k.expand(true, append(f.ancestors(), f.s))
	}
	k.member = true
	return k
}

// keysTaken is the keys of the map f that a member added by the user cannot have: its
// properties' and those of the members kept as JSON.
func (f *field) keysTaken() map[string]bool {
	taken := map[string]bool{}
	for _, k := range f.kids {
		if !k.member {
			taken[k.name] = true
		}
	}
	for _, e := range f.extra {
		taken[e.name] = true
	}
	return taken
}

// memberProblem reports a member the arguments leave out: no key yet, a key already taken
// (by a property or an earlier member: taken, which gains f's key), or no value yet. The
// problem is added to probs.
func (f *field) memberProblem(taken map[string]bool, probs *[]Problem) bool {
	p := f.parent
	switch {
	case f.name == "":
		*probs = append(*probs, Problem{f.pointer(), "no key yet (left out): type one (f2), or delete the member"})
	case taken[f.name]:
		*probs = append(*probs, Problem{p.pointer(), fmt.Sprintf("key %q is taken (left out): rename the second one (f2) or delete it", f.name)})
	case f.unsetText():
		taken[f.name] = true
		*probs = append(*probs, Problem{f.pointer(), "no value yet (left out): type one, or delete the member"})
	default:
		taken[f.name] = true
		return false
	}
	return true
}

// addsMember reports whether ctrl+n adds a map member (rather than an array item, or
// nothing) where the focus is.
func (m *Model) addsMember() bool {
	if f := m.focused(); f != nil && f.s.Kind == KindArray && f.raw == nil {
		return false
	}
	mp, _ := m.mapAt()
	return mp != nil
}

// add is ctrl+n: a new item in the focused array or the one the focus is in, or a new
// member of the focused map or the one the focus is in, whichever is nearest.
func (m *Model) add() tea.Cmd {
	if m.addsMember() {
		return m.addMember(m.mapAt())
	}
	m.addItem()
	return nil
}

// entryAt is the array item or map member the focus is in, nearest first.
func (m *Model) entryAt() *field {
	for c := m.focused(); c != nil && c.parent != nil; c = c.parent {
		if c.parent.s.Kind == KindArray || c.member {
			return c
		}
	}
	return nil
}

// mapAt is the map a new member goes into, and the member to add it after (nil: at the
// end): the focused map itself, or the map of the member the focus is in; on the Send
// button, arguments that are a map.
func (m *Model) mapAt() (mp, after *field) {
	f := m.focused()
	switch {
	case f == nil && m.focusedRow().kind == rowSubmit:
		if isMap(m.root) {
			return m.root, nil
		}
		return nil, nil
	case f != nil && f.s.Kind == KindObject && f.s.Additional != nil && f.raw == nil:
		return f, nil
	}
	if e := m.entryAt(); e != nil && e.member {
		return e.parent, e
	}
	return nil, nil
}

// addMember adds a member to the map the focus is in and opens its key for typing.
func (m *Model) addMember(mp, after *field) tea.Cmd {
	if mp.null {
		mp.null = false
	}
	if mp.collapsed {
		mp.expand(false, mp.ancestors())
	}
	k := mp.newMember("")
	if i := mp.indexOf(after); i >= 0 {
		mp.kids = slices.Insert(mp.kids, i+1, k)
	} else {
		mp.kids = append(mp.kids, k)
	}
	mp.present, mp.edited = true, true
	m.changed()
	m.focusField(k)
	return m.startKeyEdit(k)
}

// startKeyEdit opens the object-key input on the focused member.
func (m *Model) startKeyEdit(f *field) tea.Cmd {
	m.mode, m.replace, m.editKey, m.editFrom = modeEdit, false, true, f.name
	m.input.SetValue(f.name)
	m.input.Placeholder = "key"
	m.input.CursorEnd()
	m.clampScroll()
	return m.input.Focus()
}

// commitKey stores the typed key as the member's name and leaves the key input; next
// reports whether the value should be edited at once (enter on a key, the value text).
func (m *Model) commitKey(next bool) tea.Cmd {
	f := m.focused()
	m.input.Blur()
	m.mode, m.editKey = modeNavigate, false
	if f == nil {
		return nil
	}
	f.name = m.input.Value()
	m.changed()
	if next && typable(f) {
		return m.activate()
	}
	return nil
}

// deleteEntry removes the array item or map member the focus is in.
func (m *Model) deleteEntry() {
	it := m.entryAt()
	if it == nil {
		return
	}
	m.remember("delete " + labelOf(it))
	p := it.parent
	i := p.indexOf(it)
	p.kids = slices.Delete(p.kids, i, i+1)
	p.edited = true
	m.changed()
	var rest []*field
	for _, k := range p.kids {
		if p.s.Kind == KindArray || k.member {
			rest = append(rest, k)
		}
	}
	if len(rest) == 0 {
		m.focusField(p)
		return
	}
	j := min(i, len(p.kids)-1)
	m.focusField(p.kids[j])
}
