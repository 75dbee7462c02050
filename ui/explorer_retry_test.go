package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/explorer"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// exploreURLRequired calls the demo's url_required from the explorer and waits for the
// -32042 dialog; it returns the run as it was then.
func exploreURLRequired(r *rig) *explorer.Call {
	r.t.Helper()
	r.keys("2")
	r.d.selectItem(0, "url_required")
	r.keys("enter")
	r.until("the -32042 dialog", func() bool { return dialogOf[*urlRequiredDialog](r.m) != nil })
	run := selectedCall(r.m)
	if run == nil || run.Method != methodToolsCall || run.Target != "url_required" {
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
	if strings.Contains(got, "JSON-RPC error") || !r.m.explorer.Running() {
		t.Errorf("the waiting run shows the error as its result, or does not count as running:\n%s", got)
	}
	waiting := selectedCall(r.m)
	if waiting.ID != run.ID || waiting.Refused == 0 {
		t.Fatalf("the waiting run is another, or follows no refusal: %+v", waiting)
	}
	refused := waiting.Refused

	visit(t, url)
	r.until("the retried answer in the explorer", func() bool {
		return strings.Contains(exDetail(r.m), "Connected: the page was visited")
	})
	got = exDetail(r.m)
	if !strings.Contains(got, "sent again after error -32042 (URL elicitation required)") || strings.Contains(got, "Waiting for") || strings.Contains(got, "JSON-RPC error") {
		t.Errorf("the retried result:\n%s", got)
	}
	ended := selectedCall(r.m)
	if ended.ID != run.ID {
		t.Fatalf("the retry's answer made another run: %+v", ended)
	}
	run = ended
	if !run.Done || run.Err != nil || run.Resp.Request.Seq == refused || run.Resp.Latency <= 0 {
		t.Fatalf("the run did not end with the retry's answer: %+v", run)
	}
	if want := "Result · " + textfmt.Duration(run.Resp.Latency); !strings.Contains(got, want) {
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
	if strings.Contains(got, "Waiting for") || r.m.explorer.Running() {
		t.Errorf("the explorer still waits after esc:\n%s", got)
	}
}

// TestURLRetriedStatus: the answer of a request sent again after -32042 reaches the
// status line through the model, whether or not the explorer made the request.
func TestURLRetriedStatus(t *testing.T) {
	m := NewModel(NewCommon(nil), Options{})
	refusal := &session.RPCError{Code: protocol.URLElicitationRequired, Message: "still required"}
	_, cmd := m.Update(explorer.URLRetriedMsg{Gen: m.gen, Seq: 5, Method: methodToolsCall, Err: refusal, At: time.Now()})
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
