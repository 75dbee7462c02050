package replay

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// screenRow is the rendered screen line that contains all of parts, or "".
func screenRow(screen string, parts ...string) string {
	for _, l := range strings.Split(screen, "\n") {
		ok := true
		for _, p := range parts {
			if !strings.Contains(l, p) {
				ok = false
				break
			}
		}
		if ok {
			return l
		}
	}
	return ""
}

// keyPress is the message of one printable key.
func keyPress(k string) tea.KeyPressMsg {
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

// checkScreenSize fails the test unless screen is exactly h rows of at most w cells.
func checkScreenSize(t *testing.T, screen string, w, h int) {
	t.Helper()
	rows := strings.Split(screen, "\n")
	if len(rows) != h {
		t.Errorf("the screen has %d rows, want %d", len(rows), h)
	}
	for i, r := range rows {
		if n := ansi.StringWidth(r); n > w {
			t.Errorf("row %d is %d cells wide, want at most %d: %q", i, n, w, r)
		}
	}
}
