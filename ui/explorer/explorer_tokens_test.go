package explorer

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol/tokens"
	"github.com/mcpscope/mcpscope/session"
)

// TestExplorerToolTokens: the tool list shows each tool's context cost once the command
// that counts them has run; a changed list is counted again, and a count made for the
// list it replaced shows nowhere.
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
	if strings.Contains(explorerScreen(t, x), " tok") {
		t.Error("counts of the replaced list are shown")
	}
	cmd = x.CountTokensCmd()
	if cmd == nil {
		t.Fatal("the changed list is not counted")
	}
	msg := cmd().(toolTokensMsg)
	if len(msg.counts) != len(changed) {
		t.Errorf("counted %d tools, want %d", len(msg.counts), len(changed))
	}
	x.Update(msg)
	short, _ := tokens.Tool(changed[0])
	if !strings.Contains(explorerScreen(t, x), " "+compactTokens(short)+" tok") || len(x.toolTokens) != len(changed) {
		t.Errorf("the changed add's %d tokens are not shown, or counts of the old list kept (%d)", short, len(x.toolTokens))
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

// TestExplorerAppOnlyTokens: the app-only tool's count is in brackets, set apart from the
// counts of the tools the model sees.
func TestExplorerAppOnlyTokens(t *testing.T) {
	x, _ := newDemoExplorer(t, 140, 30)
	x.SetLists(map[session.ListKind][]json.RawMessage{session.ListTools: {
		json.RawMessage(`{"name":"view_dice","description":"Shows dice.","inputSchema":{"type":"object"},"_meta":{"ui":{"resourceUri":"ui://dice","visibility":["model"]}}}`),
		json.RawMessage(`{"name":"view_dice_reroll","description":"The app's button.","inputSchema":{"type":"object"},"_meta":{"ui":{"resourceUri":"ui://dice","visibility":["app"]}}}`),
	}}, map[session.ListKind]error{})
	x.Update(x.CountTokensCmd()())
	appOnly := false
	for _, l := range strings.Split(explorerScreen(t, x), "\n") {
		row, _, _ := strings.Cut(l, "│")
		if !strings.Contains(row, "view_dice") {
			continue
		}
		if !strings.Contains(row, "view_dice_reroll") {
			if strings.HasSuffix(strings.TrimRight(row, " "), " tok)") {
				t.Errorf("a tool the model sees has its count bracketed:\n%q", row)
			}
			continue
		}
		appOnly = true
		// The app-only tool's count is bracketed: it is not in the model's context.
		if !strings.HasSuffix(strings.TrimRight(row, " "), " tok)") {
			t.Errorf("the app-only tool's count is not set apart:\n%q", row)
		}
	}
	if !appOnly {
		t.Error("view_dice_reroll is not on the screen")
	}
}
