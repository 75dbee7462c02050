package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// urlRequiredDialog shows the requests refused with error -32042, in arrival order:
// waits[0] is on screen, with the page to open; the others wait behind it. It is on the
// stack while a refused request waits for its elicitations.
type urlRequiredDialog struct {
	waits []*urlWait
}

var _ Dialog = (*urlRequiredDialog)(nil)

// remove takes w off the dialog; the dialog leaves the stack with its last wait.
func (d *urlRequiredDialog) remove(m *Model, w *urlWait) {
	d.waits = slices.DeleteFunc(d.waits, func(x *urlWait) bool { return x == w })
	if len(d.waits) == 0 {
		m.closeDialog(d)
	}
}

// urlRequiredKeys are the dialog's bindings: the shared ones, described for this dialog.
func urlRequiredKeys(m *Model, w *urlWait) (open, copyURL, retry, next, stop key.Binding) {
	b := urlRequiredBindings(m.c.Keys, w)
	return b[0], b[1], b[2], b[3], b[4]
}

// Update implements Dialog: keys go to the refused request on screen (ctrl+c passes on).
func (d *urlRequiredDialog) Update(m *Model, msg tea.Msg) (tea.Cmd, DialogResult) {
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, DialogPass
	}
	if kp.String() == "ctrl+c" {
		return nil, DialogPass
	}
	w := d.waits[0]
	open, copyURL, _, next, stop := urlRequiredKeys(m, w)
	var page *urlElicit
	if len(w.pages) > 0 {
		page = &w.pages[w.sel]
	}
	switch {
	case key.Matches(kp, open) && page != nil:
		return openURLCmd(page.Page.raw), DialogStay
	case key.Matches(kp, copyURL) && page != nil:
		return copyURLCmd(page.Page.raw), DialogStay
	case key.Matches(kp, next):
		w.sel = (w.sel + 1) % len(w.pages)
	case key.Matches(kp, m.c.Keys.Act.Resend): // also when off, to say why
		if w.noRetry != "" {
			return statusCmd("cannot retry "+w.what()+": "+w.noRetry, true), DialogStay
		}
		cmd := m.retryURLWait(d, w, "retry asked")
		if len(d.waits) == 0 {
			return cmd, DialogDone
		}
		return cmd, DialogStay
	case key.Matches(kp, stop):
		d.remove(m, w)
		m.explorer.URLWaitStopped(w)
		cmd := statusCmd("stopped waiting: "+w.what()+" will not be sent again", false)
		if len(d.waits) == 0 {
			return cmd, DialogDone
		}
		return cmd, DialogStay
	}
	return nil, DialogStay
}

// Draw implements Dialog: the refused request on screen over the body.
func (d *urlRequiredDialog) Draw(m *Model, scr *Screen) {
	iw, _ := bodyDialogSize(scr.Layout)
	m.overlayDialog(scr, m.urlRequiredView(d.waits[0], iw, len(d.waits)-1))
}

// Keys implements Dialog.
func (d *urlRequiredDialog) Keys(m *Model) []key.Binding {
	open, copyURL, retry, next, stop := urlRequiredKeys(m, d.waits[0])
	return []key.Binding{open, copyURL, retry, next, stop}
}

// SetSize implements Dialog: the dialog is drawn at the size of each frame.
func (d *urlRequiredDialog) SetSize(Layout) {}

// urlRequiredView is the dialog's lines at inner width iw; more refused requests wait
// behind w.
func (m *Model) urlRequiredView(w *urlWait, iw, more int) []string {
	s := m.c.Styles
	wait := max(0, m.timeline.Now.Sub(w.arrived)).Truncate(time.Second)
	head := s.Bold.Render("The server needs you to open a page first") + "  " + s.Accent.Render("waiting "+wait.String())
	if more > 0 {
		head += "  " + s.BadgeFinding.Render(fmt.Sprintf("+%d more waiting", more))
	}
	out := []string{head, s.Muted.Render(escapeText("error -32042 (URL elicitation required) to " + w.what())), ""}
	if len(w.pages) == 0 {
		out = append(out, s.Error.Render("error.data names no elicitation: there is no page to open"))
	} else {
		pg := w.pages[w.sel]
		if len(w.pages) > 1 {
			out = append(out, s.Muted.Render(fmt.Sprintf("page %d of %d", w.sel+1, len(w.pages))))
		}
		out = append(out, m.urlPageLines(pg.Page, iw)...)
		out = append(out, "")
		for _, p := range w.pages {
			state := s.Accent.Render("waiting")
			if p.Done {
				state = s.Response.Render("complete ✓")
			}
			out = append(out, s.Muted.Render("Elicitation ")+s.Text.Render(escapeText(p.ID))+"  "+state)
		}
	}
	out = append(out, "")
	if w.noRetry != "" {
		out = append(out, s.Error.Render(escapeText("no retry: "+w.noRetry)))
	} else {
		out = append(out, m.wrapMasked(s.Subtle.Render, "When "+methodElicitComplete+" arrives for every elicitation, "+w.method+" is sent again with a new id.", iw)...)
	}
	return append(out, "", s.HelpDesc.Render(strings.Join(m.urlRequiredHelp(w), " · ")))
}

// urlRequiredHelp is the dialog's own help line: the keys that act now.
func (m *Model) urlRequiredHelp(w *urlWait) []string {
	open, copyURL, retry, next, stop := urlRequiredKeys(m, w)
	return bindingsHelp([]key.Binding{open, copyURL, retry, next, stop})
}
