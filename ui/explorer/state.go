package explorer

import (
	"encoding/json"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// What the explorer holds, as its host (and the host's tests) may read it: copies and
// counts, never its fields. Selecting goes through the same code as the keys.

// Loaded reports whether the lists have been set at least once.
func (x *Explorer) Loaded() bool { return x.loaded }

// Items is how many items the list of kind k holds (0 when the explorer has no such list).
func (x *Explorer) Items(k session.ListKind) int {
	if t := x.tabOf(k); t != nil {
		return len(t.items)
	}
	return 0
}

// ListErr is the error the fetch of the list of kind k failed with, or nil.
func (x *Explorer) ListErr(k session.ListKind) error {
	if t := x.tabOf(k); t != nil {
		return t.err
	}
	return nil
}

// MissingNote is what the list of kind k says when it is empty because the server (or the
// recording) does not offer it, or "".
func (x *Explorer) MissingNote(k session.ListKind) string {
	if t := x.tabOf(k); t != nil {
		return x.missingNote(t)
	}
	return ""
}

// Lists are the kinds of the lists the explorer shows, in the order of its tabs.
func (x *Explorer) Lists() []session.ListKind {
	out := make([]session.ListKind, len(x.tabs))
	for i, t := range x.tabs {
		out[i] = t.kind
	}
	return out
}

// SelectItem shows the i-th list (see SelectTab) and selects its item called name: its
// label, uri or uri template, as sent or as shown. It reports whether the list has it.
func (x *Explorer) SelectItem(i int, name string) bool {
	x.selectTab(i)
	t := x.tab()
	for j, h := range t.hits {
		if h.it.label() == name || h.it.uri == name || h.it.uriTemplate == name ||
			h.it.shown.uri.text == name || h.it.shown.uriTemplate.text == name {
			t.sel = j
			x.clampList(t)
			return true
		}
	}
	return false
}

// SelectTab shows the i-th list (tools, resources, templates, prompts, then skills).
func (x *Explorer) SelectTab(i int) { x.selectTab(i) }

// Zoomed reports whether the selected item's detail takes the whole page.
func (x *Explorer) Zoomed() bool { return x.zoom }

// FilterText is what the filter input holds.
func (x *Explorer) FilterText() string { return x.input.Value() }

// FormValue is the value of the form on screen; ok is false when no form is open.
func (x *Explorer) FormValue() (v json.RawMessage, err error, ok bool) {
	if x.form == nil {
		return nil, nil, false
	}
	v, err = x.form.f.Value()
	return v, err, true
}

// FormTitle is the title of the form on screen, or "".
func (x *Explorer) FormTitle() string {
	if x.form == nil {
		return ""
	}
	return x.form.title
}

// FormSuggestions are the completions the form on screen offers for its focused field.
func (x *Explorer) FormSuggestions() []string {
	if x.form == nil {
		return nil
	}
	return x.form.f.Suggestions()
}

// RememberedArgs are the arguments the form called title ("tools/call NAME") last sent,
// remembered in memory or read from the file, or nil.
func (x *Explorer) RememberedArgs(title string) json.RawMessage { return x.last.get(title) }

// Notices is how many list-change notices are on screen; ticks age them.
func (x *Explorer) Notices() int { return len(x.notices) }

// Drafts is how many forms were closed unsent with a change, kept to open again.
func (x *Explorer) Drafts() int { return len(x.drafts) }

// Subscribed reports whether the explorer holds a subscription to the resource uri, and
// Updated whether the server said that resource changed since it was last read.
func (x *Explorer) Subscribed(uri string) bool { return x.subs[uri] != nil }

// Updated reports whether the server said the subscribed resource uri changed since it was
// last read.
func (x *Explorer) Updated(uri string) bool { return x.updated[uri] }

// Running reports whether a call is in flight: sent and unanswered, following its task, or
// waiting to be sent again after error -32042.
func (x *Explorer) Running() bool { return x.running() }

// DetailText is the selected item's detail, w cells wide, as plain text.
func (x *Explorer) DetailText(w int) string {
	return ansi.Strip(strings.Join(x.detailLines(w), "\n"))
}

// Call is a copy of what became of the last call the explorer sent for an item.
type Call struct {
	ID      int // the explorer's run: a call sent again gets a new one
	Gen     int
	Method  string
	Target  string // the tool or prompt name, or the uri read
	Done    bool
	Resp    *session.Response
	Err     error
	Request *traffic.Entry // the request in the history, once it is there
	// Refused is the event of the request refused with error -32042 that the call follows,
	// or 0.
	Refused  uint64
	Task     string // the task the answer created, or ""
	Released bool   // the result was let go to keep the explorer within its budget
	Hidden   int64  // bytes of the laid-out result past its budget, not shown
	LaidOut  bool   // the result was laid out for the width on screen
}

// SelectedCall is the last call sent for the selected item; ok is false when none was.
func (x *Explorer) SelectedCall() (c Call, ok bool) {
	r := x.selectedRun()
	if r == nil {
		return Call{}, false
	}
	c = Call{ID: r.id, Gen: r.gen, Method: r.method, Target: r.target, Done: r.done, Resp: r.resp, Err: r.err,
		Request: x.requestEntry(r), Released: r.released, LaidOut: r.view != nil}
	if r.view != nil {
		c.Hidden = r.view.hidden
	}
	if r.retry != nil {
		c.Refused = r.retry.seq
	}
	if r.task != nil {
		c.Task = r.task.id
	}
	return c, true
}

// tabOf is the list of kind k, or nil.
func (x *Explorer) tabOf(k session.ListKind) *exTab {
	for _, t := range x.tabs {
		if t.kind == k {
			return t
		}
	}
	return nil
}

// Item names the selected item: its list, its name, its uri for a resource, and the tool
// that links to it when resources/list does not name it (an unlisted ui:// resource).
type Item struct {
	Kind     session.ListKind
	Name     string
	URI      string
	Unlisted string
}

// SelectedItem is the item under the cursor; ok is false when the list is empty.
func (x *Explorer) SelectedItem() (it Item, ok bool) {
	s := x.selected()
	if s == nil {
		return Item{}, false
	}
	return Item{Kind: s.kind, Name: s.name, URI: s.uri, Unlisted: s.app.unlisted}, true
}

// Shown is the names of list k's items in the order the list shows them (filtered and
// sorted), or nil when there is no such list.
func (x *Explorer) Shown(k session.ListKind) []string {
	t := x.tabOf(k)
	if t == nil {
		return nil
	}
	out := make([]string, len(t.hits))
	for i, h := range t.hits {
		out[i] = h.it.name
	}
	return out
}
