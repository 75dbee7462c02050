package apphost_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/apphost"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// evalApp runs eval as its first script and reports on the lane whether it ran.
const evalApp = `<!DOCTYPE html><html><body><script>
let got;
try { got = eval("6*7") === 42 ? "ran" : "odd"; } catch (e) { got = "blocked"; }
parent.postMessage({jsonrpc: "2.0", method: "notifications/message", params: {level: "info", logger: "probe", data: got}}, "*");
</script></body></html>`

// TestCSPViolationFinding: under the strict policy (the spec's default) a view's eval is
// blocked and the app lane gets a row with an app.csp-violation finding naming the
// directive and pointing at --csp reference; under --csp reference (the ext-apps reference
// host's policy) the same eval runs and no violation is reported.
func TestCSPViolationFinding(t *testing.T) {
	bctx := sessiontest.Chromium(t)
	for _, tc := range []struct {
		mode, want string
	}{
		{apphost.CSPStrict, `"blocked"`},
		{apphost.CSPReference, `"ran"`},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			h, s := hostileApp{name: "evals", uri: "ui://evals/app", html: evalApp}.start(t, apphost.Config{CSP: tc.mode})
			tl := watch(t, s)
			if tc.mode == apphost.CSPReference && !strings.Contains(h.Policy(), "'unsafe-eval'") {
				t.Errorf("the reference policy has no 'unsafe-eval': %s", h.Policy())
			}
			if err := chromedp.Do(bctx, chromedp.Navigate(h.URL())); err != nil {
				t.Fatal(err)
			}
			var report string
			var violations []*session.Event
			deadline := time.Now().Add(30 * time.Second)
			for report == "" || (tc.mode == apphost.CSPStrict && len(violations) == 0) {
				if time.Now().After(deadline) {
					t.Fatalf("report %q, %d violations; the timeline:\n%s", report, len(violations), tl.dump())
				}
				time.Sleep(50 * time.Millisecond)
				violations = nil
				tl.mu.Lock()
				for _, e := range tl.evs {
					switch {
					case e.Kind == session.EvFrame && e.Lane == session.LaneApp && e.Frame.Method == "notifications/message":
						var m struct {
							Params struct {
								Data json.RawMessage `json:"data"`
							} `json:"params"`
						}
						_ = json.Unmarshal(e.Frame.Raw, &m)
						report = string(m.Params.Data)
					case e.Note == session.NoteAppCSPViolation:
						violations = append(violations, e)
					}
				}
				tl.mu.Unlock()
			}
			if report != tc.want {
				t.Errorf("the app's eval: %s, want %s", report, tc.want)
			}
			if tc.mode == apphost.CSPReference {
				if len(violations) > 0 {
					t.Errorf("violations under the reference policy: %s", violations[0].Text)
				}
				return
			}
			v := violations[0]
			if v.Lane != session.LaneApp || len(v.Findings) != 1 || v.Findings[0].Code != protocol.FindAppCSPViolation ||
				!strings.Contains(v.Text, "script-src") || !strings.Contains(v.Text, "eval") || !strings.Contains(v.Text, "--csp reference") {
				t.Errorf("the violation's row: %q %+v", v.Text, v.Findings)
			}
		})
	}
}
