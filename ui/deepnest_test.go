package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// TestDetailDeepNesting: a result nested 100,000 levels deep is flagged with the nesting
// finding in the detail view, and its bytes are still shown as received.
func TestDetailDeepNesting(t *testing.T) {
	const depth = 100000
	deep := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"nested"}],"structuredContent":{"deep":` +
		strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}}}`
	_, resp := dtExchange(t, traffic.NewHistory(0), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deepnest","arguments":{}}}`, deep)
	d := dtDetail(pairSideBySide-1, 200)
	dtDrain(d, d.SetEntry(resp))
	text := dtText(d)
	for _, want := range []string{protocol.FindTooDeep, "nests 100003 levels deep, beyond the 10000 levels", `"deep":[[[[`} {
		if !strings.Contains(text, want) {
			t.Errorf("detail lacks %q:\n%s", want, text[:min(len(text), 3000)])
		}
	}
}
