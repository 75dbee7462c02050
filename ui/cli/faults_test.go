package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFaultFlagsRefused: a bad rule, of --fault or of a --faults file, is refused before
// anything starts, with its place and column, by the view, a headless command and the
// tap; a rule with a comma stays one rule.
func TestFaultFlagsRefused(t *testing.T) {
	file := filepath.Join(t.TempDir(), "rules")
	os.WriteFile(file, []byte("# ok\ndelay=1s tool:=a,b\nreorder dir:sideways\n"), 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"info", "--fault", "drop kind:bogus"}, `--fault "drop kind:bogus": column 6: kind:bogus`},
		{[]string{"--fault", "explode", "--", "true"}, `--fault "explode": column 1: unknown action "explode"`},
		{[]string{"tap", "--no-record", "--faults", file, "--", "true"}, file + ":3: column 9: dir:sideways"},
		{[]string{"call", "x", "--fault", "delay=1s p=7"}, "column 10: p=7"},
		{[]string{"attach", "x", "--fault", "drop"}, "fault rules do not apply to attach"},
		{[]string{"open", file, "--fault", "drop"}, "fault rules do not apply to a recording"},
	} {
		var out, errOut bytes.Buffer
		code := Main(c.args, strings.NewReader(""), &out, &errOut)
		if code != ExitUsage || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", c.args, code, errOut.String(), ExitUsage, c.want)
		}
	}
	f := FaultFlags{Fault: []string{"delay=1s tool:=a,b"}}
	if rules, err := f.faultRules(); err != nil || len(rules) != 1 {
		t.Errorf("a rule with a comma: %d rules, %v", len(rules), err)
	}
}
