package ui

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// exploreURLRequired calls the demo's url_required from the explorer and waits for the
// -32042 dialog; it returns the run.
func exploreURLRequired(r *rig) *callRun {
	r.t.Helper()
	r.keys("2")
	r.d.selectItem(0, "url_required")
	r.keys("enter")
	r.until("the -32042 dialog", func() bool { return dialogOf[*urlRequiredDialog](r.m) != nil })
	run := r.m.explorer.selectedRun()
	if run == nil || run.method != methodToolsCall || run.target != "url_required" {
		r.t.Fatalf("the explorer's run is %+v", run)
	}
	return run
}

// TestExplorerFollowsURLRetry: a call made from the explorer that gets error -32042 says in
// the explorer that it waits for the URL elicitation and which keys act (the dialog's);
// once the page is visited, the retried request's answer is the explorer's result, with
// its own latency and a line saying it was sent again.
func TestExplorerFollowsURLRetry(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	run := exploreURLRequired(r)
	id, url := urlRequiredPage(t, r)
	r.until("the explorer waiting for the page", func() bool {
		return strings.Contains(exDetail(r.m), "Elicitation "+id+"  waiting")
	})
	got := exDetail(r.m)
	for _, want := range []string{"Waiting for a URL elicitation ⏱", "tools/call url_required was refused with error -32042 (URL elicitation required)",
		"it is sent again with a new id when every elicitation is complete; the answer appears here",
		"in the dialog: o open URL in browser · y copy URL · r retry now · esc stop waiting"} {
		if !strings.Contains(got, want) {
			t.Errorf("the waiting run lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "JSON-RPC error") || !r.m.explorer.running() {
		t.Errorf("the waiting run shows the error as its result, or does not count as running:\n%s", got)
	}
	refused := run.retry.seq

	visit(t, url)
	r.until("the retried answer in the explorer", func() bool {
		return strings.Contains(exDetail(r.m), "Connected: the page was visited")
	})
	got = exDetail(r.m)
	if !strings.Contains(got, "sent again after error -32042 (URL elicitation required)") || strings.Contains(got, "Waiting for") || strings.Contains(got, "JSON-RPC error") {
		t.Errorf("the retried result:\n%s", got)
	}
	if run != r.m.explorer.selectedRun() || !run.done || run.err != nil || run.resp.Request.Seq == refused || run.resp.Latency <= 0 {
		t.Fatalf("the run did not end with the retry's answer: %+v", run)
	}
	if want := "Result · " + textfmt.Duration(run.resp.Latency); !strings.Contains(got, want) {
		t.Errorf("the result does not give the retry's latency (%q):\n%s", want, got)
	}
	// The answer can come back before the pump delivers the frames to the history.
	r.until("the retry in the history", func() bool { return urlRequiredCalls(r) >= 2 })
	r.until("the retry's answer in the history", func() bool { return r.frame("Connected: the page was visited") != nil })
	if n := urlRequiredCalls(r); n != 2 {
		t.Errorf("url_required sent %d times, want 2", n)
	}
}

// TestExplorerURLRetryKeys: r sends the call again from the dialog and the explorer waits
// on the new refusal (its new elicitation); esc stops waiting and the explorer says so
// under the error.
func TestExplorerURLRetryKeys(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	exploreURLRequired(r)
	first, _ := urlRequiredPage(t, r)
	r.keys("r")
	r.until("the retry's -32042", func() bool { return countFrames(r, `"code":-32042`) == 2 })
	second, _ := urlRequiredPage(t, r)
	r.until("the explorer waiting on the new elicitation", func() bool {
		return strings.Contains(exDetail(r.m), "Elicitation "+second+"  waiting")
	})
	if got := exDetail(r.m); strings.Contains(got, first) {
		t.Errorf("the explorer still names the first elicitation %s:\n%s", first, got)
	}
	r.keys("esc")
	got := exDetail(r.m)
	for _, want := range []string{"you stopped waiting for the URL elicitation: the call was not sent again", "JSON-RPC error -32042"} {
		if !strings.Contains(got, want) {
			t.Errorf("after esc the explorer lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Waiting for") || r.m.explorer.running() {
		t.Errorf("the explorer still waits after esc:\n%s", got)
	}
}

// TestExplorerURLRetryPrompt: the retry is followed for any request the explorer sends (here
// a prompts/get), and in either order of the call's answer and the dialog's wait.
func TestExplorerURLRetryPrompt(t *testing.T) {
	c := NewCommon(nil)
	x := NewExplorer(c)
	x.gen, x.clock = 1, time.Now
	x.SetSize(100, 30)
	x.SetLists(map[session.ListKind][]json.RawMessage{session.ListPrompts: {json.RawMessage(`{"name":"greet"}`)}}, nil)
	for i, tab := range x.tabs {
		if tab.kind == session.ListPrompts {
			x.selectTab(i)
		}
	}
	run := &callRun{id: 1, gen: 1, method: methodPromptsGet, target: "greet", start: time.Now()}
	x.runs[runKey(x.selected())] = run
	x.runSeq = 1
	refusal := &session.RPCError{Code: protocol.URLElicitationRequired, Message: "URL elicitation required"}
	x.Update(CallDoneMsg{Gen: 1, Run: 1, Err: refusal, At: time.Now(),
		Resp: &session.Response{Request: &session.Event{Seq: 7}}})
	lines := func() string { return ansi.Strip(strings.Join(x.detailLines(100), "\n")) }
	if got := lines(); !strings.Contains(got, "Waiting for a URL elicitation") || !strings.Contains(got, "the dialog with the page opens") {
		t.Fatalf("before the dialog took the refusal in:\n%s", got)
	}
	w := &urlWait{gen: 1, reqSeq: 7, method: methodPromptsGet, pages: []urlElicit{{ID: "e-1"}}}
	x.URLWaitOpened(w)
	if got := lines(); !strings.Contains(got, "prompts/get greet was refused with error -32042") || !strings.Contains(got, "Elicitation e-1  waiting") {
		t.Fatalf("the waiting prompt:\n%s", got)
	}
	x.URLWaitSent(w)
	if got := lines(); !strings.Contains(got, "calling greet…") {
		t.Fatalf("the prompt sent again:\n%s", got)
	}
	x.Update(URLRetriedMsg{Gen: 1, Seq: 7, Method: methodPromptsGet, At: time.Now(), Resp: &session.Response{
		Request: &session.Event{Seq: 9}, Latency: 42 * time.Millisecond,
		Result: json.RawMessage(`{"messages":[{"role":"user","content":{"type":"text","text":"hello there"}}]}`)}})
	got := lines()
	for _, want := range []string{"Result · " + textfmt.Duration(42*time.Millisecond), "sent again after error -32042", "hello there"} {
		if !strings.Contains(got, want) {
			t.Errorf("the prompt's retried result lacks %q:\n%s", want, got)
		}
	}
	if x.running() {
		t.Errorf("the explorer still runs after the retry's answer")
	}
	// A stale answer (a refusal nobody in the explorer waits on) changes nothing.
	x.Update(URLRetriedMsg{Gen: 1, Seq: 7, Method: methodPromptsGet, Err: refusal})
	if lines() != got {
		t.Errorf("a second answer for the same refusal changed the run")
	}
}

// TestExplorerURLRetryLateRefusal: when the request is sent again before the call's own
// answer (the refusal) reaches the explorer, the run still ends with the retry's answer.
func TestExplorerURLRetryLateRefusal(t *testing.T) {
	x := NewExplorer(NewCommon(nil))
	x.gen, x.clock = 1, time.Now
	x.SetSize(100, 30)
	x.SetLists(map[session.ListKind][]json.RawMessage{session.ListTools: {json.RawMessage(`{"name":"link","inputSchema":{"type":"object"}}`)}}, nil)
	run := &callRun{id: 1, gen: 1, method: methodToolsCall, target: "link", tool: "link", start: time.Now()}
	x.runs[runKey(x.selected())] = run
	w := &urlWait{gen: 1, reqSeq: 3, method: methodToolsCall, pages: []urlElicit{{ID: "e-1", Done: true}}}
	x.URLWaitOpened(w)
	x.URLWaitSent(w) // the completion came first: nothing in the explorer knows the refusal yet
	x.Update(CallDoneMsg{Gen: 1, Run: 1, At: time.Now(), Err: &session.RPCError{Code: protocol.URLElicitationRequired},
		Resp: &session.Response{Request: &session.Event{Seq: 3}}})
	lines := func() string { return ansi.Strip(strings.Join(x.detailLines(100), "\n")) }
	if got := lines(); !strings.Contains(got, "sent again; its answer is in the timeline") || strings.Contains(got, "Waiting for") {
		t.Fatalf("the refusal of a request already sent again:\n%s", got)
	}
	x.Update(URLRetriedMsg{Gen: 1, Seq: 3, Method: methodToolsCall, At: time.Now(), Resp: &session.Response{
		Request: &session.Event{Seq: 5}, Latency: time.Millisecond, Result: json.RawMessage(`{"content":[{"type":"text","text":"linked"}]}`)}})
	if got := lines(); !strings.Contains(got, "linked") || !strings.Contains(got, "sent again after error -32042") || strings.Contains(got, "JSON-RPC error") {
		t.Errorf("the retry's answer is not the run's:\n%s", got)
	}
}

// TestURLRetriedStatus: the answer of a request sent again after -32042 reaches the
// status line through the model, whether or not the explorer made the request.
func TestURLRetriedStatus(t *testing.T) {
	m := NewModel(NewCommon(nil), Options{})
	refusal := &session.RPCError{Code: protocol.URLElicitationRequired, Message: "still required"}
	_, cmd := m.Update(URLRetriedMsg{Gen: m.gen, Seq: 5, Method: methodToolsCall, Err: refusal, At: time.Now()})
	var msgs []tea.Msg
	for queue := []tea.Cmd{cmd}; len(queue) > 0; queue = queue[1:] {
		if queue[0] == nil {
			continue
		}
		switch msg := queue[0]().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			msgs = append(msgs, msg)
		}
	}
	for _, msg := range msgs {
		if s, ok := msg.(sentMsg); ok && s.Method == methodToolsCall && errors.Is(s.Err, refusal) {
			_, cmd := m.Update(s)
			if st, ok := cmd().(StatusMsg); !ok || !st.Error || !strings.Contains(st.Text, "still required") {
				t.Errorf("the status of the retried request: %+v", st)
			}
			return
		}
	}
	t.Fatalf("no status for the retried request's answer: %#v", msgs)
}
