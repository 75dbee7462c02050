package form

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// Styles are every style the form draws with. The parent passes its own (built from its
// palette); DefaultStyles is a plain set for tests and standalone use.
type Styles struct {
	Label, Required, Value, Placeholder, Hint, Help lipgloss.Style
	Error, OK, Marked, Cursor, Choice, ChoiceActive lipgloss.Style
	Button, ButtonFocused, Title, Dialog            lipgloss.Style
}

// DefaultStyles is a readable style set that needs no palette.
func DefaultStyles() Styles {
	n := lipgloss.NewStyle
	c := lipgloss.Color
	return Styles{
		Label:         n().Bold(true),
		Required:      n().Foreground(c("#FF5F5F")),
		Value:         n(),
		Placeholder:   n().Foreground(c("#767676")),
		Hint:          n().Foreground(c("#8A8A8A")),
		Help:          n().Foreground(c("#A8A8A8")).Italic(true),
		Error:         n().Foreground(c("#FF5F5F")),
		OK:            n().Foreground(c("#5FD787")),
		Marked:        n().Foreground(c("#FFD75F")),
		Cursor:        n().Foreground(c("#FFAF5F")).Bold(true),
		Choice:        n(),
		ChoiceActive:  n().Foreground(c("#FFAF5F")).Bold(true),
		Button:        n().Foreground(c("#A8A8A8")),
		ButtonFocused: n().Foreground(c("#FFAF5F")).Bold(true).Reverse(true),
		Title:         n().Bold(true),
		Dialog:        n().Foreground(c("#FFD75F")).Bold(true),
	}
}

// View draws the form at exactly the size given to SetSize.
func (m *Model) View() string {
	if m.mode == modeJSON {
		return m.viewJSON()
	}
	bodyH := m.height - 1
	var lines []string
	for i := range m.rows {
		lines = append(lines, m.rowLine(i))
		if i == m.focus {
			lines = append(lines, m.expansion()...)
		}
	}
	end := min(m.offset+bodyH, len(lines))
	out := make([]string, 0, m.height)
	if m.offset < end {
		out = append(out, lines[m.offset:end]...)
	}
	for len(out) < bodyH {
		out = append(out, "")
	}
	out = append(out, m.footer())
	return m.fitAll(out)
}

// fitAll cuts or pads every line to the width and joins them.
func (m *Model) fitAll(lines []string) string {
	for i, l := range lines {
		lines[i] = textfmt.Pad(textfmt.Clip(l, m.width), m.width)
	}
	return strings.Join(lines, "\n")
}

// clampScroll keeps the focused row and what is drawn under it on screen, and scrolls no
// further than the last line needs.
func (m *Model) clampScroll() {
	bodyH := m.height - 1
	start := m.focus
	end := start + 1 + len(m.expansion())
	m.offset = min(m.offset, len(m.rows)+end-start-1-bodyH) // the lines View draws, less a page
	if end-m.offset > bodyH {
		m.offset = end - bodyH
	}
	if start < m.offset {
		m.offset = start
	}
	m.offset = max(m.offset, 0)
}

// rowLine draws row i.
func (m *Model) rowLine(i int) string {
	r, st := m.rows[i], &m.st
	cur := "  "
	if i == m.focus {
		cur = st.Cursor.Render("▸ ")
	}
	indent := strings.Repeat("  ", r.depth)
	switch r.kind {
	case rowSubmit:
		b := st.Button
		if i == m.focus {
			b = st.ButtonFocused
		}
		return cur + b.Render("[ Send ]")
	case rowExtra:
		names := make([]string, len(r.f.extra))
		for j, e := range r.f.extra {
			names[j] = e.name
		}
		return cur + indent + st.Marked.Render("⟨kept as JSON⟩ "+jsonview.Visible(strings.Join(names, ", ")))
	}
	f := r.f
	label := st.Label.Render(jsonview.Visible(r.label))
	switch {
	case f.member && i == m.focus && m.mode == modeEdit && m.editKey:
		label = m.input.View() // the key being typed
	case f.member && f.name == "":
		label = st.Placeholder.Render("key")
	case f.required && f.name != "" && !f.member:
		label += st.Required.Render("*")
	}
	line := cur + indent + label + st.Hint.Render(": ")
	if i == m.focus && m.mode == modeEdit && !m.editKey && !f.multiline {
		return line + m.input.View()
	}
	line += m.valueText(f)
	if probs := m.byPtr[f.pointer()]; len(probs) > 0 {
		line += "  " + st.Error.Render("✗ "+probs[0])
	}
	return line
}

// valueText draws a field's value for its row.
func (m *Model) valueText(f *field) string {
	st := &m.st
	if f.raw != nil {
		return st.Marked.Render("⟨kept as JSON⟩ " + string(f.raw))
	}
	if f.null {
		return st.Value.Render("null")
	}
	switch f.s.Kind {
	case KindString:
		if f.text == "" {
			if f.present {
				return st.Hint.Render(`""`)
			}
			return st.Placeholder.Render(placeholder(f.s))
		}
		first, rest, multi := strings.Cut(f.text, "\n")
		v := m.textStyle(f).Render(first)
		if multi {
			v += st.Hint.Render(fmt.Sprintf(" …(%d lines)", strings.Count(rest, "\n")+2))
		}
		if f.s.Format != "" {
			v += st.Hint.Render("  ‹" + f.s.Format + "›")
		}
		return v + m.defaultTag(f)
	case KindNumber, KindInteger, KindAny:
		if strings.TrimSpace(f.text) == "" {
			return st.Placeholder.Render(placeholder(f.s))
		}
		return m.textStyle(f).Render(f.text) + m.defaultTag(f)
	case KindBoolean:
		switch {
		case !f.present:
			return st.Placeholder.Render("[ ] unset")
		case f.on:
			return st.Value.Render("[x] true")
		}
		return st.Value.Render("[ ] false")
	case KindEnum:
		if f.choice >= 0 && f.choice < len(f.s.Options) {
			return st.Value.Render("‹" + jsonview.Visible(optionTitle(f.s.Options[f.choice])) + "›")
		}
		return st.Placeholder.Render("‹choose›")
	case KindConst:
		return st.Hint.Render(string(f.s.Const) + " (fixed)")
	case KindNull:
		return st.Hint.Render("null")
	case KindObject:
		if f.collapsed {
			return st.Hint.Render("{…} recursive: enter to open")
		}
		if len(f.kids) == 0 && len(f.extra) == 0 {
			return st.Hint.Render("{}")
		}
		if absent(f) {
			return st.Hint.Render(hintAbsent) // its defaults are drawn below it, not sent
		}
		return ""
	case KindArray:
		n := len(f.kids)
		s := fmt.Sprintf("%d item", n)
		if n != 1 {
			s += "s"
		}
		if !f.hasValue() {
			s = "unset"
		}
		return st.Hint.Render(s + bounds(f.s.MinItems, f.s.MaxItems))
	case KindVariant:
		if f.variant < len(f.s.Variants) {
			v := st.Value.Render("‹" + jsonview.Visible(variantTitle(f.s.Variants[f.variant], f.variant)) + "›")
			if len(f.kids) == 1 && f.kids[0].s.Kind == KindObject && absent(f) {
				v += st.Hint.Render("  " + hintAbsent) // an object's defaults are drawn below it
			}
			return v
		}
	}
	return ""
}

// absent reports whether f is an optional member of an object that is not sent: nothing
// in it was entered.
func absent(f *field) bool {
	return !f.required && f.parent != nil && f.parent.s.Kind == KindObject && !f.hasValue()
}

// textStyle draws a text field's value: dim while it is what the form filled in and typing
// replaces (the schema default, the value sent last time), plain once the user changed it.
func (m *Model) textStyle(f *field) *lipgloss.Style {
	if f.untouchedDefault() {
		return &m.st.Placeholder
	}
	return &m.st.Value
}

// defaultTag marks a value that typing replaces: the schema default, or the value sent
// last time.
func (m *Model) defaultTag(f *field) string {
	switch {
	case f.untouchedDefault() && f.fromLast:
		return m.st.Hint.Render(" (sent last)")
	case f.untouchedDefault():
		return m.st.Hint.Render(" (default)")
	}
	return ""
}

// bounds writes an items count range, " (1–10)", or nothing.
func bounds(lo, hi *int) string {
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf(" (%d–%d)", *lo, *hi)
	case lo != nil:
		return fmt.Sprintf(" (≥ %d)", *lo)
	case hi != nil:
		return fmt.Sprintf(" (≤ %d)", *hi)
	}
	return ""
}

// placeholder is the grey text an empty field shows: its format or type, with bounds.
func placeholder(s *Schema) string {
	switch s.Kind {
	case KindNumber, KindInteger:
		p := kindName(s.Kind)
		if r := numberRange(s); r != "" {
			p += " " + r
		}
		return p
	case KindAny:
		return "JSON value"
	}
	switch s.Format {
	case "email", "idn-email":
		return "name@example.com"
	case "uri", "iri", "url":
		return "https://…"
	case "uri-reference", "iri-reference":
		return "URI or relative reference"
	case "date":
		return "YYYY-MM-DD"
	case "date-time":
		return "YYYY-MM-DDThh:mm:ssZ"
	case "time":
		return "hh:mm:ssZ"
	case "duration":
		return "P1DT2H"
	case "uuid":
		return "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
	case "ipv4":
		return "192.0.2.1"
	case "ipv6":
		return "2001:db8::1"
	case "hostname", "idn-hostname":
		return "host.example.com"
	case "":
		return "text"
	}
	return s.Format
}

// numberRange writes a number's bounds, "[-1000, 1000]", "> 0", or nothing.
func numberRange(s *Schema) string {
	f := func(p *float64) string { return boundText(*p) }
	var parts []string
	switch {
	case s.Minimum != nil:
		parts = append(parts, "≥ "+f(s.Minimum))
	case s.ExclusiveMinimum != nil:
		parts = append(parts, "> "+f(s.ExclusiveMinimum))
	}
	switch {
	case s.Maximum != nil:
		parts = append(parts, "≤ "+f(s.Maximum))
	case s.ExclusiveMaximum != nil:
		parts = append(parts, "< "+f(s.ExclusiveMaximum))
	}
	if s.MultipleOf != nil {
		parts = append(parts, "×"+f(s.MultipleOf))
	}
	return strings.Join(parts, ", ")
}

// expansion is what is drawn under the focused row: the multi-line editor, the open
// choice list, the field's problems and its description.
func (m *Model) expansion() []string {
	r, st := m.focusedRow(), &m.st
	pad := "    " + strings.Repeat("  ", r.depth)
	width := max(m.width-len(pad), 10)
	var out []string
	if r.kind == rowSubmit {
		for i, p := range m.problems {
			if i == 8 {
				out = append(out, pad+st.Error.Render(fmt.Sprintf("… and %d more", len(m.problems)-i)))
				break
			}
			out = append(out, pad+st.Error.Render("✗ "+p.String()))
		}
		return out
	}
	if r.kind == rowExtra {
		return []string{pad + st.Help.Render("members the schema does not describe; enter: JSON view, x: drop them")}
	}
	f := r.f
	if m.mode == modeEdit && !m.editKey && f.multiline {
		for _, l := range strings.Split(m.area.View(), "\n") {
			out = append(out, pad+l)
		}
	}
	out = append(out, m.suggestionLines(pad)...)
	if m.mode == modeChoose {
		for i, c := range m.choicesOf(f) {
			if i == m.choice {
				out = append(out, pad+st.ChoiceActive.Render("● "+jsonview.Visible(c)))
			} else {
				out = append(out, pad+st.Choice.Render("○ "+jsonview.Visible(c)))
			}
		}
	}
	if probs := m.byPtr[f.pointer()]; len(probs) > 1 {
		for _, p := range probs[1:] {
			out = append(out, pad+st.Error.Render("✗ "+p))
		}
	}
	if note := m.notes[f.pointer()]; note != "" {
		out = append(out, pad+st.Help.Render("⇢ "+note))
	}
	if h := m.typingHint(f); h != "" {
		for _, l := range strings.Split(textfmt.Wrap(h, width), "\n") {
			out = append(out, pad+st.Hint.Render(l))
		}
	}
	for _, l := range helpLines(f, width, m.keys.Null.Help().Key) {
		out = append(out, pad+st.Help.Render(l))
	}
	return out
}

// helpLines is a field's help: title, description and constraints, wrapped, at most four
// lines; nullKey is the key that makes a nullable field null.
func helpLines(f *field, width int, nullKey string) []string {
	var parts []string
	if f.s.Title != "" && f.s.Title != f.name {
		parts = append(parts, f.s.Title+".")
	}
	if f.s.Description != "" {
		parts = append(parts, f.s.Description)
	}
	var c []string
	if r := numberRange(f.s); r != "" && (f.s.Kind == KindNumber || f.s.Kind == KindInteger) {
		c = append(c, r)
	}
	if f.s.MinLength != nil || f.s.MaxLength != nil {
		c = append(c, "length"+bounds(f.s.MinLength, f.s.MaxLength))
	}
	if f.s.Nullable {
		c = append(c, nullKey+": null")
	}
	if f.s.Ref != "" {
		c = append(c, f.s.Ref)
	}
	if len(c) > 0 {
		parts = append(parts, "("+strings.Join(c, "; ")+")")
	}
	if len(parts) == 0 {
		return nil
	}
	lines := strings.Split(textfmt.Wrap(jsonview.VisibleProse(strings.Join(parts, " ")), width), "\n")
	if len(lines) > 4 {
		lines = append(lines[:3], strings.TrimRight(lines[3], " ")+"…")
	}
	return lines
}

// replaceHint and replaceLastHint say what editing a field that holds its untouched
// default, or the value sent last time, does.
const (
	replaceHint     = "the default is selected: typing replaces it · ←/→ keep it to edit"
	replaceLastHint = "the value sent last is selected: typing replaces it · ←/→ keep it to edit"
)

// footer is the confirmation question, a status message, the replace hint, or the problem
// summary.
func (m *Model) footer() string {
	st := &m.st
	switch {
	case m.mode == modeConfirm:
		return st.Dialog.Render(fmt.Sprintf("arguments do not match the schema (%s) — send anyway? y/n", textfmt.Plural(len(m.problems), "problem")))
	case m.status != "":
		return st.Error.Render(m.status)
	case m.mode == modeEdit && m.replace:
		if f := m.focused(); f != nil && f.fromLast {
			return st.Hint.Render(replaceLastHint)
		}
		return st.Hint.Render(replaceHint)
	case m.mode == modeJSON && m.json.HasSelection():
		return st.Hint.Render(jsonSelectedHint)
	case len(m.problems) > 0:
		parts := make([]string, len(m.problems))
		for i, p := range m.problems {
			parts[i] = p.String()
		}
		return st.Error.Render("✗ " + textfmt.Plural(len(m.problems), "problem") + ": " + strings.Join(parts, " · "))
	}
	return st.OK.Render("✓ arguments match the schema")
}

// viewJSON draws the JSON view: a title, the editor, and what cannot be applied or kept.
func (m *Model) viewJSON() string {
	st := &m.st
	k := m.keys
	hint := "  " + k.JSON.Help().Key + "/" + k.Commit.Help().Key + " back · " + k.SelectAll.Help().Key + " select all · " +
		k.Editor.Help().Key + " $EDITOR" // send is in the help line

	out := []string{st.Title.Render("Arguments as JSON") + st.Hint.Render(hint)}
	ta := strings.Split(m.json.View(), "\n")
	h := max(m.height-3, 1)
	for i := 0; i < h; i++ {
		if i < len(ta) {
			out = append(out, ta[i])
		} else {
			out = append(out, "")
		}
	}
	switch marked := m.jsonMarked; {
	case m.jsonErr != "":
		out = append(out, st.Error.Render(m.jsonErr))
	case len(marked) > 0:
		out = append(out, st.Marked.Render("kept as JSON, the form cannot show: "+strings.Join(marked, ", ")))
	default:
		out = append(out, "")
	}
	out = append(out, m.footer())
	return m.fitAll(out[:m.height])
}

// boundText writes a bound as a schema writes it: whole numbers in full (≤ 9007199254740991,
// not 9.007199254740991e+15), others in the shortest form that reads back the same.
func boundText(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
