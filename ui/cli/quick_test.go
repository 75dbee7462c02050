package cli

import (
	"bytes"
	"testing"
)

// TestQuickVersionTakesOnlyTheBareCommand: the parser is skipped for exactly `version` and
// `--version`.
func TestQuickVersionTakesOnlyTheBareCommand(t *testing.T) {
	for _, c := range []struct {
		args, command []string
		ok            bool
	}{
		{[]string{"version"}, nil, true},
		{[]string{"--version"}, nil, true},
		{[]string{"version"}, []string{}, false}, // version --
		{[]string{"version", "--json"}, nil, false},
		{[]string{"--trace", "version"}, nil, false},
		{nil, nil, false},
		{[]string{"versions"}, nil, false},
	} {
		var out bytes.Buffer
		code, ok := quickVersion(c.args, c.command, &out)
		if ok != c.ok || (ok && (code != 0 || out.String() != versionLine()+"\n")) || (!ok && out.Len() > 0) {
			t.Errorf("quickVersion(%q, %q) = %d, %v, %q", c.args, c.command, code, ok, out.String())
		}
	}
}
