package explorer

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/common"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// TestExplorerURLRetryPrompt: the retry is followed for any request the explorer sends (here
// a prompts/get), and in either order of the call's answer and the dialog's wait.
func TestExplorerURLRetryPrompt(t *testing.T) {
	c := common.NewCommon(nil)
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
	w := &fakeWait{gen: 1, seq: 7, pages: []URLPageState{{ID: "e-1"}}}
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
	x := NewExplorer(common.NewCommon(nil))
	x.gen, x.clock = 1, time.Now
	x.SetSize(100, 30)
	x.SetLists(map[session.ListKind][]json.RawMessage{session.ListTools: {json.RawMessage(`{"name":"link","inputSchema":{"type":"object"}}`)}}, nil)
	run := &callRun{id: 1, gen: 1, method: methodToolsCall, target: "link", tool: "link", start: time.Now()}
	x.runs[runKey(x.selected())] = run
	w := &fakeWait{gen: 1, seq: 3, pages: []URLPageState{{ID: "e-1", Done: true}}}
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

// fakeWait is a URLWait that is not the -32042 dialog's.
type fakeWait struct {
	gen   int
	seq   uint64
	pages []URLPageState
}

func (w *fakeWait) Refused() (int, uint64)           { return w.gen, w.seq }
func (w *fakeWait) PageStates() []URLPageState       { return w.pages }
func (w *fakeWait) NoRetry() string                  { return "" }
func (w *fakeWait) Bindings(k *KeyMap) []key.Binding { return []key.Binding{k.Open} }
