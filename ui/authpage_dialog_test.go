package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestDialogAuthWaitOverFilter: the dialog for the browser opens on top of the filter the
// user is typing in and takes the keys; esc stops the wait and closes only it.
func TestDialogAuthWaitOverFilter(t *testing.T) {
	m := NewModel(NewCommon(nil), Options{Target: "https://mcp.example.com/mcp", TransportName: "http"})
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 120, Height: 36})
	f := newFakeAuth()
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	d.run(m.auth.SetController(1, f, done, ""))
	pressKey(m, "/")
	typeKeys(m, "ab")
	d.run(m.auth.start("log in", 0, f.Login))
	d.until(5*time.Second, "the dialog for the browser", func() bool { return dialogOf[*authWaitDialog](m) != nil })
	if got := strings.Join(stackTypes(m), " "); got != "filter authwait" {
		t.Fatalf("stack %q, want the wait over the filter", got)
	}
	if scr := plainScreen(m); !strings.Contains(scr, "Waiting for the browser") || !strings.Contains(scr, "/ab") {
		t.Errorf("the wait is not drawn over the page with the filter below:\n%s", scr)
	}
	typeKeys(m, "x")
	if got := m.filter.Value(); got != "ab" {
		t.Errorf("a key reached the filter under the wait: %q", got)
	}
	d.keys("esc")
	d.until(5*time.Second, "the wait to stop", func() bool {
		_, cancels := f.counts()
		return !m.auth.Waiting() && cancels == 1
	})
	if got := strings.Join(stackTypes(m), " "); got != "filter" || m.filter.Value() != "ab" {
		t.Errorf("after esc the stack is %q, filter %q; want the filter as it was", got, m.filter.Value())
	}
}
