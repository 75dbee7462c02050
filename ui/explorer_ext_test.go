package ui

import (
	"net/http"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// modernModel runs the model against a loopback 2026-07-28 server until its lists are in.
func modernModel(t *testing.T, url string) (*Model, *driver) {
	t.Helper()
	var s *session.Session
	t.Cleanup(func() {
		if s != nil {
			_ = s.Close()
		}
	})
	opts := Options{Target: url, TransportName: "http", NewSession: func() (*session.Session, error) {
		s = session.New(session.Config{Transport: transport.NewStreamableHTTP(transport.HTTPOptions{URL: url})})
		return s, nil
	}}
	m := NewModel(NewCommon(nil), opts)
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 140, Height: 45})
	d.run(m.Init())
	d.until(30*time.Second, "the explorer's lists", func() bool { return m.explorer.Loaded() })
	d.keys("2") // the explorer page
	return m, d
}

func TestExplorerToolHeaders(t *testing.T) {
	ms := sessiontest.StartHeaderToolsServer(t)
	m, d := modernModel(t, ms.URL)
	x := m.explorer
	d.selectItem(0, "execute_sql")
	text := explorerScreen(t, x)
	explorerHas(t, text, "HTTP headers (x-mcp-header)", "/region", "Mcp-Param-Region (string)", "/priority", "Mcp-Param-Priority (integer)", "hdr")
	d.selectItem(0, "bad_number")
	text = explorerScreen(t, x)
	explorerHas(t, text, "✗hdr", "Excluded from calls over Streamable HTTP", `type "number" is not allowed`)
	// Enter on an excluded tool sends nothing and says why.
	d.keys("enter")
	if x.FormOpen() || len(ms.Requests("tools/call")) != 0 {
		t.Fatalf("the excluded tool's form opened or a call was sent")
	}
	// The form of execute_sql names the mirrored parameters in its title.
	d.selectItem(0, "execute_sql")
	d.keys("enter")
	if !strings.Contains(x.FormTitle(), "headers: region→Mcp-Param-Region, priority→Mcp-Param-Priority") {
		t.Fatalf("form %q (open: %v)", x.FormTitle(), x.FormOpen())
	}
	// The focused field (region, the first) says it is sent as a header.
	explorerHas(t, explorerScreen(t, x), "⇢ also sent as the HTTP header Mcp-Param-Region (x-mcp-header)")
}

func TestExplorerSkillsTab(t *testing.T) {
	for name, body := range map[string]string{"verified": sessiontest.SkillText, "tampered": sessiontest.SkillText + "x"} {
		t.Run(name, func(t *testing.T) {
			ms := sessiontest.StartSkillsServer(t, body)
			m, d := modernModel(t, ms.URL)
			x := m.explorer
			lists := x.Lists()
			if lists[len(lists)-1] != session.ListSkills || x.Items(session.ListSkills) != 1 {
				t.Fatalf("skills tab: lists %v, %d skills", lists, x.Items(session.ListSkills))
			}
			if n := len(ms.Requests("resources/read")); n != 0 {
				t.Fatalf("%d skill files read before the user loaded one", n)
			}
			d.selectItem(len(lists)-1, sessiontest.SkillURI)
			explorerHas(t, explorerScreen(t, x), "pdf-processing", "Files", "SKILL.md", "references/FORMS.md", "sha256:")
			d.keys("enter")
			d.until(30*time.Second, "the skill load", func() bool { r := selectedCall(m); return r != nil && r.Done })
			r := selectedCall(m)
			text := explorerScreen(t, x)
			if name == "verified" {
				if r.Err != nil {
					t.Fatalf("load: %v", r.Err)
				}
				explorerHas(t, text, "Use references/FORMS.md.")
				return
			}
			if !session.IsSkillVerifyError(r.Err) || strings.Contains(text, "Use references/FORMS.md.") {
				t.Fatalf("tampered skill: err %v\n%s", r.Err, text)
			}
			explorerHas(t, text, "failed verification")
			var found bool
			for _, f := range r.Resp.Event.Frame.Findings {
				found = found || f.Code == protocol.FindSkillSize
			}
			if !found {
				t.Fatal("the resources/read response has no size finding")
			}
		})
	}
}

func TestHTTPLineShowsParamHeaders(t *testing.T) {
	h := &transport.HTTPExchange{Method: "POST", URL: "http://127.0.0.1:1/mcp", Status: 200,
		ReqHeaders: http.Header{"Mcp-Param-Region": {"us-west1"}, "Mcp-Param-Greeting": {"=?base64?SGk=?="}, "Mcp-Name": {"x"}}}
	want := "POST /mcp → 200 · Mcp-Param-Greeting: =?base64?SGk=?= · Mcp-Param-Region: us-west1"
	if got := httpLine(h); got != want {
		t.Fatalf("httpLine = %q, want %q", got, want)
	}
}
