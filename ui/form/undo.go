package form

import (
	"bytes"
	"encoding/json"
	"slices"
)

// maxUndo bounds how many changes u can take back.
const maxUndo = 20

// undoStep is the form as it was before a change that threw values away.
type undoStep struct {
	root  *field
	focus int
	what  string
}

// remember keeps the form as it is now, before what: a clear, a delete, JSON applied.
func (m *Model) remember(what string) {
	if len(m.undo) == maxUndo {
		m.undo = slices.Delete(m.undo, 0, 1)
	}
	m.undo = append(m.undo, undoStep{root: m.root.clone(nil), focus: m.focus, what: what})
}

// rememberUnless remembers the form before JSON text replaces it, unless the text is the
// form's value already (the JSON view closed unchanged); it reports whether it remembered.
func (m *Model) rememberUnless(text, what string) bool {
	var a, b bytes.Buffer
	if v, err := m.formValue(); err == nil && json.Compact(&a, v) == nil && json.Compact(&b, []byte(text)) == nil && bytes.Equal(a.Bytes(), b.Bytes()) {
		return false
	}
	m.remember(what)
	return true
}

// undoLast puts the form back as it was before the last change remember kept.
func (m *Model) undoLast() {
	n := len(m.undo)
	if n == 0 {
		return
	}
	u := m.undo[n-1]
	m.undo = m.undo[:n-1]
	m.root = u.root
	m.changed()
	m.focus = max(0, min(u.focus, len(m.rows)-1))
	m.clampScroll()
	m.status = "undone: " + u.what
}

// undoEdit takes back what was typed since the edit in progress began: the text is again
// what the field held, and a default the field still holds is again selected.
func (m *Model) undoEdit() {
	if m.editingMultiline() {
		m.area.SetValue(m.editFrom)
	} else {
		m.input.SetValue(m.editFrom)
		m.input.CursorEnd()
	}
	f := m.focused()
	m.replace = !m.editKey && f != nil && f.untouchedDefault()
	m.checkTyped()
}

// clone is a deep copy of f and what it holds, its parent set to parent. Kept JSON is
// shared: it is replaced, never changed in place.
func (f *field) clone(parent *field) *field {
	c := *f
	c.parent = parent
	c.kids = make([]*field, len(f.kids))
	for i, k := range f.kids {
		c.kids[i] = k.clone(&c)
	}
	if f.alts != nil {
		c.alts = make(map[int]*field, len(f.alts))
		for i, a := range f.alts {
			if len(f.kids) == 1 && a == f.kids[0] {
				c.alts[i] = c.kids[0]
			} else {
				c.alts[i] = a.clone(&c)
			}
		}
	}
	c.extra = slices.Clone(f.extra)
	return &c
}
