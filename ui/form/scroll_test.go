package form

import (
	"strings"
	"testing"
)

// TestScrollStopsAtTheEnd: the form scrolls no further than its last line: after focus
// wraps to the end and after an item is deleted, no blank lines are drawn under the
// Send button while fields above are hidden.
func TestScrollStopsAtTheEnd(t *testing.T) {
	m := New(demoTool(t, "create_ticket"), Options{})
	m.SetSize(80, 12)
	check := func(what string) {
		t.Helper()
		lines := strings.Split(m.View(), "\n")
		body := lines[:len(lines)-1]
		blank := 0
		for i := len(body) - 1; i >= 0 && strings.TrimSpace(body[i]) == ""; i-- {
			blank++
		}
		if m.offset > 0 && blank > 0 {
			t.Errorf("%s: scrolled by %d with %d blank lines at the bottom:\n%s", what, m.offset, blank, strings.Join(lines, "\n"))
		}
	}
	keys(t, m, "up") // wraps to the last row
	check("focus wrapped to the end")
	for range 30 {
		keys(t, m, "up")
		check("moving up")
	}
	for range 30 {
		keys(t, m, "down")
		check("moving down")
	}
}
