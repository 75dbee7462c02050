package explorer

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/ui/internal/common"
)

// TestAppPageLarge: a 4 MiB page is summed up in full while its HTML is shown within the
// result budget.
func TestAppPageLarge(t *testing.T) {
	html := "<!DOCTYPE html><html><head><title>Big</title><script src=\"https://cdn.example.com/a.js\"></script></head><body><!--" +
		strings.Repeat("x", 4<<20) + "--></body></html>"
	text, _ := json.Marshal(html)
	result := json.RawMessage(`{"contents":[{"uri":"ui://big/page.html","mimeType":"text/html;profile=mcp-app","text":` + string(text) + `}]}`)
	c := common.NewCommon(nil)
	v := RenderResult(c.Styles, c.Keys, methodResourcesRead, "", result, ResultEnv{}, 100)
	plain := ansi.Strip(strings.Join(v.Lines(), "\n"))
	for _, want := range []string{"title       Big", "4.2 MB (4194", "https://cdn.example.com · resourceDomains", "HTML"} {
		if !strings.Contains(plain, want) {
			t.Errorf("lacks %q:\n%s", want, plain[:min(len(plain), 3000)])
		}
	}
	if len(plain) > 2<<20 {
		t.Errorf("the layout holds %d bytes: the HTML is not bounded", len(plain))
	}
}
