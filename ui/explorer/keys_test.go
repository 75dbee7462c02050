package explorer

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// explorerKey is a press of b's first key.
func explorerKey(b interface{ Keys() []string }) tea.KeyPressMsg {
	return explorerPress(b.Keys()[0])
}

// explorerPress is a key press as the terminal reports it: a named key or one printable rune.
func explorerPress(s string) tea.KeyPressMsg {
	named := map[string]rune{
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "backspace": tea.KeyBackspace,
	}
	if c, ok := named[s]; ok {
		return tea.KeyPressMsg{Code: c}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

// keyPress is a press of one printable key, or enter or esc.
func keyPress(k string) tea.KeyPressMsg { return explorerPress(k) }

// checkPageBlock fails unless s is exactly h lines of w cells.
func checkPageBlock(t *testing.T, s string, w, h int) {
	t.Helper()
	lines := strings.Split(s, "\n")
	if len(lines) != h {
		t.Fatalf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Fatalf("line %d is %d cells, want %d: %q", i, got, w, ansi.Strip(l))
		}
	}
}

// squash folds runs of white space into one space.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }
