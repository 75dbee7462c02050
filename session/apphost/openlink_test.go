package apphost_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/session/apphost"
)

// TestOpenLinkOnlyWeb: an app's ui/open-link of anything but an http(s) URL (a flag, file:,
// javascript:, control bytes) is refused as an invalid URL, with app.refused, and never
// put to the user nor to the browser opener; an http(s) URL is put to the user.
func TestOpenLinkOnlyWeb(t *testing.T) {
	var mu sync.Mutex
	var asked, opened []string
	h, s := hostileApp{name: "links", uri: "ui://links/app"}.start(t, apphost.Config{
		Ask: func(_ context.Context, q apphost.Question) bool {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, q.Text)
			return true
		},
		OpenURL: func(u string) error { mu.Lock(); opened = append(opened, u); mu.Unlock(); return nil },
	})
	tl := watch(t, s)
	page := openPage(t, h)
	bad := []string{"--new-window", "-e", "file:///etc/passwd", "javascript:alert(1)", "data:text/html,x",
		"https://example.com/\n--incognito", "https://example.com/\x00", "http:example.com", "//example.com"}
	for i, u := range append(bad, "https://example.com/ok") {
		mark := tl.len()
		q, _ := json.Marshal(u)
		msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ui/open-link","params":{"url":%s}}`, i+1, q)
		if code := page.post(msg); code != http.StatusNoContent {
			t.Fatalf("relay ui/open-link: %d", code)
		}
		if i == len(bad) {
			tl.waitSteps(t, mark, step{"app→host", "request", apps.MethodOpenLink}, step{"host→app", "result", apps.MethodOpenLink})
			break
		}
		got := tl.waitSteps(t, mark, step{"app→host", "request", apps.MethodOpenLink}, step{"host→app", "error", apps.MethodOpenLink})
		if !hasFinding(got[1], protocol.FindAppRefused) || !strings.Contains(string(got[1].Frame.Raw), "Invalid URL") ||
			!strings.Contains(string(got[1].Frame.Raw), `"code":-32602`) {
			t.Errorf("ui/open-link %q: answered %s %v, want -32602 Invalid URL with app.refused", u, got[1].Frame.Raw, got[1].Frame.Findings)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 || asked[0] != "https://example.com/ok" || len(opened) != 1 || opened[0] != asked[0] {
		t.Errorf("asked %q, opened %q: want only the https URL", asked, opened)
	}
}
