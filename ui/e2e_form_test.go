package ui_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestTmuxFormJourney fills the demo's echo form at 80×24 as a user does: typing edits the
// field at once, ctrl+l makes it multi-line, enter breaks the line, ctrl+s sends both lines.
// The help line names only the form's keys and wraps rather than cutting them. Reopened,
// the form offers the arguments last sent; they survive a restart of mcpscope (a 0600
// file in the state directory), and ctrl+r forgets them.
func TestTmuxFormJourney(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, 80, 24)
	tm.waitFor(`status "ready"`, ready)
	tm.keys("2")
	tm.waitFor("the tools list with echo", func(s string) bool { return bodyContains(s, "echo") })
	tm.explorerFind("echo")
	tm.keys("Enter")
	tm.waitFor("echo's form, its help line without ? and q", func(s string) bool {
		f := strings.Join(footer(s), " ")
		return bodyHas(s, "tools/call echo") && bodyContains(s, "typing replaces it") &&
			strings.Contains(f, "ctrl+s send") && !strings.Contains(f, "? help") && !strings.Contains(f, "q quit")
	})
	tm.keys("C-l")
	tm.typeText("first line")
	tm.keys("Enter")
	tm.typeText("second line")
	tm.waitFor("two lines in the multi-line editor", func(s string) bool {
		return bodyHas(s, "│", "first line") && bodyHas(s, "│", "second line")
	})
	tm.keys("C-s")
	tm.waitFor("the echoed lines in the result", func(s string) bool {
		// The lines each on a line of their own; only the arguments line above the result
		// holds both, as the JSON string it sent.
		joined := slices.ContainsFunc(body(s), func(l string) bool {
			return strings.Contains(l, "first line") && strings.Contains(l, "second line") && !strings.Contains(l, "arguments")
		})
		return bodyContains(s, "Result") && bodyHas(s, "first line") && bodyHas(s, "second line") && !joined
	})

	reopened := func(what string) {
		tm.t.Helper()
		tm.keys("Enter")
		tm.waitFor(what, func(s string) bool {
			f := strings.Join(footer(s), " ")
			return bodyHas(s, "tools/call echo", "last arguments", "ctrl+r defaults") && bodyHas(s, "first line", "(2 lines)") &&
				strings.Contains(f, "ctrl+r form: reset") && strings.Contains(f, "esc cancel") && len(footer(s)) > 1
		})
	}
	reopened("the form again with the last arguments, its help line wrapped")
	tm.keys("Escape")
	tm.waitFor("the form closed", func(s string) bool { return !bodyContains(s, "last arguments") })

	file := filepath.Join(tm.state, "mcpscope", "form-args.json")
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the remembered arguments: %v, mode %v (want a 0600 file)", err, st)
	}
	b, _ := os.ReadFile(file)
	var saved struct {
		Servers map[string]map[string]json.RawMessage `json:"servers"`
	}
	if err := json.Unmarshal(b, &saved); err != nil || len(saved.Servers) != 1 || !strings.Contains(string(b), `first line\nsecond line`) {
		t.Fatalf("the file does not hold echo's arguments for one server (%v):\n%s", err, b)
	}

	// A new mcpscope in the same state directory offers them too; ctrl+r forgets them.
	tm.quit()
	tm.respawn(sessiontest.BuildMCPScope(t))
	tm.waitFor(`status "ready" after the restart`, ready)
	tm.keys("2")
	tm.waitFor("the tools list with echo", func(s string) bool { return bodyContains(s, "echo") })
	tm.explorerFind("echo")
	reopened("the arguments of the earlier run")
	tm.keys("C-r")
	tm.waitFor("the form at its defaults", func(s string) bool {
		return bodyHas(s, "tools/call echo") && !bodyContains(s, "last arguments") && !bodyContains(s, "first line")
	})
	tm.waitCheck("the entry gone from the file", func(string) string {
		b, _ := os.ReadFile(file)
		if strings.Contains(string(b), "first line") {
			return "still there"
		}
		return ""
	})
	tm.keys("Escape")
	tm.waitFor("the form closed again", func(s string) bool { return !bodyHas(s, "tools/call echo", "Returns the text") })
	tm.quit()
}

// footer is the screen's help line: its last row and the rows above it that the wrapped
// help takes (until a row that is blank or drawn by the page).
func footer(screen string) []string {
	ls := lines(screen)
	out := []string{ls[len(ls)-1]}
	for i := len(ls) - 2; i > len(ls)-4 && i > 0; i-- {
		if !strings.Contains(ls[i], " • ") {
			break
		}
		out = append([]string{ls[i]}, out...)
	}
	return out
}

// respawn runs bin with args again in the pane, in the same state directory, after the
// program there exited; the pane's history is cleared so the next exit is its own.
func (tm *term) respawn(bin string, args ...string) {
	tm.t.Helper()
	if out, err := tm.cmd("clear-history", "-t", tm.name).CombinedOutput(); err != nil {
		tm.t.Fatalf("tmux clear-history: %v\n%s", err, out)
	}
	cmd := append([]string{"respawn-pane", "-k", "-t", tm.name, "-e", "XDG_STATE_HOME=" + tm.state,
		"/bin/sh", "-c", `"$@"; echo "` + exitMarker + `$?"`, "sh", bin}, args...)
	if out, err := tm.cmd(cmd...).CombinedOutput(); err != nil {
		tm.t.Fatalf("tmux respawn-pane: %v\n%s", err, out)
	}
}

// TestTmuxTypedTextStays repeats the two ways typed text used to be eaten, on the demo
// server at 80×24. In create_ticket's links, ctrl+n adds an item, a path is typed, esc,
// ctrl+n adds another and docs/README.md is typed: the d is text (it used to delete the
// item, and "ocs/README.md" went to item 0), and both paths reach the server. In the
// elicitation form of ask_user, mary typed into the name is mary (m used to open the
// multi-line editor and send "ary").
func TestTmuxTypedTextStays(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, 80, 24)
	tm.waitFor(`status "ready"`, ready)
	tm.keys("2")
	tm.waitFor("the tools list", func(s string) bool { return bodyContains(s, "create_ticket") })
	tm.explorerFind("create_ticket")
	tm.keys("Enter")
	tm.waitFor("create_ticket's form", func(s string) bool { return bodyHas(s, "tools/call create_ticket") })
	tm.keys("Up", "Up") // from the first field, around past Send: links, the last field
	tm.waitFor("links in focus, its keys in the help line", func(s string) bool {
		return bodyHas(s, "▸ links") && strings.Contains(strings.Join(footer(s), " "), "ctrl+n new item")
	})
	tm.keys("C-n")
	tm.typeText("src/main.go")
	tm.keys("Escape")
	// Apart: esc and ctrl+n sent at once read as alt+ctrl+n.
	tm.waitFor("the edit done", func(s string) bool {
		return bodyHas(s, "▸", "[0]: src/main.go") && bodyContains(s, "typing adds to the end")
	})
	tm.keys("C-n")
	tm.waitFor("a second item", func(s string) bool { return bodyHas(s, "links: 2 items") })
	tm.typeText("docs/README.md")
	tm.keys("Escape")
	tm.waitFor("two items holding what was typed", func(s string) bool {
		return bodyHas(s, "[0]: src/main.go  ") && bodyHas(s, "▸", "[1]: docs/README.md  ")
	})
	tm.keys("C-s")
	tm.waitFor("the send-anyway question (title and reporter are missing)", func(s string) bool {
		return bodyContains(s, "send anyway? y/n")
	})
	tm.keys("y")
	tm.waitFor("the server's answer", func(s string) bool { return bodyContains(s, "tool error") })
	tm.keys("z") // the full detail, scrolled to where the server quotes the links it got
	tm.waitCheck("the server's answer quoting both links as sent", func(s string) string {
		if bodyContains(s, "'/links/0': 'src/main.go'") && bodyContains(s, "'/links/1': 'docs/README.md'") {
			return ""
		}
		tm.keys("Down")
		return "not yet"
	})
	tm.keys("z")
	tm.waitFor("the full detail closed", func(s string) bool { return bodyHas(s, "▶create_ticket") })
	tm.keys("Escape")
	tm.waitFor("the explorer's filter cleared", func(s string) bool { return bodyHas(s, "ask_user") })
	tm.explorerFind("ask_user")
	tm.keys("Enter")
	tm.waitFor("ask_user's form", func(s string) bool { return bodyHas(s, "tools/call ask_user") })
	tm.keys("C-s")
	tm.waitFor("the elicitation dialog", func(s string) bool { return bodyContains(s, "asks you to fill in a form") })
	tm.typeText("mary")
	tm.waitFor("mary in the name field, on one line", func(s string) bool {
		return bodyHas(s, "name", "mary") && !bodyContains(s, "│ mary") && !bodyContains(s, "│ ary")
	})
	tm.keys("C-s")
	tm.waitFor("the tool thanking mary", func(s string) bool {
		return bodyContains(s, "Thanks, mary!") && bodyContains(s, `{"name":"mary",`) && !bodyContains(s, "asks you to fill in a form")
	})
	tm.quit()
}
