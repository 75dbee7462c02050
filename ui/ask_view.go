package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// dialogSize is the inner size (inside border and padding) of a dialog over a body of
// w×h cells.
func dialogSize(w, h int) (iw, ih int) {
	return max(10, min(w-6, 110)), max(3, min(h-2, 40))
}

// dialogBox draws lines (each cut to iw cells) in the dialog frame.
func (m *Model) dialogBox(lines []string, iw int) string {
	for i, l := range lines {
		lines[i] = textfmt.FitRow(l, iw)
	}
	return m.c.Styles.Dialog.Render(strings.Join(lines, "\n"))
}

// overlay draws box over base (h lines of w cells), centred, with a blank cell on either
// side, and keeps the result h lines of w cells.
func overlay(base, box string, w, h int) string {
	rows := strings.Split(base, "\n")
	for len(rows) < h {
		rows = append(rows, strings.Repeat(" ", w))
	}
	boxRows := strings.Split(box, "\n")
	bw := 0
	for _, r := range boxRows {
		bw = max(bw, ansi.StringWidth(r))
	}
	bw = min(bw, w)
	x := max(0, (w-bw)/2)
	y := max(0, (h-len(boxRows))/3)
	for i, r := range boxRows {
		if y+i >= len(rows) {
			break
		}
		under := rows[y+i]
		// The cell on each side of the box is blanked: a row marker or a border drawn
		// there would read as part of the dialog.
		lx, rx := max(0, x-1), min(w, x+bw+1)
		left := textfmt.Pad(ansi.Truncate(under, lx, ""), lx) + strings.Repeat(" ", x-lx)
		right := strings.Repeat(" ", rx-x-bw) + ansi.TruncateLeft(under, rx, "")
		rows[y+i] = left + "\x1b[m" + textfmt.FitRow(r, bw) + "\x1b[m" + textfmt.PadLeft(right, w-x-bw)
	}
	return strings.Join(rows[:h], "\n")
}

// overlayDialog draws a dialog's lines (cut to the dialog's inner height) in the dialog
// frame over the body, centred.
func (m *Model) overlayDialog(scr *Screen, lines []string) {
	l := scr.Layout.Body
	iw, ih := dialogSize(l.W, l.H)
	if len(lines) > ih {
		lines = lines[:ih]
	}
	scr.Body = overlay(scr.Body, m.dialogBox(lines, iw), l.W, l.H)
}

// bodyDialogSize is the inner size of a dialog over the body of layout l.
func bodyDialogSize(l Layout) (iw, ih int) { return dialogSize(l.Body.W, l.Body.H) }

// askHeader is the first line of an ask dialog: what is asked, for how long it has waited,
// and how many more wait behind it.
func (m *Model) askHeader(d *askDialog, title string, more int) string {
	s := m.c.Styles
	wait := max(0, m.timeline.Now.Sub(d.q.Arrived)).Truncate(time.Second)
	h := s.Bold.Render(title) + "  " + s.Accent.Render("waiting "+wait.String())
	if more > 0 {
		h += "  " + s.BadgeFinding.Render(fmt.Sprintf("+%d more waiting", more))
	}
	return h
}

// wrapServerText is text from a server or an app as a dialog shows it: masked, escaped and
// wrapped at iw cells behind indent spaces, each line painted with st. The mask comes
// first: a wrap could cut a secret in two.
//
// Bounded: a dialog shows what a request asks, which the session bounds by --max-frame,
// and the app host cuts its questions' text at 4 KB.
func (m *Model) wrapServerText(st func(...string) string, text string, iw, indent int) []string {
	var out []string
	pad := strings.Repeat(" ", indent)
	text = m.c.Mask.String(text)
	for _, l := range strings.Split(text, "\n") {
		for _, part := range strings.Split(textfmt.Wrap(escapeText(l), max(1, iw-indent)), "\n") {
			out = append(out, pad+st(part))
		}
	}
	return out
}

// askView draws an ask dialog's lines at inner width iw and at most ih lines; more asks
// wait behind it.
func (m *Model) askView(d *askDialog, iw, ih, more int) []string {
	s := m.c.Styles
	wrap := func(st func(...string) string, text string, indent int) []string {
		return m.wrapServerText(st, text, iw, indent)
	}
	var out []string
	switch d.kind {
	case askSampling:
		out = append(out, m.askHeader(d, "The server asks your model for a reply", more), s.Muted.Render(escapeText(d.origin)), "")
		fixed := len(out) + 9
		info := d.info
		if budget := max(2, ih-fixed); len(info) > budget {
			info = append(info[:budget-1:budget-1], fmt.Sprintf("… %d more lines (the request's detail shows them all)", len(info)-budget+1))
		}
		for _, l := range info {
			out = append(out, s.Text.Render(textfmt.Clip(escapeText(l), iw)))
		}
		out = append(out, s.Muted.Render(strings.Repeat("─", iw)))
		label := func(i int, text string) string {
			if d.field == i {
				return s.PaneTitleFocused.Render(text)
			}
			return s.PaneTitle.Render(text)
		}
		out = append(out, label(0, "Your reply (you are the model):"))
		out = append(out, strings.Split(d.reply.View(), "\n")...)
		var stops []string
		for i, r := range stopReasons {
			if i == d.stop {
				r = s.Match.Render("‹" + r + "›")
			} else {
				r = s.Muted.Render(" " + r + " ")
			}
			stops = append(stops, r)
		}
		out = append(out, label(1, "Stop reason: ")+strings.Join(stops, " "))
		out = append(out, label(2, "Model: ")+d.model.View())
		out = append(out, s.HelpDesc.Render("ctrl+s send · ctrl+d/esc decline · tab next field"))
	case askElicitURL:
		out = append(out, m.askHeader(d, "The server asks you to open a page", more), s.Muted.Render(escapeText(d.origin)), "")
		out = append(out, m.urlPageLines(d.page, iw)...)
		out = append(out, "")
		out = append(out, m.wrapMasked(s.HelpDesc.Render, strings.Join(bindingsHelp(askURLKeys(m.c.Keys)), " · "), iw)...)
	default:
		out = append(out, m.askHeader(d, "The server asks you to fill in a form", more), s.Muted.Render(escapeText(d.origin)))
		if d.message != "" {
			msg := wrap(s.Text.Render, d.message, 0)
			if len(msg) > 4 {
				msg = msg[:4]
			}
			out = append(out, msg...)
		}
		if d.problem != "" {
			out = append(out, s.Error.Render(escapeText(d.problem)))
		}
		out = append(out, "")
		out = append(out, strings.Split(d.form.View(), "\n")...)
		out = append(out, s.HelpDesc.Render("ctrl+s accept · ctrl+d decline · esc cancel"))
	}
	return out
}

// askFormHeight is the height a form elicitation's form gets in a dialog of inner height ih.
func askFormHeight(d *askDialog, iw, ih int) int {
	fixed := 4
	if d.message != "" {
		fixed += min(4, len(strings.Split(textfmt.Wrap(d.message, max(1, iw)), "\n")))
	}
	if d.problem != "" {
		fixed++
	}
	return max(3, min(ih-fixed, 18))
}
