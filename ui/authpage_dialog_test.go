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

// TestDialogAuthWaitURLSelectable: the URL's lines in the dialog for the browser carry no
// border or padding beside them, so selecting them in the terminal gives the URL alone.
func TestDialogAuthWaitURLSelectable(t *testing.T) {
	m := NewModel(NewCommon(nil), Options{Target: "https://mcp.example.com/mcp", TransportName: "http"})
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 100, Height: 36})
	f := newFakeAuth()
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	d.run(m.auth.SetController(1, f, done, ""))
	d.run(m.auth.start("log in", 0, f.Login))
	d.until(5*time.Second, "the dialog for the browser", func() bool { return dialogOf[*authWaitDialog](m) != nil })
	url := f.Status().AuthorizeURL
	if len(url) <= m.layout.Body.W {
		t.Fatalf("the URL (%d cells) does not wrap at %d: the test needs a longer one", len(url), m.layout.Body.W)
	}
	var got strings.Builder
	for _, row := range strings.Split(plainScreen(m), "\n") {
		if strings.HasPrefix(row, "https://login.example.com/") || got.Len() > 0 && got.Len() < len(url) {
			if strings.ContainsAny(row, "│▶") {
				t.Errorf("a URL line carries a border or a marker: %q", row)
			}
			got.WriteString(strings.TrimRight(row, " "))
		}
	}
	if got.String() != url {
		t.Errorf("the URL's lines joined give\n%q\nwant\n%q\n%s", got.String(), url, plainScreen(m))
	}
}
