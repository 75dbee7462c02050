package form

import (
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

type rowKind int

const (
	rowField  rowKind = iota // a field: its label and value, or a section header
	rowExtra                 // an object's members kept as JSON
	rowSubmit                // the Send button
)

// row is one line of the form.
type row struct {
	f     *field
	kind  rowKind
	depth int
	label string
}

// rebuild lays the field tree out as rows, keeping the focus on the same field.
func (m *Model) rebuild() {
	var keep *field
	keepKind, first := rowSubmit, len(m.rows) == 0
	if m.focus < len(m.rows) {
		keep, keepKind = m.rows[m.focus].f, m.rows[m.focus].kind
	}
	m.rows = m.rows[:0]
	if r := m.root; r.s.Kind == KindObject && r.raw == nil && !r.null {
		m.members(r, 0)
	} else {
		m.addRows(r, 0, "arguments")
	}
	m.rows = append(m.rows, row{kind: rowSubmit})
	m.focus = min(m.focus, len(m.rows)-1)
	for i, r := range m.rows {
		if !first && r.f == keep && r.kind == keepKind {
			m.focus = i
			break
		}
	}
	m.clampScroll()
}

// addRows adds f's row and the rows of what it contains.
func (m *Model) addRows(f *field, depth int, label string) {
	m.rows = append(m.rows, row{f: f, depth: depth, label: label})
	if f.raw != nil || f.null {
		return
	}
	switch f.s.Kind {
	case KindObject:
		m.members(f, depth+1)
	case KindArray:
		for i, k := range f.kids {
			m.addRows(k, depth+1, fmt.Sprintf("[%d]", i))
		}
	case KindVariant:
		if len(f.kids) == 1 {
			if k := f.kids[0]; k.s.Kind == KindObject && k.raw == nil && !k.null {
				m.members(k, depth+1)
			} else {
				m.addRows(k, depth+1, "value")
			}
		}
	}
}

// members adds the rows of an object's members.
func (m *Model) members(f *field, depth int) {
	if f.collapsed {
		return
	}
	for _, k := range f.kids {
		m.addRows(k, depth, k.name)
	}
	if len(f.extra) > 0 {
		m.rows = append(m.rows, row{f: f, kind: rowExtra, depth: depth})
	}
}

// focusedRow is the row in focus.
func (m *Model) focusedRow() row {
	if m.focus < 0 || m.focus >= len(m.rows) {
		return row{kind: rowSubmit}
	}
	return m.rows[m.focus]
}

// focused is the field in focus, nil on the Send button and on kept JSON.
func (m *Model) focused() *field {
	if r := m.focusedRow(); r.kind == rowField {
		return r.f
	}
	return nil
}

// enclosingItem is the array item the focused field is, or is inside of.
func (m *Model) enclosingItem() *field {
	for c := m.focused(); c != nil && c.parent != nil; c = c.parent {
		if c.parent.s.Kind == KindArray {
			return c
		}
	}
	return nil
}

// move shifts the focus by d rows.
func (m *Model) move(d int) {
	m.mode = modeNavigate
	m.focus = (m.focus + d + len(m.rows)) % len(m.rows)
	m.clampScroll()
}

// focusField moves the focus to f's row.
func (m *Model) focusField(f *field) {
	for i, r := range m.rows {
		if r.f == f && r.kind == rowField {
			m.focus = i
		}
	}
	m.clampScroll()
}

// changed lays out and checks the form again after its value changed.
func (m *Model) changed() {
	m.rebuild()
	m.revalidate()
}

// activate is enter on the focused row.
func (m *Model) activate() tea.Cmd {
	r := m.focusedRow()
	switch r.kind {
	case rowSubmit:
		return m.submit()
	case rowExtra:
		m.openJSON()
		return nil
	}
	f := r.f
	if f.raw != nil {
		return m.startEdit(f, string(f.raw))
	}
	if f.null {
		f.null = false
	}
	switch f.s.Kind {
	case KindString, KindNumber, KindInteger, KindAny:
		cmd := m.startEdit(f, f.text)
		if f.untouchedDefault() {
			// Typing replaces the default (as if it were selected); a cursor key keeps it
			// to edit.
			m.replace = true
		}
		return tea.Batch(cmd, m.ask())
	case KindBoolean:
		m.toggle()
	case KindEnum, KindVariant:
		if len(m.choicesOf(f)) > 0 {
			m.mode, m.choice = modeChoose, max(f.choice, 0)
			if f.s.Kind == KindVariant {
				m.choice = f.variant
			}
		}
	case KindObject:
		if f.collapsed {
			f.expand(false, f.ancestors())
		} else if f.s.Additional != nil {
			return m.addMember(f, nil) // as enter on an array adds an item
		}
	case KindArray:
		m.addItem()
	}
	m.changed()
	return nil
}

// startEdit opens the text editor on f with text.
func (m *Model) startEdit(f *field, text string) tea.Cmd {
	m.mode, m.replace, m.editKey, m.editFrom = modeEdit, false, false, text
	if f.multiline {
		m.area.SetValue(text)
		m.area.SetWidth(max(m.width-2*m.focusedRow().depth-4, 10))
		m.area.SetHeight(editorLines)
		return m.area.Focus()
	}
	r := m.focusedRow()
	used := 2 + 2*r.depth + ansi.StringWidth(r.label) + 3
	m.input.SetWidth(max(m.width-used-1, 4))
	m.input.SetValue(text)
	m.input.Placeholder = placeholder(f.s)
	m.input.CursorEnd()
	return m.input.Focus()
}

// editorLines is the height of the multi-line editor.
const editorLines = 6

// editingMultiline reports whether the edit in progress uses the multi-line editor.
func (m *Model) editingMultiline() bool {
	f := m.focused()
	return m.mode == modeEdit && !m.editKey && f != nil && f.multiline
}

// commit stores the edited text in the focused field and leaves editing.
func (m *Model) commit() {
	if m.mode != modeEdit {
		return
	}
	if m.editKey {
		m.commitKey(false)
		return
	}
	f := m.focused()
	text := m.input.Value()
	if m.editingMultiline() {
		text = m.area.Value()
	}
	m.input.Blur()
	m.area.Blur()
	m.mode, m.replace = modeNavigate, false
	m.clearSuggestions()
	if f == nil {
		return
	}
	if f.raw != nil {
		f.raw = nil
		if json.Valid([]byte(text)) && f.s.Kind != KindString {
			f.set(json.RawMessage(text), f.ancestors())
			m.changed()
			return
		}
	}
	f.null = false
	f.edited = f.edited || text != f.text
	f.text = text
	f.present = strings.TrimSpace(text) != "" || f.s.Kind == KindString && (text != "" || f.present && f.required)
	m.changed()
}

// toggle flips a boolean; an unset one becomes true.
func (m *Model) toggle() {
	f := m.focused()
	if f == nil || f.s.Kind != KindBoolean || f.raw != nil {
		return
	}
	f.on = !f.present || f.null || !f.on
	f.present, f.null, f.edited = true, false, true
	m.changed()
}

// toggleNull switches a nullable field between null and its value.
func (m *Model) toggleNull() {
	f := m.focused()
	if f == nil || !f.s.Nullable {
		return
	}
	f.null, f.raw, f.present, f.edited = !f.null, nil, true, true
	m.changed()
}

// clearField removes the focused field's value (or an object's kept JSON members).
func (m *Model) clearField() {
	r := m.focusedRow()
	switch {
	case r.kind == rowExtra:
		m.remember("clear " + labelOf(r.f))
		r.f.extra = nil
	case r.kind == rowField && r.f.s.Kind != KindConst:
		m.remember("clear " + labelOf(r.f))
		r.f.clear()
		r.f.present = r.f.s.Kind == KindBoolean && r.f.required
	default:
		return
	}
	m.changed()
}

// addItem appends an item to the focused array, or inserts one after the focused item.
func (m *Model) addItem() {
	arr, at := m.focused(), -1
	if arr == nil || arr.s.Kind != KindArray || arr.raw != nil {
		it := m.enclosingItem()
		if it == nil {
			return
		}
		arr, at = it.parent, it.parent.indexOf(it)
	}
	if mx := arr.s.MaxItems; mx != nil && len(arr.kids) >= *mx {
		m.status = fmt.Sprintf("%s takes at most %d items", labelOf(arr), *mx)
		return
	}
	if arr.null {
		arr.null = false
	}
	k := arr.newItem()
	if at < 0 {
		arr.kids = append(arr.kids, k)
	} else {
		arr.kids = append(arr.kids[:at+1], append([]*field{k}, arr.kids[at+1:]...)...)
	}
	arr.present, arr.edited = true, true
	m.changed()
	m.focusField(k)
}

// moveItem swaps the item the focus is in with its neighbour d away.
func (m *Model) moveItem(d int) {
	it := m.enclosingItem()
	if it == nil {
		return
	}
	arr := it.parent
	i := arr.indexOf(it)
	j := i + d
	if j < 0 || j >= len(arr.kids) {
		return
	}
	arr.kids[i], arr.kids[j] = arr.kids[j], arr.kids[i]
	arr.edited = true
	m.changed()
}

// choicesOf lists the titles an enum or variant field offers.
func (m *Model) choicesOf(f *field) []string {
	var out []string
	switch f.s.Kind {
	case KindEnum:
		for _, o := range f.s.Options {
			out = append(out, optionTitle(o))
		}
	case KindVariant:
		for i, v := range f.s.Variants {
			out = append(out, variantTitle(v, i))
		}
	}
	return out
}

// choices lists what the open choice list offers.
func (m *Model) choices() []string {
	if f := m.focused(); f != nil {
		return m.choicesOf(f)
	}
	return nil
}

// choose picks choice i of the focused enum or variant field.
func (m *Model) choose(i int) {
	m.mode = modeNavigate
	f := m.focused()
	if f == nil || i < 0 || i >= len(m.choicesOf(f)) {
		return
	}
	f.raw, f.null, f.present, f.edited = nil, false, true, true
	if f.s.Kind == KindEnum {
		f.choice = i
	} else if i != f.variant || len(f.kids) == 0 {
		if f.alts == nil {
			f.alts = map[int]*field{}
		}
		if len(f.kids) == 1 {
			f.alts[f.variant] = f.kids[0]
		}
		k := f.alts[i]
		if k == nil {
			k = newField(f.s.Variants[i], f, "", f.required, true, append(f.ancestors(), f.s))
		}
		f.kids, f.variant = []*field{k}, i
	}
	m.changed()
}

// optionTitle is an enum option's title, or its value (strings without quotes).
func optionTitle(o Option) string {
	if o.Title != "" {
		return o.Title
	}
	var s string
	if json.Unmarshal(o.Value, &s) == nil {
		return s
	}
	return string(o.Value)
}

// variantTitle names alternative i: its title, its const discriminator, or its type.
func variantTitle(v *Schema, i int) string {
	if v.Title != "" {
		return v.Title
	}
	for _, p := range v.Properties {
		if p.Schema.Kind == KindConst {
			return p.Name + ": " + optionTitle(Option{Value: p.Schema.Const})
		}
	}
	if v.Kind == KindConst {
		return optionTitle(Option{Value: v.Const})
	}
	if n := kindName(v.Kind); n != "" {
		return n
	}
	return fmt.Sprintf("option %d", i+1)
}

// kindName is the JSON type name of a kind, "" when there is none.
func kindName(k Kind) string {
	return map[Kind]string{KindString: "string", KindNumber: "number", KindInteger: "integer",
		KindBoolean: "boolean", KindNull: "null", KindArray: "array", KindObject: "object"}[k]
}

// labelOf names a field for messages: its property name, or its pointer.
func labelOf(f *field) string {
	if f.name != "" {
		return f.name
	}
	if p := f.pointer(); p != "" {
		return p
	}
	return "the arguments"
}
