package explorer

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/form"
	"github.com/mcpscope/mcpscope/ui/internal/common"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// ExplorerMsg marks the messages that belong to the explorer: the model hands them to it
// whichever page is on screen.
type ExplorerMsg interface{ explorerMsg() }

// Explorer messages.
type (
	// CallDoneMsg: a request the explorer sent (tools/call, prompts/get, resources/read)
	// ended. Gen and Run say which session and which run asked, so a stale answer is dropped.
	CallDoneMsg struct {
		Gen, Run int
		Resp     *session.Response
		Err      error
		Rev      protocol.Revision
		At       time.Time
	}
	// exFormMsg carries a message of the explorer's open form back to it.
	exFormMsg struct{ msg tea.Msg }
	// ShowEntryMsg asks the model to show an entry in the timeline.
	ShowEntryMsg struct{ Entry *traffic.Entry }
)

func (CallDoneMsg) explorerMsg() {}
func (exFormMsg) explorerMsg()   {}

// callRun is one request the explorer sent for an item, and how it ended.
type callRun struct {
	id     int
	gen    int
	method string
	target string // the tool or prompt name, or the uri read
	tool   string // a tools/call's tool, for its outputSchema
	from   uint64 // the history's next Index when it was sent: its request is at or after it
	start  time.Time

	done bool
	resp *session.Response
	err  error
	rev  protocol.Revision
	end  time.Time

	view       *ResultView // the result rendered, at viewW with viewS
	viewW      int
	viewS      *Styles
	runLayouts     // the layouts of a large result, and whether it was let go (explorer_result.go)
	nextLink   int // which resource_link F follows next
	requestAt  *traffic.Entry
	args       json.RawMessage // the arguments sent (explorer_args.go)
	task       *runTask        // the task the answer created (explorer_task.go), or nil
	retry      *runRetry       // the answer was error -32042: the run follows the retry (explorer_retry.go)
}

// callForm is the form the explorer shows for the item about to be run.
type callForm struct {
	f      *form.Model
	it     *exItem
	title  string
	submit func(args json.RawMessage) tea.Cmd

	sch        *form.Schema
	opts       form.Options    // without Initial: what ctrl+r starts again from
	key        string          // the remembered arguments' name ("tools/call NAME")
	remembered bool            // the form started from the arguments last sent
	start      json.RawMessage // the form's value when it opened: a cancel keeps a draft only of a change
}

// SetSession points the explorer at session gen; runs of an older session end.
func (x *Explorer) SetSession(s *session.Session, gen int) {
	x.sess, x.gen = s, gen
	for _, r := range x.runs {
		if !r.done && r.gen != gen {
			r.done, r.err, r.end = true, fmt.Errorf("the session ended (restart)"), x.clock()
		}
	}
	x.endTasks(gen)
	x.stopSubscriptions()
}

// ResultEnv is what result rendering needs from the explorer.
func (x *Explorer) ResultEnv() ResultEnv {
	env := ResultEnv{OutputSchema: x.outputSchema, Mask: x.c.Mask}
	if x.sess != nil {
		env.Revision = x.sess.Info().Revision
	}
	return env
}

// outputSchema is the outputSchema of a tool in the tools list, or nil.
func (x *Explorer) outputSchema(tool string) json.RawMessage {
	return x.toolMember(tool, "outputSchema")
}

// toolMember is a member (inputSchema, outputSchema…) of the tool called name in the tools
// list, or nil.
func (x *Explorer) toolMember(name, member string) json.RawMessage {
	for _, t := range x.tabs {
		if t.kind != session.ListTools {
			continue
		}
		for _, it := range t.items {
			if it.name == name {
				return it.obj[member]
			}
		}
	}
	return nil
}

// runKey names an item across refreshes, per list.
func runKey(it *exItem) string { return string(it.kind) + "\x00" + it.key() }

// run starts what enter does on the selected item: a form, or the request at once.
func (x *Explorer) run() tea.Cmd {
	it := x.selected()
	switch {
	case it == nil:
		return nil
	case x.sess == nil:
		return statusCmd("no live session: nothing can be sent", true)
	case it.invalid != "":
		return statusCmd("this item is "+it.invalid+": there is nothing to run", true)
	}
	switch it.kind {
	case session.ListTools:
		return x.toolForm(it)
	case session.ListPrompts:
		return x.promptForm(it)
	case session.ListResources:
		delete(x.updated, it.uri)
		return x.send(it, methodResourcesRead, it.uri, "", map[string]any{"uri": it.uri})
	case session.ListTemplates:
		return x.templateForm(it)
	case session.ListSkills:
		return x.loadSkill(it)
	case session.ListEvents:
		return x.eventForm(it)
	}
	return nil
}

// toolForm opens the form of a tool's inputSchema, or calls a tool without parameters.
func (x *Explorer) toolForm(it *exItem) tea.Cmd {
	if why := x.toolExcluded(it); why != "" {
		return statusCmd(why, true)
	}
	sch, err := form.Parse(it.obj["inputSchema"])
	if err != nil {
		return statusCmd(fmt.Sprintf("%s: cannot build a form from its inputSchema: %v", it.name, err), true)
	}
	submit := func(args json.RawMessage) tea.Cmd {
		return x.send(it, methodToolsCall, it.name, it.name, map[string]any{"name": it.name, "arguments": args}, x.taskMode(it)...)
	}
	if sch.Empty() {
		return submit(json.RawMessage(`{}`))
	}
	return x.openForm(it, sch, "tools/call "+it.name+mirroredNote(it), nil, submit)
}

// promptForm opens a form of a prompt's arguments (all strings), with completion.
func (x *Explorer) promptForm(it *exItem) tea.Cmd {
	submit := func(args json.RawMessage) tea.Cmd {
		return x.send(it, methodPromptsGet, it.name, "", map[string]any{"name": it.name, "arguments": args})
	}
	if len(it.args) == 0 {
		return submit(json.RawMessage(`{}`))
	}
	sch, err := form.Parse(promptSchema(it.args))
	if err != nil {
		return statusCmd(fmt.Sprintf("%s: cannot build a form of its arguments: %v", it.name, err), true)
	}
	return x.openForm(it, sch, "prompts/get "+it.name, map[string]string{"type": "ref/prompt", "name": it.name}, submit)
}

// templateForm opens a form of a resource template's variables; the expanded uri is read.
func (x *Explorer) templateForm(it *exItem) tea.Cmd {
	vars := templateVars(it.uriTemplate)
	submit := func(args json.RawMessage) tea.Cmd {
		var vals map[string]any
		_ = json.Unmarshal(args, &vals)
		uri := expandTemplate(it.uriTemplate, vals)
		return x.send(it, methodResourcesRead, uri, "", map[string]any{"uri": uri})
	}
	if len(vars) == 0 {
		return submit(json.RawMessage(`{}`))
	}
	sch, err := form.Parse(templateSchema(vars))
	if err != nil {
		return statusCmd(fmt.Sprintf("%s: cannot build a form of its variables: %v", it.uriTemplate, err), true)
	}
	return x.openForm(it, sch, "resources/read "+it.uriTemplate, map[string]string{"type": "ref/resource", "uri": it.uriTemplate}, submit)
}

// openForm shows a form for it; ref, when set and the server offers completions, asks
// completion/complete for suggestions while a field is typed.
func (x *Explorer) openForm(it *exItem, sch *form.Schema, title string, ref map[string]string, submit func(json.RawMessage) tea.Cmd) tea.Cmd {
	opts := form.Options{Styles: x.c.Styles.Forms(), Notes: headerNotes(it)}
	if ref != nil && x.sess != nil && capabilityDeclared(x.sess.Info().Capabilities, "completions") {
		opts.Complete = completeFunc(x.sess, ref)
	}
	fm := &callForm{it: it, title: title, submit: submit, sch: sch, opts: opts, key: strings.Join(strings.Fields(title)[:2], " ")}
	var note tea.Cmd
	if draft := x.drafts[fm.key]; draft != nil {
		opts.Initial = draft
		note = statusCmd("the draft you left unsent ("+x.c.Keys.ForgetArgs.Help().Key+" resets)", false)
	} else if last := x.last.get(fm.key); last != nil {
		opts.Initial, opts.Remembered, fm.remembered = last, true, true // typing replaces each value, as a default
	}
	fm.f = form.New(sch, opts)
	fm.start, _ = fm.f.Value()
	x.form = fm
	x.sizeForm()
	return tea.Batch(x.formCmd(fm.f.Init()), note)
}

// forgetArgs starts the open form again from the schema's defaults and forgets the
// arguments it last sent.
func (x *Explorer) forgetArgs() tea.Cmd {
	fm := x.form
	_, draft := x.drafts[fm.key]
	if !draft && !fm.remembered {
		return statusCmd("no remembered arguments: the form is at its defaults", false)
	}
	fm.f, fm.remembered = form.New(fm.sch, fm.opts), false
	fm.start, _ = fm.f.Value()
	x.sizeForm()
	if draft {
		delete(x.drafts, fm.key) // the remembered arguments stay for the next time
		return statusCmd("forgot the unsent draft of "+fm.key+": the form is at its defaults", false)
	}
	return tea.Batch(x.last.remember(fm.key, nil, x.c.Mask), statusCmd("forgot the last arguments of "+fm.key, false))
}

// sizeForm gives the open form the page below the tabs and its title line.
func (x *Explorer) sizeForm() {
	if x.form != nil {
		x.form.f.SetSize(max(10, x.w-2), max(3, x.h-explorerHeader-1))
	}
}

// capabilityDeclared reports whether a capabilities object declares name.
func capabilityDeclared(caps json.RawMessage, name string) bool {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(caps, &m)
	_, ok := m[name]
	return ok
}

// completeFunc asks completion/complete about ref for a form field.
func completeFunc(s *session.Session, ref map[string]string) form.CompleteFunc {
	return func(field, value string, args map[string]string) tea.Cmd {
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			vals, err := s.Complete(ctx, ref, field, value, args)
			return form.SuggestionsMsg{Values: vals, Err: err}
		}
	}
}

// formCmd tags the form's own messages so that they come back to the explorer.
func (x *Explorer) formCmd(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch msg := cmd().(type) {
		case tea.BatchMsg:
			for i := range msg {
				msg[i] = x.formCmd(msg[i])
			}
			return msg
		case form.SubmitMsg, form.CancelMsg, form.SuggestionsMsg:
			return exFormMsg{msg}
		default:
			return msg
		}
	}
}

// formUpdate hands a message to the open form and acts on its submit or cancel.
func (x *Explorer) formUpdate(msg tea.Msg) tea.Cmd {
	if x.form == nil {
		return nil
	}
	switch msg := msg.(type) {
	case form.SubmitMsg:
		fm := x.form
		x.form = nil
		delete(x.drafts, fm.key)
		return tea.Batch(fm.submit(msg.Args), x.last.remember(fm.key, msg.Args, x.c.Mask))
	case tea.KeyPressMsg:
		if key.Matches(msg, x.c.Keys.ForgetArgs) {
			return x.forgetArgs()
		}
	case form.CancelMsg:
		fm := x.form
		x.form = nil
		if v, _ := fm.f.Value(); v != nil && !bytes.Equal(v, fm.start) {
			x.drafts[fm.key] = v
			return statusCmd("draft kept: "+fm.key+" opens with what you typed ("+x.c.Keys.ForgetArgs.Help().Key+" resets)", false)
		}
		return nil
	}
	return x.formCmd(x.form.f.Update(msg))
}

// send starts a request for it and records the run; the result comes back as CallDoneMsg.
func (x *Explorer) send(it *exItem, method, target, tool string, params map[string]any, opts ...session.CallOption) tea.Cmd {
	cmd := x.start(it, method, target, tool, explorerCallCmd(x.sess, x.gen, x.runSeq+1, method, params, opts...))
	if r := x.runs[runKey(it)]; r != nil {
		r.args = argsOf(params)
	}
	return cmd
}

// start records a new run of it whose work is cmd (which answers with CallDoneMsg for run
// x.runSeq+1).
func (x *Explorer) start(it *exItem, method, target, tool string, cmd tea.Cmd) tea.Cmd {
	x.runSeq++
	r := &callRun{id: x.runSeq, gen: x.gen, method: method, target: target, tool: tool, start: x.clock()}
	if x.hist != nil {
		r.from = x.hist.FirstIndex() + uint64(x.hist.Len())
	}
	x.runs[runKey(it)] = r
	x.now = r.start
	x.dOff = 0
	if x.ticking {
		return cmd
	}
	x.ticking = true
	return tea.Batch(cmd, explorerTickCmd())
}

// taskMode is how the explorer calls a tool: as a task when the server runs tools as tasks
// (2025-11-25: the tool's execution.taskSupport is required or optional; 2026-07-28: the
// server declared the tasks extension and decides per call). The Tasks page follows it.
func (x *Explorer) taskMode(it *exItem) []session.CallOption {
	if x.sess == nil || x.sess.TaskSupport() != "" {
		return nil
	}
	if !x.sess.Info().Stateless {
		var ex struct {
			TaskSupport string `json:"taskSupport"`
		}
		_ = json.Unmarshal(it.obj["execution"], &ex)
		if ex.TaskSupport != "required" && ex.TaskSupport != "optional" {
			return nil
		}
	}
	return []session.CallOption{session.WithTask(0)}
}

// explorerCallCmd sends method with params on s and waits for the answer, asking for progress.
func explorerCallCmd(s *session.Session, gen, run int, method string, params map[string]any, opts ...session.CallOption) tea.Cmd {
	return func() tea.Msg {
		resp, err := s.Call(context.Background(), method, params, append([]session.CallOption{session.WithProgress()}, opts...)...)
		return CallDoneMsg{Gen: gen, Run: run, Resp: resp, Err: err, Rev: s.Info().Revision, At: time.Now()}
	}
}

// callDone records a run's outcome; answers for a run that was replaced, or of another
// session, are dropped.
func (x *Explorer) callDone(msg CallDoneMsg) {
	if msg.Gen != x.gen {
		return
	}
	for _, r := range x.runs {
		if r.id == msg.Run && !r.done {
			r.done, r.resp, r.err, r.rev, r.end = true, msg.Resp, runErr(msg.Err), msg.Rev, msg.At
			r.view = nil
			x.taskStarted(r)
			x.retryRefused(r)
			x.releaseResults()
			x.clampDetail()
			return
		}
	}
}

// selectedRun is the run of the selected item, or nil.
func (x *Explorer) selectedRun() *callRun {
	it := x.selected()
	if it == nil {
		return nil
	}
	return x.runs[runKey(it)]
}

// requestEntry finds a run's request in the history: from the response once it is in,
// and while it runs, the first request of that method (and tool) sent since it started.
func (x *Explorer) requestEntry(r *callRun) *traffic.Entry {
	h := x.hist
	if h == nil {
		return nil
	}
	if r.resp != nil && r.resp.Request != nil {
		if e := h.Lookup(r.gen, r.resp.Request.Seq); e != nil {
			return e
		}
	}
	if r.requestAt != nil && h.InMemory(r.requestAt) {
		return r.requestAt
	}
	var best *traffic.Entry
	for e := range h.Pending() {
		if e.Gen != r.gen || e.Index < r.from || !e.IsRequest() || e.Ev.Dir != protocol.ClientToServer || e.Ev.Frame.Method != r.method {
			continue
		}
		if traffic.RequestTarget(r.method, e.Ev.Frame.Params) != r.target {
			continue
		}
		if best == nil || e.Index < best.Index {
			best = e
		}
	}
	return best
}

// showCall asks the model to select the selected run's response (or request) in the
// timeline.
func (x *Explorer) showCall() tea.Cmd {
	r := x.selectedRun()
	if r == nil {
		return statusCmd("nothing was sent for this item yet", true)
	}
	e := x.requestEntry(r)
	if r.resp != nil && r.resp.Event != nil && x.hist != nil {
		if resp := x.hist.Lookup(r.gen, r.resp.Event.Seq); resp != nil {
			e = resp
		}
	}
	if e == nil || !x.hist.InMemory(e) {
		return statusCmd("the request is not in the timeline (not sent, or dropped from memory)", true)
	}
	return func() tea.Msg { return ShowEntryMsg{Entry: e} }
}

// runLines is the selected run's section of the detail: what was sent, its state or its
// outcome.
func (x *Explorer) runLines(r *callRun, w int) []string {
	s := x.c.Styles
	const pad = " "
	what := escapeText(r.method + " " + r.target)
	if r.taskRunning() {
		return x.taskLines(r, w)
	}
	if x.retryWaiting(r) {
		return x.retryLines(r, w)
	}
	if !r.done {
		line := pad + s.Accent.Render(fmt.Sprintf("calling %s…", escapeText(r.target))) + s.Muted.Render(" ⏱ "+textfmt.Elapsed(max(0, x.now.Sub(r.start))))
		if e := x.requestEntry(r); e != nil && e.Progress != nil {
			line += " " + s.Accent.Render(common.ProgressText(e.Progress))
		}
		return []string{line, pad + s.Muted.Render(what)}
	}
	head := pad + s.PaneTitle.Render("Result")
	if r.resp != nil && r.resp.Latency > 0 {
		head += s.Muted.Render(" · " + textfmt.Duration(r.resp.Latency))
	}
	out := append(append([]string{head}, x.taskSummary(r)...), x.retrySummary(r)...)
	out = append(out, textfmt.WrapProse(s.Subtle, what, pad, w)...)
	out = append(out, x.argsLines(r, w)...)
	out = append(out, pad+s.Muted.Render(x.c.Keys.ShowCall.Help().Key+" shows it in the timeline"))
	out = append(out, x.faultLines(r, w)...)
	if r.err != nil {
		st := s.Error
		label := runErrLabel(r)
		return append(out, textfmt.WrapProse(st, label+escapeProse(r.err.Error()), pad, w)...)
	}
	return append(out, x.resultLines(r, w)...)
}

// formView draws the open form under its title: h lines of w cells.
func (x *Explorer) formView(w, h int) []string {
	s := x.c.Styles
	fm := x.form
	title := " " + s.PaneTitleFocused.Render(escapeText(fm.title))
	if fm.remembered {
		title += s.Accent.Render("  last arguments · " + x.c.Keys.ForgetArgs.Help().Key + " defaults")
	}
	if fm.it.desc != "" {
		title += s.Muted.Render("  " + escapeText(firstLineOf(fm.it.desc)))
	}
	out := []string{textfmt.FitRow(textfmt.Clip(title, w), w)} // a description too long ends in …
	for _, l := range strings.Split(fm.f.View(), "\n") {
		out = append(out, " "+l)
	}
	return out[:min(len(out), h)]
}

func firstLineOf(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
