package fault

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestParseRule: every action with its argument, the options, the match; a bad rule is
// refused with the column where the trouble starts.
func TestParseRule(t *testing.T) {
	ok := []struct {
		in    string
		check func(Rule) bool
	}{
		{"delay=2s tool:=search", func(r Rule) bool { return r.Action == Delay && r.Delay == 2*time.Second && len(r.Match.Terms) == 1 }},
		{"error=-32603 method:=tools/call", func(r Rule) bool { return r.Code == -32603 && r.Message == "injected by mcpscope" }},
		{`error=-32000:"no such thing" tool:x`, func(r Rule) bool { return r.Code == -32000 && r.Message == "no such thing" && len(r.Match.Terms) == 1 }},
		{"error=-1:boom", func(r Rule) bool { return r.Code == -1 && r.Message == "boom" && r.Match.Empty() }},
		{"drop method:=notifications/progress p=0.5", func(r Rule) bool { return r.Action == Drop && r.P == 0.5 }},
		{"corrupt=truncate method:=tools/list", func(r Rule) bool { return r.Kind == Truncate }},
		{"corrupt=invalid dir:in", func(r Rule) bool { return r.Kind == InvalidJSON }},
		{"corrupt=wrong-id", func(r Rule) bool { return r.Kind == WrongID && r.Match.Empty() }},
		{"corrupt=wrong-version", func(r Rule) bool { return r.Kind == WrongVersion }},
		{"corrupt=duplicate kind:notification", func(r Rule) bool { return r.Kind == Duplicate }},
		{"reorder dir:in kind:notification", func(r Rule) bool { return r.Action == Reorder && len(r.Match.Terms) == 2 }},
		{"disconnect after=10", func(r Rule) bool { return r.Action == Disconnect && r.After == 10 && r.Match.Empty() }},
		{"throttle=100/s dir:in times=3", func(r Rule) bool { return r.Rate == 100 && r.Times == 3 }},
		{"  DROP   -dir:in  ", func(r Rule) bool { return r.Action == Drop && r.Match.Terms[0].Neg && r.Text == "DROP   -dir:in" }},
	}
	for _, c := range ok {
		r, err := ParseRule(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if !c.check(r) {
			t.Errorf("%q: parsed as %+v", c.in, r)
		}
	}
	bad := []struct{ in, want string }{
		{"", "column 1: empty rule"},
		{"explode tool:x", `column 1: unknown action "explode"`},
		{"delay tool:x", "column 1: delay needs =ARG"},
		{"delay=soon", "column 1: delay=soon: want a duration"},
		{"drop=3", "column 1: drop takes no argument"},
		{"error=oops", "column 1: error=oops: want CODE"},
		{"corrupt=shred", "column 1: corrupt=shred: want truncate, invalid-json"},
		{"throttle=fast", "column 1: throttle=fast: want BYTES/s"},
		{"drop method:x p=2", "column 15: p=2: want a probability"},
		{"drop times=-1", "column 6: times=-1: want a count"},
		{"drop tool:x colour:red", `column 13: unknown field "colour"`},
		{"delay=1s dir:up", "column 10: dir:up (want in or out)"},
	}
	for _, c := range bad {
		_, err := ParseRule(c.in)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q…", c.in, err, c.want)
		}
	}
}

// TestParseRules: --fault rules are named by their order, a file's by its line; comments
// and blank lines are skipped; a bad line is refused with its file, line and column.
func TestParseRules(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	os.WriteFile(good, []byte("# slow search\ndelay=1s tool:=search\n\n  drop kind:notification\n"), 0o600)
	rules, err := ParseRules([]string{"error=-32603 tool:=search"}, []string{good})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rules {
		names = append(names, r.Name)
	}
	if got, want := strings.Join(names, ","), "rule 1,"+good+":2,"+good+":4"; got != want {
		t.Errorf("names %q, want %q", got, want)
	}
	bad := filepath.Join(dir, "bad")
	os.WriteFile(bad, []byte("drop\ndelay=1s kind:bogus\n"), 0o600)
	if _, err := ParseRules(nil, []string{bad}); err == nil || !strings.Contains(err.Error(), bad+":2: column 10: kind:bogus") {
		t.Errorf("bad file: %v", err)
	}
	if _, err := ParseRules([]string{"drop", "nope"}, nil); err == nil || !strings.Contains(err.Error(), `--fault "nope": column 1`) {
		t.Errorf("bad flag: %v", err)
	}
	if _, err := ParseRules(nil, []string{filepath.Join(dir, "missing")}); err == nil {
		t.Error("a missing file is accepted")
	}
}
