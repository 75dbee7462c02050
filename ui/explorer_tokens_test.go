package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol/tokens"
	"github.com/mcpscope/mcpscope/session"
)

// TestExplorerToolTokens: the tool list shows each tool's context cost once the command
// that counts them has run; a changed tool is counted again, the others are not.
func TestExplorerToolTokens(t *testing.T) {
	x, lists := newDemoExplorer(t, 140, 30)
	if strings.Contains(explorerScreen(t, x), " tok") {
		t.Fatal("a count on screen before any was made")
	}
	cmd := x.CountTokensCmd()
	if cmd == nil {
		t.Fatal("no command to count the tools")
	}
	x.Update(cmd())
	add := lists[session.ListTools][0]
	n, err := tokens.Tool(add)
	if err != nil {
		t.Fatal(err)
	}
	var row string
	for _, l := range strings.Split(explorerScreen(t, x), "\n") {
		if strings.HasPrefix(l, "▶add ") {
			row, _, _ = strings.Cut(l, "│")
		}
	}
	if !strings.HasSuffix(strings.TrimRight(row, " "), " "+compactTokens(n)+" tok") {
		t.Errorf("the add row does not end with its %d tokens:\n%q", n, row)
	}
	if x.CountTokensCmd() != nil {
		t.Error("counted the same tools again")
	}
	changed := append([]json.RawMessage{json.RawMessage(`{"name":"add","description":"Now longer than before.","inputSchema":{"type":"object"}}`)},
		lists[session.ListTools][1:]...)
	x.UpdateLists(map[session.ListKind][]json.RawMessage{session.ListTools: changed})
	cmd = x.CountTokensCmd()
	if cmd == nil {
		t.Fatal("the changed tool is not counted again")
	}
	if msg := cmd().(toolTokensMsg); len(msg.counts) != 1 {
		t.Errorf("counted %d tools, want the one that changed", len(msg.counts))
	}
}

// TestCompactTokens: counts fit in four characters.
func TestCompactTokens(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1234: "1.2k", 12345: "12k", 150000: "150k"} {
		if got := compactTokens(n); got != want {
			t.Errorf("%d: %q, want %q", n, got, want)
		}
	}
}
