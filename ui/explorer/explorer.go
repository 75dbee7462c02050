package explorer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings/pin"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// noticeTTL is how long a "list changed" notice stays on screen.
const noticeTTL = 10 * time.Second

// ExplorerTickMsg advances the explorer's clock while a notice is showing.
type ExplorerTickMsg time.Time

func explorerTickCmd() tea.Cmd {
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return ExplorerTickMsg(t) })
}

// Explorer shows the server's tools, resources, resource templates and prompts: one tab
// each, a fuzzy-filtered list and the selected item in full.
type Explorer struct {
	c    *Common
	w, h int

	tabs   []*exTab
	cur    int  // the tab on screen
	loaded bool // SetLists was called at least once

	// A recording opened read-only: its lists are the last ones recorded, and what the
	// server offers is what its recorded handshake declared, if it has one.
	recording bool
	recInfo   bool            // the recorded handshake was read
	recCaps   json.RawMessage // the capabilities it declared; nil: no handshake

	appAsk AppAskFunc // puts an app's ui/open-link and ui/message to the user; nil refuses
	appCSP string     // how the policy of an app A hosts is built (apphost.Config.CSP)

	input     textinput.Model
	filtering bool   // the filter input has focus
	query     string // the pattern every tab is filtered by

	zoom bool // the detail takes the whole page
	dOff int  // detail scroll offset

	notices []exNotice
	now     time.Time
	ticking bool
	// clock stamps list changes; tests replace it.
	clock func() time.Time

	// last is the arguments each form last sent to this server (lastargs.go).
	last *LastArgs

	// Requests sent from the page (call.go).
	sess   *session.Session
	gen    int
	hist   *traffic.History    // the model's, for the requests' progress
	tasks  TaskLookup          // the Tasks page: the state of the tasks the calls created
	runs   map[string]*callRun // the latest run of each item, by runKey
	runSeq int
	form   *callForm // the form on screen, or nil
	// drafts are the values of forms closed unsent, by form key: the form opens with its
	// draft again (in memory; the file holds only what was sent).
	drafts       map[string]json.RawMessage
	eventCursors *cursorBook // where each event type's polls resume (explorer_events.go)
	subs         map[string]*resSub
	subSeq       int
	updated      map[string]bool // subscribed resources the server said changed

	pin     *pin.Set // definitions pinned with --pin; nil: no pin
	pinName string   // the pin file, as shown

	// refusals are the -32042 answers of this session and what became of them, by the
	// refused request's event (explorer_retry.go).
	refusals map[genSeq]*urlRefusal

	appCycle   appCycle        // where the app key is in a UI resource's tools (explorer_apps.go)
	toolTokens map[*exItem]int // each listed tool's context cost (explorer_tokens.go)
}

// exTab is one list.
type exTab struct {
	kind    session.ListKind
	items   []*exItem
	err     error
	fetched bool // the list was asked for (the server declares the capability)
	hits    []exHit
	sel     int
	off     int
	nameW   int      // widest label among the hits
	pinGone []string // names of pinned items this list no longer has
}

// exNotice says that one list changed.
type exNotice struct {
	kind     session.ListKind
	from, to int
	diff     string
	at       time.Time
}

// NewExplorer makes the explorer page.
func NewExplorer(c *Common) *Explorer {
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = "fuzzy filter: name, title, description"
	x := &Explorer{c: c, input: ti, clock: time.Now, runs: map[string]*callRun{}, subs: map[string]*resSub{},
		updated: map[string]bool{}, drafts: map[string]json.RawMessage{}}
	for _, k := range session.ListKinds {
		x.tabs = append(x.tabs, &exTab{kind: k})
	}
	return x
}

// SetSize sets the page size.
func (x *Explorer) SetSize(w, h int) {
	x.w, x.h = w, h
	x.input.SetWidth(max(10, w-4))
	for _, t := range x.tabs {
		x.clampList(t)
	}
	x.clampDetail()
	x.sizeForm()
}

// SetLists replaces every list, after a (re)connection. A kind missing from l was not
// fetched (the server does not offer it); errs holds the kinds whose fetch failed.
func (x *Explorer) SetLists(l map[session.ListKind][]json.RawMessage, errs map[session.ListKind]error) {
	x.loaded = true
	_, skillsListed := l[session.ListSkills]
	x.setSkillsTab(skillsListed || errs[session.ListSkills] != nil)
	_, eventsListed := l[session.ListEvents]
	x.setEventsTab(eventsListed || errs[session.ListEvents] != nil)
	for _, t := range x.tabs {
		raws, ok := l[t.kind]
		t.fetched, t.err = ok || errs[t.kind] != nil, errs[t.kind]
		t.items = parseItems(t.kind, raws)
		x.markPinned(t)
		x.refilter(t)
	}
	x.dOff = 0
}

// SetRecording says the lists come from a recording read-only.
func (x *Explorer) SetRecording() { x.recording = true }

// SetRecordedCaps gives the capabilities the recording's handshake declared; nil when the
// recording has no handshake.
func (x *Explorer) SetRecordedCaps(caps json.RawMessage) { x.recInfo, x.recCaps = true, caps }

// missingNote says why tab t has no list: the server does not offer it, or, in a
// recording, the recording does not say.
func (x *Explorer) missingNote(t *exTab) string {
	offers := fmt.Sprintf("the server does not offer %s (no %q capability)", kindNoun(t.kind), kindCapability(t.kind))
	if !x.recording {
		return offers
	}
	method := t.kind.Method()
	switch {
	case !x.recInfo:
		return "the recording holds no " + method
	case x.recCaps == nil:
		return fmt.Sprintf("this recording has no handshake: it does not say whether the server offers %s, and holds no %s", kindNoun(t.kind), method)
	}
	if _, caps, err := protocol.OrderedObject(x.recCaps); err == nil && caps[kindCapability(t.kind)] != nil {
		return fmt.Sprintf("the server offers %s, but the recording holds no %s", kindNoun(t.kind), method)
	}
	return offers
}

// UpdateLists replaces the lists a list_changed notification refreshed, and shows a notice
// for each that says how it changed. The command keeps the notice's age current.
func (x *Explorer) UpdateLists(l map[session.ListKind][]json.RawMessage) tea.Cmd {
	now := x.clock()
	for _, t := range x.tabs {
		raws, ok := l[t.kind]
		if !ok {
			continue
		}
		old := t.items
		t.items = parseItems(t.kind, raws)
		t.fetched, t.err = true, nil
		x.markPinned(t)
		x.refilter(t)
		x.notices = slices.DeleteFunc(x.notices, func(n exNotice) bool { return n.kind == t.kind })
		x.notices = append(x.notices, exNotice{kind: t.kind, from: len(old), to: len(t.items), diff: listDiff(old, t.items), at: now})
	}
	x.now = now
	x.clampDetail()
	if x.ticking || len(x.notices) == 0 {
		return nil
	}
	x.ticking = true
	return explorerTickCmd()
}

// listDiff names what a refresh added (+), removed (−) and changed (~), a few of each.
func listDiff(old, cur []*exItem) string {
	before := map[string]*exItem{}
	for _, it := range old {
		before[it.key()] = it
	}
	seen := map[string]bool{}
	var parts []string
	more := 0
	add := func(s string) {
		if len(parts) < 4 {
			parts = append(parts, s)
		} else {
			more++
		}
	}
	for _, it := range cur {
		k := it.key()
		seen[k] = true
		switch prev, ok := before[k]; {
		case !ok:
			add("+" + it.label())
		case !bytes.Equal(prev.raw, it.raw):
			add("~" + it.label())
		}
	}
	for _, it := range old {
		if !seen[it.key()] {
			add("−" + it.label())
		}
	}
	if more > 0 {
		parts = append(parts, "…")
	}
	return strings.Join(parts, " ")
}

// Capturing reports whether the explorer takes every key (its filter is being typed, or a
// form filled in).
func (x *Explorer) Capturing() bool { return x.filtering || x.form != nil }

// Back handles esc: it closes the full-page detail, or clears the filter. It reports
// false when there was nothing to undo, so the model can leave the page.
func (x *Explorer) Back() bool {
	switch {
	case x.zoom:
		x.zoom = false
		x.clampDetail()
		return true
	case x.query != "":
		x.setQuery("")
		return true
	}
	return false
}

// Keys are the explorer's bindings for the help line, described for the current state.
func (x *Explorer) Keys() []key.Binding {
	k := x.c.Keys
	if x.filtering {
		apply, clear := k.Open, k.Back
		apply.SetHelp(k.Open.Help().Key, "apply filter")
		clear.SetHelp(k.Back.Help().Key, "clear filter")
		return []key.Binding{k.Up, k.Down, apply, clear}
	}
	if x.form != nil {
		ks := x.form.f.KeyMap().ShortHelp()
		if x.form.remembered {
			ks = append(ks, k.ForgetArgs)
		}
		return ks
	}
	// The keys that act on the item (enter calls it) come first: the help line is cut at
	// the right, and at 80 columns the moves alone fill it.
	zoom := k.Zoom
	if x.zoom {
		zoom.SetHelp(k.Zoom.Help().Key, "back to list")
		return append(x.runKeys(), k.Up, k.Down, k.PageUp, k.PageDown, zoom, k.Back)
	}
	scroll := k.PageDown
	scroll.SetHelp(k.PageUp.Help().Key+"/"+k.PageDown.Help().Key, "scroll detail")
	return append(x.runKeys(), k.Up, k.Down, k.PrevTab, k.NextTab, k.Filter, zoom, scroll)
}

// runKeys are the bindings that send or act on a result, enabled where they do something.
func (x *Explorer) runKeys() []key.Binding {
	k := x.c.Keys
	it, r := x.selected(), x.selectedRun()
	on := func(b key.Binding, enabled bool, desc string) key.Binding {
		b.SetEnabled(enabled)
		if desc != "" {
			b.SetHelp(b.Help().Key, desc)
		}
		return b
	}
	call := ""
	if it != nil {
		call = map[session.ListKind]string{session.ListTools: "call", session.ListPrompts: "get",
			session.ListResources: "read", session.ListTemplates: "read", session.ListEvents: "subscribe"}[it.kind]
	}
	sub := "subscribe"
	if it != nil && x.subs[it.uri] != nil {
		sub = "unsubscribe"
	}
	done := r != nil && r.view != nil
	return []key.Binding{
		on(k.Call, it != nil && x.sess != nil && it.invalid == "", call),
		on(k.ShowCall, r != nil, "in timeline"),
		on(k.SaveMedia, done && len(r.view.media) > 0, "save media"),
		on(k.FollowLink, done && len(r.view.links) > 0, "follow link"),
		on(k.Subscribe, it != nil && it.kind == session.ListResources && x.sess != nil, sub),
		on(k.AppJump, it != nil && (it.app.link.HasApp() || it.isAppResource()), appJumpHelp(it)),
		on(k.RunApp, x.appOfOK(it), "run app"),
	}
}

// Update handles keys, the mouse wheel and the notice clock.
func (x *Explorer) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case toolTokensMsg:
		x.setToolTokens(msg)
		return nil
	case lastArgsLoadedMsg:
		return x.last.loaded(msg)
	case lastArgsSavedMsg:
		if msg.err != nil {
			return statusCmd("remembered arguments not saved: "+msg.err.Error(), true)
		}
		return nil
	case ExplorerTickMsg:
		x.now = time.Time(msg)
		x.notices = slices.DeleteFunc(x.notices, func(n exNotice) bool { return x.now.Sub(n.at) >= noticeTTL })
		if len(x.notices) == 0 && !x.running() {
			x.ticking = false
			return nil
		}
		return explorerTickCmd()
	case CallDoneMsg:
		x.callDone(msg)
		return x.appReadDone(msg)
	case URLRetriedMsg:
		x.urlRetried(msg)
		return nil
	case resultRenderedMsg:
		x.rendered(msg)
		return nil
	case exFormMsg:
		return x.formUpdate(msg.msg)
	case SubscribedMsg:
		return x.subscribed(msg)
	case tea.KeyPressMsg:
		switch {
		case x.form != nil && msg.String() == "ctrl+c":
			return tea.Quit
		case x.form != nil:
			return x.formUpdate(msg)
		case x.filtering:
			return x.filterKey(msg)
		}
		return x.key(msg)
	case tea.MouseWheelMsg:
		step := 3
		if msg.Button == tea.MouseWheelUp {
			step = -3
		} else if msg.Button != tea.MouseWheelDown {
			return nil
		}
		if x.zoom {
			x.scrollDetail(step)
		} else {
			x.move(step)
		}
		return nil
	}
	if x.form != nil {
		return x.formUpdate(msg)
	}
	if x.filtering {
		var cmd tea.Cmd
		x.input, cmd = x.input.Update(msg)
		return cmd
	}
	return nil
}

// running reports whether a request sent from the page is still waiting.
func (x *Explorer) running() bool {
	for _, r := range x.runs {
		if !r.done || r.taskRunning() || x.retryWaiting(r) {
			return true
		}
	}
	return false
}

func (x *Explorer) key(msg tea.KeyPressMsg) tea.Cmd {
	k := x.c.Keys
	page := max(1, x.layout().Detail.H-1)
	switch {
	case key.Matches(msg, k.Filter):
		x.filtering = true
		x.input.SetValue(x.query)
		x.input.CursorEnd()
		return x.input.Focus()
	case key.Matches(msg, k.PrevTab):
		x.selectTab(x.cur - 1)
	case key.Matches(msg, k.NextTab):
		x.selectTab(x.cur + 1)
	case key.Matches(msg, k.Call):
		return x.run()
	case key.Matches(msg, k.RunApp):
		return x.runApp()
	case key.Matches(msg, k.Zoom):
		x.zoom = !x.zoom
		x.clampDetail()
	case key.Matches(msg, k.ShowCall):
		return x.showCall()
	case key.Matches(msg, k.SaveMedia):
		return x.saveMedia()
	case key.Matches(msg, k.FollowLink):
		return x.followLink()
	case key.Matches(msg, k.Subscribe):
		return x.toggleSubscription()
	case key.Matches(msg, k.AppJump):
		return x.appJump()
	case key.Matches(msg, k.Back):
		x.Back()
	case key.Matches(msg, k.Up):
		x.upDown(-1)
	case key.Matches(msg, k.Down):
		x.upDown(1)
	case key.Matches(msg, k.PageUp):
		x.scrollDetail(-page)
	case key.Matches(msg, k.PageDown):
		x.scrollDetail(page)
	case key.Matches(msg, k.Top):
		x.upDown(-1 << 30)
	case key.Matches(msg, k.Bottom):
		x.upDown(1 << 30)
	}
	return nil
}

// upDown moves the selection, or scrolls the detail when it has the page.
func (x *Explorer) upDown(n int) {
	if x.zoom {
		x.scrollDetail(n)
		return
	}
	x.move(n)
}

// filterKey handles a key while the filter is typed: arrows still move the selection.
func (x *Explorer) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	k := x.c.Keys
	switch {
	case key.Matches(msg, k.Quit) && msg.Text == "":
		return tea.Quit
	case key.Matches(msg, k.Open):
		x.filtering = false
		x.input.Blur()
		return nil
	case key.Matches(msg, k.Back):
		x.filtering = false
		x.input.Blur()
		x.setQuery("")
		return nil
	case key.Matches(msg, k.Up) && msg.Text == "":
		x.move(-1)
		return nil
	case key.Matches(msg, k.Down) && msg.Text == "":
		x.move(1)
		return nil
	}
	var cmd tea.Cmd
	x.input, cmd = x.input.Update(msg)
	if v := x.input.Value(); v != x.query {
		x.setQuery(v)
	}
	return cmd
}

// setQuery filters every tab by pattern and selects each tab's best match.
func (x *Explorer) setQuery(pattern string) {
	x.query = pattern
	if x.input.Value() != pattern {
		x.input.SetValue(pattern)
	}
	for _, t := range x.tabs {
		t.hits, t.sel, t.off = t.hits[:0], 0, 0 // forget the selection
		x.refilter(t)
	}
	x.dOff = 0
}

func (x *Explorer) selectTab(i int) {
	n := len(x.tabs)
	x.cur = ((i % n) + n) % n
	x.dOff = 0
}

func (x *Explorer) tab() *exTab { return x.tabs[x.cur] }

// move moves the selection of the current tab by n rows.
func (x *Explorer) move(n int) {
	t := x.tab()
	if len(t.hits) == 0 {
		return
	}
	sel := min(max(0, t.sel+n), len(t.hits)-1)
	if sel != t.sel {
		t.sel, x.dOff = sel, 0
	}
	x.clampList(t)
}

// selected is the item under the cursor of the current tab, or nil.
func (x *Explorer) selected() *exItem {
	t := x.tab()
	if t.sel < 0 || t.sel >= len(t.hits) {
		return nil
	}
	return t.hits[t.sel].it
}

// refilter recomputes a tab's hits for the query, ranked by score, keeping the selected
// item selected when it is still there.
func (x *Explorer) refilter(t *exTab) {
	var keep string
	if t.sel >= 0 && t.sel < len(t.hits) {
		keep = t.hits[t.sel].it.key()
	}
	t.hits = t.hits[:0]
	for _, it := range t.items {
		if h, ok := matchItem(x.query, it); ok {
			t.hits = append(t.hits, h)
		}
	}
	if x.query != "" {
		slices.SortStableFunc(t.hits, func(a, b exHit) int { return b.score - a.score })
	} else {
		setApartAppOnly(t)
	}
	t.sel, t.nameW = 0, 0
	for i, h := range t.hits {
		if keep != "" && h.it.key() == keep {
			t.sel = i
		}
		t.nameW = max(t.nameW, ansi.StringWidth(h.it.label()))
	}
	x.clampList(t)
}

// clampList keeps a tab's selection on screen.
func (x *Explorer) clampList(t *exTab) {
	l := x.layout()
	rows := max(1, l.List.H-len(x.errLines(t, l.List.W)))
	t.sel = min(max(0, t.sel), max(0, len(t.hits)-1))
	if t.sel < t.off {
		t.off = t.sel
	}
	if t.sel >= t.off+rows {
		t.off = t.sel - rows + 1
	}
	t.off = min(max(0, t.off), max(0, len(t.hits)-rows))
}

func (x *Explorer) scrollDetail(n int) {
	x.dOff += n
	x.clampDetail()
}

func (x *Explorer) clampDetail() {
	l := x.layout()
	total := len(x.detailLines(l.Detail.W))
	x.dOff = min(max(0, x.dOff), max(0, total-l.Detail.H))
}

func (x *Explorer) layout() exLayout { return explorerLayout(x.w, x.h, x.zoom, x.listRows()) }

// listRows is how many lines the current tab's list wants when it spans the page: its
// items, or the one line that says why there are none, after any error.
func (x *Explorer) listRows() int {
	t := x.tab()
	return len(x.errLines(t, x.w)) + max(1, len(t.hits))
}
