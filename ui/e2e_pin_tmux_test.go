package ui_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestTmuxPin: pin the fixture server with check --pin, change its echo description and
// add a tool, and open the inspector with --pin: the explorer's tools tab is marked, echo
// is "changed" and the new tool "new", and echo's detail shows the description before and
// after.
func TestTmuxPin(t *testing.T) {
	srv := sessiontest.BuildPinServer(t)
	pins := filepath.Join(t.TempDir(), "pins.json")
	if out, err := exec.Command(sessiontest.BuildMCPScope(t), "check", "--pin", pins, "--", srv).CombinedOutput(); err != nil {
		t.Fatalf("check --pin: %v\n%s", err, out)
	}
	t.Setenv("MCPSCOPE_PINSERVER_CHANGE", "description,add")

	tm := startTerm(t, 140, 40, "--no-record", "--pin", pins, "--", srv)
	tm.waitFor(`status "ready"`, ready)
	tm.keys("2")
	tm.waitFor("the tools tab marked, echo changed and exfiltrate new", func(s string) bool {
		return strings.Contains(s, "tools 23 ≠") && rowWith(s, "echo", "changed") && rowWith(s, "exfiltrate", "new")
	})
	tm.keys("/")
	tm.typeText("echo")
	tm.keys("Enter")
	tm.waitFor("echo's detail with its description before and after", func(s string) bool {
		return bodyHas(s, "changed since the pin") && bodyContains(s, "/description") &&
			bodyContains(s, "now \"Returns the text it is given.") && bodyContains(s, "id_rsa")
	})
	tm.quit()
}

// rowWith reports whether a line of the screen shows the explorer row of name with mark.
func rowWith(screen, name, mark string) bool {
	for _, l := range lines(screen) {
		if strings.Contains(l, " "+name+" ") && strings.Contains(l, mark) {
			return true
		}
	}
	return false
}
