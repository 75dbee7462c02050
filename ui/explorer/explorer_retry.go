package explorer

import (
	"errors"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// A request the explorer sent (tools/call, prompts/get, resources/read) that the server
// refuses with error -32042 is followed through its retry (urlrequired.go), so that its
// answer comes back where the call was made: while the dialog waits, the run's section
// says so and names the dialog's keys; when the request is sent again, the run starts
// again and ends with the retried request's answer, shown as any call's result with its
// own latency; when the user stops waiting, the run keeps the error and says why. Runs and
// waits meet by the refused request's event (its Seq), whichever of the call's answer and
// the pump's batch comes first.

// runRetry marks a run whose request was refused with error -32042.
type runRetry struct {
	seq   uint64    // the refused request's event (a retry refused again moves it on)
	since time.Time // when the first refusal came
	sent  int       // how many times the request was sent again
}

// urlRefusal is what became of one -32042 answer: the dialog's wait while it is open, and
// how it ended.
type urlRefusal struct {
	wait    URLWait // while the dialog waits; nil once it stopped or sent (the params go with it)
	stopped bool    // the user stopped waiting: the request was not sent again
	sent    bool    // the request was sent again
}

// URLWait is a -32042 dialog's wait as the explorer shows it, read live while the dialog
// keeps it: the refused request (its session and event), its pages, why it cannot be sent
// again ("" when it can), and the dialog's keys that act on it.
type URLWait interface {
	Refused() (gen int, seq uint64)
	PageStates() []URLPageState
	NoRetry() string
	Bindings(k *KeyMap) []key.Binding
}

// URLPageState is one page of a URLWait: its elicitation id and whether it completed.
type URLPageState struct {
	ID   string
	Done bool
}

// URLRetriedMsg is the answer of a request sent again after -32042; Seq is the refused
// request's event, which the explorer's run (if the call was made there) is waiting on.
// The model also tells the status line how it ended, wherever the request was made.
type URLRetriedMsg struct {
	Gen    int
	Seq    uint64
	Method string
	Resp   *session.Response
	Err    error
	Rev    protocol.Revision
	At     time.Time
}

func (URLRetriedMsg) explorerMsg() {}

// URLWaitOpened notes a wait the dialog took in; refusals of earlier sessions go.
func (x *Explorer) URLWaitOpened(w URLWait) {
	if x.refusals == nil {
		x.refusals = map[genSeq]*urlRefusal{}
	}
	gen, seq := w.Refused()
	for k := range x.refusals {
		if k.gen != gen {
			delete(x.refusals, k)
		}
	}
	x.refusals[genSeq{gen, seq}] = &urlRefusal{wait: w}
}

// URLWaitStopped notes that the user stopped waiting for w.
func (x *Explorer) URLWaitStopped(w URLWait) {
	if ref := x.refusals[refusalKey(w)]; ref != nil {
		ref.wait, ref.stopped = nil, true
	}
}

// URLWaitSent notes that w's request is being sent again: the run that made it, if the
// explorer did, starts again and waits for the retry's answer.
func (x *Explorer) URLWaitSent(w URLWait) tea.Cmd {
	k := refusalKey(w)
	if ref := x.refusals[k]; ref != nil {
		ref.wait, ref.sent = nil, true
	}
	r := x.refusedRun(k.gen, k.seq)
	if r == nil || !r.done {
		return nil
	}
	r.retry.sent++
	r.done, r.resp, r.err, r.view, r.task, r.requestAt = false, nil, nil, nil, nil, nil
	r.start, r.nextLink = x.clock(), 0
	if x.hist != nil {
		r.from = x.hist.FirstIndex() + uint64(x.hist.Len())
	}
	x.now, x.dOff = r.start, 0
	x.clampDetail()
	if x.ticking {
		return nil
	}
	x.ticking = true
	return explorerTickCmd()
}

// refusalKey is the refused request w waits to send again.
func refusalKey(w URLWait) genSeq {
	gen, seq := w.Refused()
	return genSeq{gen, seq}
}

// refusedRun is the latest run of an item whose request was the refused event seq, or nil.
func (x *Explorer) refusedRun(gen int, seq uint64) *callRun {
	for _, r := range x.runs {
		if r.gen == gen && r.retry != nil && r.retry.seq == seq {
			return r
		}
	}
	return nil
}

// retryRefused notes that r's answer was error -32042: the run follows its retry.
func (x *Explorer) retryRefused(r *callRun) {
	if !refusedForURL(r.err) || r.resp == nil || r.resp.Request == nil {
		return
	}
	if r.retry == nil {
		r.retry = &runRetry{since: r.end}
	}
	r.retry.seq = r.resp.Request.Seq
}

// urlRetried takes in a retry's answer: the run waiting on it ends with it, as a call's
// run would.
func (x *Explorer) urlRetried(msg URLRetriedMsg) {
	if msg.Gen != x.gen {
		return
	}
	delete(x.refusals, genSeq{msg.Gen, msg.Seq})
	r := x.refusedRun(msg.Gen, msg.Seq)
	switch {
	case r == nil, r.done && !refusedForURL(r.err):
		return
	case r.done: // the call's refusal came in after the request was sent again
		r.retry.sent++
	}
	r.done, r.resp, r.err, r.rev, r.end = true, msg.Resp, runErr(msg.Err), msg.Rev, msg.At
	r.view = nil
	x.taskStarted(r)
	x.retryRefused(r)
	x.clampDetail()
}

// retryWaiting reports whether r's request was refused with -32042 and waits for its
// retry: neither stopped nor sent again.
func (x *Explorer) retryWaiting(r *callRun) bool {
	if r.retry == nil || !r.done || r.gen != x.gen || !refusedForURL(r.err) {
		return false
	}
	ref := x.refusals[genSeq{r.gen, r.retry.seq}]
	return ref == nil || ref.wait != nil // nil: the dialog has not taken the answer in yet
}

// retryLines is the section of a run waiting for its URL elicitation: what was refused,
// the pages and the dialog's keys.
func (x *Explorer) retryLines(r *callRun, w int) []string {
	s := x.c.Styles
	const pad = " "
	head := pad + s.PaneTitle.Render("Waiting for a URL elicitation") +
		s.Muted.Render(" ⏱ "+textfmt.Elapsed(max(0, x.now.Sub(r.retry.since))))
	out := append([]string{head}, textfmt.WrapProse(s.Muted, r.method+" "+r.target+
		" was refused with error -32042 (URL elicitation required): the server needs a page opened first", pad, w)...)
	ref := x.refusals[genSeq{r.gen, r.retry.seq}]
	if ref == nil || ref.wait == nil {
		return append(out, textfmt.WrapProse(s.Subtle, "the dialog with the page opens", pad, w)...)
	}
	wt := ref.wait
	for _, p := range wt.PageStates() {
		state := s.Accent.Render("waiting")
		if p.Done {
			state = s.Response.Render("complete ✓")
		}
		out = append(out, pad+s.Muted.Render("Elicitation ")+s.Text.Render(textfmt.Clip(escapeText(p.ID), max(1, w/2)))+"  "+state)
	}
	if why := wt.NoRetry(); why != "" {
		out = append(out, textfmt.WrapProse(s.Error, "it cannot be sent again: "+why, pad, w)...)
	} else {
		out = append(out, textfmt.WrapProse(s.Subtle, "it is sent again with a new id when every elicitation is complete; the answer appears here", pad, w)...)
	}
	var help []string
	for _, b := range wt.Bindings(x.c.Keys) {
		if b.Enabled() {
			help = append(help, b.Help().Key+" "+b.Help().Desc)
		}
	}
	return append(out, textfmt.WrapProse(s.Muted, "in the dialog: "+strings.Join(help, " · "), pad, w)...)
}

// retrySummary is the line above the result of a run that was refused with -32042: that
// it was sent again, or that it was not and why.
func (x *Explorer) retrySummary(r *callRun) []string {
	if r.retry == nil || !r.done {
		return nil
	}
	s := x.c.Styles
	var ref *urlRefusal
	if r.retry.seq != 0 {
		ref = x.refusals[genSeq{r.gen, r.retry.seq}]
	}
	switch {
	case ref != nil && ref.stopped:
		return []string{" " + s.Error.Render("you stopped waiting for the URL elicitation: the call was not sent again")}
	case r.gen != x.gen && refusedForURL(r.err):
		return []string{" " + s.Error.Render("the session ended while the call waited for its URL elicitation")}
	case ref != nil && ref.sent:
		return []string{" " + s.Muted.Render("sent again; its answer is in the timeline")}
	case r.retry.sent > 0:
		return []string{" " + s.Muted.Render("sent again after error -32042 (URL elicitation required)")}
	}
	return nil
}

// refusedForURL reports whether err is the answer -32042 (URL elicitation required).
func refusedForURL(err error) bool {
	var rpc *session.RPCError
	return errors.As(err, &rpc) && rpc.Code == protocol.URLElicitationRequired
}
