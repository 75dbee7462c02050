package explorer

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session"
)

// TestExplorerStaleResult drops a result of an older session.
func TestExplorerStaleResult(t *testing.T) {
	x, _ := newDemoExplorer(t, 120, 30)
	x.gen = 2
	it := x.selected()
	x.runs[runKey(it)] = &callRun{id: 1, gen: 2, method: methodToolsCall, target: it.name}
	x.Update(CallDoneMsg{Gen: 1, Run: 1})
	if x.runs[runKey(it)].done {
		t.Fatal("a result of session 1 was taken by session 2")
	}
	x.Update(CallDoneMsg{Gen: 2, Run: 1, Err: &session.RPCError{Code: -32602, Message: "bad"}})
	r := x.runs[runKey(it)]
	if !r.done {
		t.Fatal("the current result was dropped")
	}
	if scr := explorerScreen(t, x); !strings.Contains(scr, "JSON-RPC error (no result)") {
		t.Errorf("a JSON-RPC error is not shown as one:\n%s", scr)
	}
}
