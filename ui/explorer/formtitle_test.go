package explorer

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/common"
)

// TestFormTitleCutWithEllipsis: at 80 columns a form's title whose tool description does
// not fit ends in "…" instead of stopping mid-word.
func TestFormTitleCutWithEllipsis(t *testing.T) {
	x := NewExplorer(common.NewCommon(nil))
	x.SetSize(80, 24)
	desc := "One page of tools/list, resources/list, resources/templates/list or prompts/list; pass the result's nextCursor as cursor for the next."
	tools := []json.RawMessage{json.RawMessage(`{"name":"list","description":"` + desc + `","inputSchema":{"type":"object","properties":{"cursor":{"type":"string"}}}}`)}
	x.SetLists(map[session.ListKind][]json.RawMessage{session.ListTools: tools}, map[session.ListKind]error{})
	x.toolForm(x.selected())
	if !x.FormOpen() {
		t.Fatalf("no form:\n%s", explorerScreen(t, x))
	}
	scr := explorerScreen(t, x)
	var title string
	for _, l := range strings.Split(scr, "\n") {
		if strings.Contains(l, "tools/call list") {
			title = strings.TrimRight(l, " ")
		}
	}
	if !strings.HasPrefix(strings.TrimSpace(title), "tools/call list  One page of") || !strings.HasSuffix(title, "…") {
		t.Errorf("the form's title is cut without an ellipsis: %q\n%s", title, scr)
	}
}
