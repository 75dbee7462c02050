package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
)

// faultDemoModel is a model on the demo server whose wire goes through the fault rules.
func faultDemoModel(t *testing.T, rules []string, timeout time.Duration) (*Model, *driver) {
	t.Helper()
	rs, err := fault.ParseRules(rules, nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := demoOptions(t, func(c *session.Config) {
		c.Transport = fault.Wrap(c.Transport, fault.NewEngine(rs, 1))
		c.RequestTimeout = timeout
	})
	m := NewModel(NewCommon(nil), opts)
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 130, Height: 44})
	d.run(m.Init())
	d.until(60*time.Second, "the explorer's lists", func() bool {
		return m.explorer.Loaded() && m.explorer.Items(session.ListResources) > 0
	})
	return m, d
}

// TestExplorerSaysFaultMade: a result a fault rule made says so in the explorer, by which
// rule: an error mcpscope answered in the server's place, and a request a rule dropped
// that then timed out.
func TestExplorerSaysFaultMade(t *testing.T) {
	for _, tc := range []struct {
		rule string
		want []string
	}{
		{"error=-32603 method:=resources/read", []string{"⚡ the request: error: answered by mcpscope (rule 1: error=-32603 method:=resources/read)"}},
		{"drop method:=resources/read", []string{"⚡ the request: dropped (rule 1: drop method:=resources/read), then:", "timed out"}},
	} {
		t.Run(strings.Fields(tc.rule)[0], func(t *testing.T) {
			m, d := faultDemoModel(t, []string{tc.rule}, 2*time.Second)
			d.keys("2")
			d.selectItem(1, "demo://readme")
			d.keys("enter")
			d.until(30*time.Second, "the read's outcome", func() bool { return strings.Contains(exDetail(m), "⚡") })
			got := strings.Join(strings.Fields(exDetail(m)), " ")
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("the explorer lacks %q:\n%s", w, exDetail(m))
				}
			}
		})
	}
}
