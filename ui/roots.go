package ui

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// rootsEditor is the dialog where the user adds, removes and renames the roots roots/list
// answers with. Each change takes effect at once; in the stateful revisions the server is
// told with notifications/roots/list_changed.
type rootsEditor struct {
	roots   []session.Root
	cursor  int
	editing bool
	editIdx int // the root being edited; -1 for a new one
	field   int // 0 path or URI, 1 name
	path    textinput.Model
	name    textinput.Model
	problem string
}

// rootsNotifiedMsg reports the list_changed notification sent after a change.
type rootsNotifiedMsg struct{ Err error }

func newRootsEditor(a *Asker) *rootsEditor {
	r := &rootsEditor{path: textinput.New(), name: textinput.New()}
	if a != nil {
		r.roots = a.Roots()
	}
	r.path.Prompt, r.name.Prompt = "", ""
	r.path.Placeholder = "a path (relative to where mcpscope started) or a URI"
	r.name.Placeholder = "a name (optional)"
	return r
}

var _ Dialog = (*rootsEditor)(nil)

// SetSize implements Dialog.
func (r *rootsEditor) SetSize(l Layout) {
	iw, _ := bodyDialogSize(l)
	r.path.SetWidth(max(10, iw-10))
	r.name.SetWidth(max(10, iw-10))
}

func (r *rootsEditor) focus(i int) tea.Cmd {
	r.field = i
	r.path.Blur()
	r.name.Blur()
	if i == 0 {
		return r.path.Focus()
	}
	return r.name.Focus()
}

// forward hands other messages to the input in use. A problem shown is about what the
// fields held: it goes once either changes.
func (r *rootsEditor) forward(msg tea.Msg) tea.Cmd {
	if !r.editing {
		return nil
	}
	path, name := r.path.Value(), r.name.Value()
	var cmd tea.Cmd
	if r.field == 0 {
		r.path, cmd = r.path.Update(msg)
	} else {
		r.name, cmd = r.name.Update(msg)
	}
	if r.path.Value() != path || r.name.Value() != name {
		r.problem = ""
	}
	return cmd
}

// Update implements Dialog: keys and pastes go to the editor; other messages reach the
// input being edited and pass on.
func (r *rootsEditor) Update(m *Model, msg tea.Msg) (tea.Cmd, DialogResult) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" {
			return nil, DialogPass
		}
		if key.Matches(msg, m.c.Keys.Act.Dismiss) && !r.editing {
			return nil, DialogDone
		}
		return r.key(m, msg), DialogStay
	case tea.PasteMsg:
		return r.forward(msg), DialogStay
	}
	return r.forward(msg), DialogPass
}

// key handles a key in the roots editor (esc with no edit under way closes it).
func (r *rootsEditor) key(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	k, g := &m.c.Keys.Act, m.c.Keys
	if r.editing {
		switch {
		case key.Matches(msg, k.Dismiss):
			r.editing, r.problem = false, ""
			return nil
		case key.Matches(msg, k.NextField, k.PrevField):
			return r.focus(1 - r.field)
		case msg.String() == "enter":
			return m.commitRoot(r)
		}
		return r.forward(msg)
	}
	switch {
	case key.Matches(msg, g.Up):
		r.cursor = max(0, r.cursor-1)
	case key.Matches(msg, g.Down):
		r.cursor = min(len(r.roots)-1, r.cursor+1)
	case key.Matches(msg, k.AddRoot):
		r.editing, r.editIdx = true, -1
		r.path.SetValue("")
		r.name.SetValue("")
		return r.focus(0)
	case key.Matches(msg, k.EditRoot) && len(r.roots) > 0:
		r.editing, r.editIdx = true, r.cursor
		r.path.SetValue(r.roots[r.cursor].URI)
		r.name.SetValue(r.roots[r.cursor].Name)
		r.path.CursorEnd()
		r.name.CursorEnd()
		return r.focus(0) // like Add: the Path/URI first, tab moves to the Name

	case key.Matches(msg, k.DeleteRoot) && len(r.roots) > 0:
		gone := r.roots[r.cursor]
		r.roots = slices.Delete(slices.Clone(r.roots), r.cursor, r.cursor+1)
		r.cursor = max(0, min(r.cursor, len(r.roots)-1))
		return m.applyRoots(r, "removed "+gone.URI)
	}
	return nil
}

// commitRoot ends an edit in r: the typed path becomes a file:// URI, a URI stays as it is.
func (m *Model) commitRoot(r *rootsEditor) tea.Cmd {
	p := strings.TrimSpace(r.path.Value())
	if p == "" {
		r.problem = "the path or URI is empty"
		return nil
	}
	var root session.Root
	if u, err := url.Parse(p); err == nil && len(u.Scheme) > 1 {
		root = session.Root{URI: p}
	} else {
		root = session.RootFromPath(m.asker.absPath(p))
	}
	if name := strings.TrimSpace(r.name.Value()); name != "" || r.editIdx >= 0 {
		root.Name = name
	}
	roots := slices.Clone(r.roots)
	what := "added " + root.URI
	if r.editIdx >= 0 && r.editIdx < len(roots) {
		roots[r.editIdx] = root
		what = "changed " + root.URI
	} else {
		roots = append(roots, root)
		r.cursor = len(roots) - 1
	}
	r.roots, r.editing, r.problem = roots, false, ""
	return m.applyRoots(r, what)
}

// applyRoots makes editor r's roots the ones roots/list answers with and, in the
// stateful revisions, tells the server they changed.
func (m *Model) applyRoots(r *rootsEditor, what string) tea.Cmd {
	m.asker.SetRoots(r.roots)
	offer := rootsOfferOf(m.sess, m.asker)
	m.server.SetRoots(offer)
	if m.sess == nil || m.state != session.StateReady {
		return statusCmd("roots: "+what, false)
	}
	if !offer.declared {
		return statusCmd("roots: "+what+" (this session did not declare roots: R restarts the server with them declared)", false)
	}
	if _, ok := protocol.Lookup(m.info.Revision, "notifications/roots/list_changed", protocol.ClientToServer); !ok {
		return statusCmd(fmt.Sprintf("roots: %s (revision %s has no roots/list_changed: the server gets them when it next asks)", what, m.info.Revision), false)
	}
	s := m.sess
	return tea.Batch(statusCmd("roots: "+what+"; notifications/roots/list_changed sent", false), func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return rootsNotifiedMsg{Err: s.Notify(ctx, "notifications/roots/list_changed", nil)}
	})
}

// rootsNotified reports a failed notification.
func (m *Model) rootsNotified(msg rootsNotifiedMsg) tea.Cmd {
	if msg.Err != nil {
		return statusCmd("notifications/roots/list_changed: "+msg.Err.Error(), true)
	}
	return nil
}

// Draw implements Dialog: the editor over the body.
func (r *rootsEditor) Draw(m *Model, scr *Screen) {
	iw, _ := bodyDialogSize(scr.Layout)
	m.overlayDialog(scr, r.view(m, iw))
}

// view is the roots editor's lines at inner width iw.
func (r *rootsEditor) view(m *Model, iw int) []string {
	s := m.c.Styles
	out := []string{s.Bold.Render("Roots") + s.Muted.Render("  what roots/list answers with")}
	if o := rootsOfferOf(m.sess, m.asker); o.known {
		o.roots = r.roots
		state, hint := rootsOfferText(o)
		out = append(out, s.Text.Render(textfmt.Clip(state, iw)))
		if hint != "" {
			out = append(out, s.Muted.Render(textfmt.Clip(hint, iw)))
		}
	}
	out = append(out, "")
	if len(r.roots) == 0 {
		out = append(out, s.Muted.Render("  no roots (a adds one)"))
	}
	for i, root := range r.roots {
		mark := "  "
		if i == r.cursor && !r.editing {
			mark = s.Accent.Render("▶ ")
		}
		name := root.Name
		if name == "" {
			name = "(no name)"
		}
		out = append(out, mark+s.Bold.Render(escapeText(textfmt.Clip(name, 24)))+"  "+s.Subtle.Render(escapeText(textfmt.Clip(root.URI, max(10, iw-30)))))
	}
	if r.editing {
		title := "New root"
		if r.editIdx >= 0 {
			title = "Edit root"
		}
		label := func(i int, t string) string {
			if r.field == i {
				return s.PaneTitleFocused.Render(t)
			}
			return s.PaneTitle.Render(t)
		}
		out = append(out, "", s.Bold.Render(title), label(0, "Path/URI ")+r.path.View(), label(1, "Name     ")+r.name.View())
		if r.problem != "" {
			out = append(out, s.Error.Render(r.problem))
		}
		return append(out, "", s.HelpDesc.Render("enter save · tab next field · esc back"))
	}
	return append(out, "", s.HelpDesc.Render("a add · enter edit · d remove · esc close"))
}

// Keys implements Dialog.
func (r *rootsEditor) Keys(m *Model) []key.Binding {
	k, g := &m.c.Keys.Act, m.c.Keys
	if r.editing {
		save := g.Open
		save.SetHelp("enter", "save")
		return []key.Binding{save, k.NextField, k.Dismiss}
	}
	return []key.Binding{k.AddRoot, k.EditRoot, k.DeleteRoot, k.Dismiss}
}
