package apphost_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/apphost"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestAppToolCallExactKey: the visibility check reads the tool's name by its exact key. A
// view that sends {"name":"view_dice","Name":"view_dice_reroll"} (encoding/json would read
// "view_dice_reroll", an app-visible tool, while the server runs "view_dice", which is for
// the model only), a name sent twice, or a tool the server never listed is refused on the
// app lane and never reaches the server.
func TestAppToolCallExactKey(t *testing.T) {
	streamable, _ := sessiontest.StartDemoHTTP(t)
	s := connect(t, transport.NewStreamableHTTP(transport.HTTPOptions{URL: streamable}))
	tl := watch(t, s)
	tools := toolsOf(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h, err := apphost.Start(ctx, apphost.Config{Session: s, Tool: toolNamed(t, tools, "view_dice"), Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(0)
	start := tl.len() // the model side's own call of view_dice is before this
	for i, c := range []struct {
		params, why string
		ambiguous   bool
	}{
		{`{"name":"view_dice","Name":"view_dice_reroll"}`, "", true},
		{`{"Name":"view_dice_reroll","name":"view_dice"}`, "", true},
		{`{"name":"view_dice_reroll","name":"view_dice"}`, "", true},
		{`{"name":"no_such_tool"}`, "not in the server's tools/list", false},
		{`{"name":"view_dice"}`, "not visible to apps", false},
	} {
		from := tl.len()
		h.FromView([]byte(`{"jsonrpc":"2.0","id":` + string(rune('1'+i)) + `,"method":"tools/call","params":` + c.params + `}`))
		got := tl.waitSteps(t, from, step{"app→host", "request", "tools/call"}, step{"host→app", "error", "tools/call"})
		if !hasFinding(got[1], protocol.FindAppRefused) {
			t.Errorf("%s: the refusal lacks its finding: %s", c.params, got[1].Frame.Raw)
		}
		if !c.ambiguous && !strings.Contains(string(got[1].Frame.Raw), c.why) {
			t.Errorf("%s: refusal %s does not say %q", c.params, got[1].Frame.Raw, c.why)
		}
		if c.ambiguous {
			if !strings.Contains(string(got[1].Frame.Raw), "read as one member") {
				t.Errorf("%s: refusal %s does not name the ambiguous keys", c.params, got[1].Frame.Raw)
			}
			if !hasFinding(got[0], protocol.FindAmbiguousKey) {
				t.Errorf("%s: the app's request is not flagged %s: %v", c.params, protocol.FindAmbiguousKey, got[0].Frame.Findings)
			}
		}
	}
	tl.mu.Lock()
	defer tl.mu.Unlock()
	for _, e := range tl.evs[start:] {
		if e.Kind == session.EvFrame && e.Lane != session.LaneApp && e.Frame.Method == "tools/call" {
			t.Errorf("a refused call reached the server: %s", e.Summary())
		}
	}
}
