package explorer

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// ExplorerSideBySide is the page width from which the explorer's list and detail sit side
// by side; narrower pages stack them.
const ExplorerSideBySide = 100

// explorerHeader is the lines above the list: the tabs, then the filter and notices.
const explorerHeader = 2

// exLayout is where the explorer's list and detail go. Side by side, a space and a divider
// column separate them; Stacked puts a divider line between them, at List.Y+List.H.
type exLayout struct {
	List, Detail Rect
	Stacked      bool
}

// explorerLayout lays out a w×h explorer page; zoom gives the detail the whole body.
// Stacked, the list takes the rows it wants, between 3 lines and 40% of the body.
func explorerLayout(w, h int, zoom bool, rows int) exLayout {
	w, h = max(w, 0), max(h, 0)
	body := max(0, h-explorerHeader)
	switch {
	case zoom:
		return exLayout{Detail: Rect{X: 0, Y: explorerHeader, W: w, H: body}}
	case w >= ExplorerSideBySide:
		lw := min(max(w*2/5, 30), 56)
		return exLayout{List: Rect{X: 0, Y: explorerHeader, W: lw, H: body}, Detail: Rect{X: lw + 2, Y: explorerHeader, W: w - lw - 2, H: body}}
	case body < 6: // no room for a detail below the list
		return exLayout{List: Rect{X: 0, Y: explorerHeader, W: w, H: body}}
	}
	lh := min(max(3, rows), max(3, (body-1)*2/5))
	return exLayout{
		List:    Rect{X: 0, Y: explorerHeader, W: w, H: lh},
		Detail:  Rect{X: 0, Y: explorerHeader + lh + 1, W: w, H: body - lh - 1},
		Stacked: true,
	}
}

// View renders the page: exactly h lines of w cells.
func (x *Explorer) View() string {
	if x.w <= 0 || x.h <= 0 {
		return ""
	}
	s := x.c.Styles
	l := x.layout()
	out := make([]string, 0, x.h)
	out = append(out, x.tabsLine())
	if x.form != nil {
		out = append(out, x.formView(x.w, x.h-1)...)
		return textfmt.FitBlock(strings.Join(out, "\n"), x.w, x.h)
	}
	out = append(out, x.infoLine())
	detail := x.detailWindow(l.Detail)
	switch {
	case x.zoom:
		out = append(out, detail...)
	case l.Stacked:
		out = append(out, x.listLines(l.List.W, l.List.H)...)
		title := "─"
		if it := x.selected(); it != nil {
			title = "─ " + it.label() + " "
		}
		out = append(out, s.HelpSep.Render(title+strings.Repeat("─", max(0, x.w-ansi.StringWidth(title)))))
		out = append(out, detail...)
	case l.Detail.W > 0:
		list := x.listLines(l.List.W, l.List.H)
		sep := " " + s.HelpSep.Render("│")
		for i := range l.List.H {
			out = append(out, textfmt.FitRow(list[i], l.List.W)+sep+textfmt.FitRow(detail[i], l.Detail.W))
		}
	default:
		out = append(out, x.listLines(l.List.W, l.List.H)...)
	}
	return textfmt.FitBlock(strings.Join(out, "\n"), x.w, x.h)
}

// tabsLine is the row of tabs with their counts.
func (x *Explorer) tabsLine() string {
	s := x.c.Styles
	parts := make([]string, 0, len(x.tabs))
	for i, t := range x.tabs {
		st := s.PaneTitle
		if i == x.cur {
			st = s.PaneTitleFocused
		}
		p := st.Render(kindTitle(t.kind) + " " + x.count(t))
		if t.err != nil {
			p += s.BadgeError.Render(" !")
		}
		if t.pinChanged() {
			p += s.BadgeError.Render(" ≠")
		}
		if x.noticeFor(t.kind) {
			p += s.Notification.Render(" •")
		}
		parts = append(parts, p)
	}
	return " " + strings.Join(parts, s.HelpSep.Render(" │ "))
}

// count is a tab's count: items, matches of the filter, or why there are none.
func (x *Explorer) count(t *exTab) string {
	switch {
	case !x.loaded:
		return "…"
	case !t.fetched, t.err != nil && len(t.items) == 0:
		return "–"
	case x.query != "":
		return fmt.Sprintf("%d/%d", len(t.hits), len(t.items))
	}
	return fmt.Sprint(len(t.items))
}

func (x *Explorer) noticeFor(k session.ListKind) bool {
	for _, n := range x.notices {
		if n.kind == k {
			return true
		}
	}
	return false
}

// infoLine is the filter (being typed, or applied) and the list-changed notices.
func (x *Explorer) infoLine() string {
	s := x.c.Styles
	left := ""
	switch {
	case x.filtering:
		left = x.input.View()
	case x.query != "":
		t := x.tab()
		left = s.Accent.Render("/"+x.query) + s.Muted.Render(fmt.Sprintf("  %d of %d", len(t.hits), len(t.items)))
	}
	right := x.noticeText()
	if right == "" {
		return left
	}
	if left == "" {
		return " " + right
	}
	room := max(0, x.w-ansi.StringWidth(left)-2)
	return left + "  " + ansi.Truncate(right, room, "…")
}

// noticeText describes the recent list changes, newest first.
func (x *Explorer) noticeText() string {
	s := x.c.Styles
	var parts []string
	for i := len(x.notices) - 1; i >= 0; i-- {
		n := x.notices[i]
		ago := max(0, x.now.Sub(n.at)).Truncate(time.Second)
		p := s.Notification.Render(fmt.Sprintf("%s list changed: %d → %d", kindNoun(n.kind), n.from, n.to))
		if n.diff != "" {
			p += " " + s.Subtle.Render(n.diff)
		}
		parts = append(parts, p+s.Muted.Render(fmt.Sprintf(" (%ds ago)", int(ago.Seconds()))))
	}
	return strings.Join(parts, s.HelpSep.Render("  ·  "))
}

// errLines is the error message a tab shows above its items, wrapped to w.
func (x *Explorer) errLines(t *exTab, w int) []string {
	if t.err == nil {
		return nil
	}
	return textfmt.WrapProse(x.c.Styles.Error, fmt.Sprintf("could not list %s: %v", kindNoun(t.kind), t.err), " ", w)
}

// listLines renders the current tab's list: exactly h lines.
func (x *Explorer) listLines(w, h int) []string {
	s := x.c.Styles
	t := x.tab()
	lines := x.errLines(t, w)
	if gone := x.pinGoneNote(t); gone != "" {
		lines = append(lines, textfmt.WrapProse(s.Error, gone, " ", w)...)
	}
	note := func(text string) { lines = append(lines, textfmt.WrapProse(s.Muted, text, " ", w)...) }
	switch {
	case !x.loaded:
		note("waiting for the server's lists…")
	case !t.fetched:
		note(x.missingNote(t))
	case len(t.items) == 0 && t.err == nil:
		note("the server lists no " + kindNoun(t.kind))
	case len(t.hits) == 0 && len(t.items) > 0:
		note(fmt.Sprintf("no %s match /%s", kindNoun(t.kind), x.query))
	}
	rows := max(0, h-len(lines))
	end := min(len(t.hits), t.off+rows)
	nameW := x.nameWidth(t, t.off, end, w)
	for i := t.off; i < end; i++ {
		lines = append(lines, x.row(t, i, w, nameW))
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return lines
}

// row renders one list row: the name (matches highlighted), the title or uri, and badges.
// The selected row has a background, so every part is styled with it.
func (x *Explorer) row(t *exTab, i, w, nameW int) string {
	s := x.c.Styles
	h := t.hits[i]
	it := h.it
	sel := i == t.sel
	st := func(base lipgloss.Style) lipgloss.Style {
		if sel {
			return base.Background(s.P.Selected)
		}
		return base
	}
	space := func(n int) string {
		if n <= 0 {
			return ""
		}
		return st(s.Text).Render(strings.Repeat(" ", n))
	}
	gutter := space(1)
	if sel {
		gutter = st(s.Accent).Render("▶")
	}
	name, namePos := clipRunes(it.label(), h.namePos, nameW)
	_, nameEsc := clipRunes(it.label(), it.shown.label.esc, nameW)

	second, secondSt, secondPos, secondEsc := secondColumn(s, h)
	var badges []string
	badgeW := 0
	for _, b := range x.rowBadges(h) {
		if len(badges) > 0 {
			badges = append(badges, space(1))
			badgeW++
		}
		badges = append(badges, st(b.style).Render(b.text))
		badgeW += ansi.StringWidth(b.text)
	}
	midW := max(0, w-1-nameW-2-badgeW)
	_, secondEsc = clipRunes(second, secondEsc, midW)
	second, secondPos = clipRunes(second, secondPos, midW)

	row := gutter +
		highlightRunes(st(s.Text), st(s.Match), name, namePos, nameEsc) + space(nameW-ansi.StringWidth(name)+1) +
		highlightRunes(st(secondSt), st(s.Match), second, secondPos, secondEsc) + space(midW-ansi.StringWidth(second)+1) +
		strings.Join(badges, "")
	if n := ansi.StringWidth(row); n < w {
		row += space(w - n)
	} else if n > w {
		row = ansi.Truncate(row, w, "")
	}
	return row
}

// secondColumn is what a list row shows after the name: the title (a resource's uri, a
// template's uri template), or why the item is invalid; with the runes a filter matched and
// those of escapes.
func secondColumn(s *Styles, h exHit) (text string, st lipgloss.Style, match, esc []int) {
	it := h.it
	switch {
	case it.invalid != "":
		return it.invalid, s.Error, nil, nil
	case it.kind == session.ListResources:
		return it.shown.uri.text, s.Muted, nil, it.shown.uri.esc
	case it.kind == session.ListTemplates:
		return it.shown.uriTemplate.text, s.Muted, nil, it.shown.uriTemplate.esc
	case it.name != "":
		return it.shown.title.text, s.Subtle, h.titlePos, it.shown.title.esc
	}
	return "", s.Muted, nil, nil
}

// rowBadges are the badges a list row ends with.
func (x *Explorer) rowBadges(h exHit) []badge {
	marks := append(append(x.pinBadge(h.it), x.badges(h.it)...), x.tokenBadge(h.it)...)
	if h.inDesc {
		marks = append([]badge{{"in description", x.c.Styles.Muted}}, marks...)
	}
	return marks
}

// nameWidth is the width of the name column of rows from to end: the widest name when the
// rest of each row still fits beside it, else as much as the second column leaves, but at
// least 45% of the row.
func (x *Explorer) nameWidth(t *exTab, from, end, w int) int {
	need := 0 // the widest second column and badges, with their spaces
	for i := from; i < end; i++ {
		h := t.hits[i]
		second, _, _, _ := secondColumn(x.c.Styles, h)
		n := ansi.StringWidth(second) + 2
		for j, b := range x.rowBadges(h) {
			n += ansi.StringWidth(b.text)
			if j > 0 {
				n++
			}
		}
		need = max(need, n)
	}
	return min(t.nameW, max(8, (w-1)*45/100, w-1-need))
}

// clipRunes cuts text to w cells with an ellipsis, keeping the positions still shown.
func clipRunes(text string, pos []int, w int) (string, []int) {
	if ansi.StringWidth(text) <= w {
		return text, pos
	}
	if w <= 0 {
		return "", nil
	}
	cut := []rune(ansi.Truncate(text, w, "…"))
	var kept []int
	for _, p := range pos {
		if p < len(cut)-1 {
			kept = append(kept, p)
		}
	}
	return string(cut), kept
}

// badge is one styled mark of a list row.
type badge struct {
	text  string
	style lipgloss.Style
}

// badges are a row's marks: a tool's annotation hints, a prompt's argument count.
func (x *Explorer) badges(it *exItem) []badge {
	s := x.c.Styles
	switch it.kind {
	case session.ListTools:
		var out []badge
		for _, b := range it.hints.badges() {
			switch b {
			case "destructive":
				out = append(out, badge{"destr", s.BadgeError})
			case "readOnly":
				out = append(out, badge{"ro", s.Badge})
			case "idempotent":
				out = append(out, badge{"idem", s.Badge})
			case "openWorld":
				out = append(out, badge{"open", s.Badge})
			}
		}
		switch {
		case len(it.headerProblems) > 0:
			out = append(out, badge{"✗hdr", s.BadgeError})
		case len(it.headers) > 0:
			out = append(out, badge{"hdr", s.Badge})
		}
		return append(out, x.appBadges(it)...)
	case session.ListSkills:
		switch {
		case it.skill == nil:
		case len(it.skill.Problems) > 0:
			return []badge{{"✗entry", s.BadgeError}}
		case it.skill.Dynamic:
			return []badge{{"dynamic", s.Badge}}
		}
		return nil
	case session.ListEvents:
		return x.eventBadges(it)
	case session.ListResources:
		var out []badge
		if x.updated[it.uri] {
			out = append(out, badge{"updated", s.Notification})
		}
		if x.subs[it.uri] != nil {
			out = append(out, badge{"sub", s.Badge})
		}
		return append(out, x.appBadges(it)...)
	case session.ListPrompts:
		switch n := len(it.args); n {
		case 0:
		case 1:
			return []badge{{"1 arg", s.Badge}}
		default:
			return []badge{{fmt.Sprintf("%d args", n), s.Badge}}
		}
	}
	return nil
}

// highlightRunes styles text with base, the runes at pos with match, and those of escapes
// (at esc) set apart in reverse video as escapeText sets them.
func highlightRunes(base, match lipgloss.Style, text string, pos, esc []int) string {
	if len(pos) == 0 && len(esc) == 0 {
		return base.Render(text)
	}
	r := []rune(text)
	const hit, escaped = 1, 2
	class := make([]byte, len(r))
	for _, p := range pos {
		if p >= 0 && p < len(r) {
			class[p] |= hit
		}
	}
	for _, p := range esc {
		if p >= 0 && p < len(r) {
			class[p] |= escaped
		}
	}
	var b strings.Builder
	for i := 0; i < len(r); {
		j := i
		for j < len(r) && class[j] == class[i] {
			j++
		}
		st := base
		if class[i]&hit != 0 {
			st = match
		}
		if class[i]&escaped != 0 {
			st = st.Reverse(true)
		}
		b.WriteString(st.Render(string(r[i:j])))
		i = j
	}
	return b.String()
}

// detailWindow is the visible part of the selected item's detail: exactly d.H lines.
func (x *Explorer) detailWindow(d Rect) []string {
	lines := x.detailLines(d.W)
	out := make([]string, 0, d.H)
	for i := x.dOff; i < len(lines) && len(out) < d.H; i++ {
		out = append(out, lines[i])
	}
	for len(out) < d.H {
		out = append(out, "")
	}
	return out
}

// detailLines is the selected item's detail at width w, rendered once per item, width
// and palette.
func (x *Explorer) detailLines(w int) []string {
	it := x.selected()
	if it == nil || w <= 0 {
		return nil
	}
	if it.detail == nil || it.detailW != w || it.detailS != x.c.Styles {
		it.detail, it.detailW, it.detailS = itemDetail(x.c.Styles, it, w), w, x.c.Styles
	}
	r := x.runs[runKey(it)]
	if r == nil {
		return it.detail
	}
	run := x.runLines(r, w)
	return append(append(run[:len(run):len(run)], "", " "+x.c.Styles.HelpSep.Render(strings.Repeat("─", max(0, w-2)))), it.detail...)
}
