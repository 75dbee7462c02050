package cli

import (
	"io"
	"slices"
	"testing"

	"github.com/alecthomas/kong"
)

// TestRepeatableFlagsKeepCommas: values of -e, -H, --root and complete's --context may hold
// commas (a header list, a path); each flag occurrence is one value, never split.
func TestRepeatableFlagsKeepCommas(t *testing.T) {
	var c CLI
	parser, err := kong.New(&c, kong.Name("mcpscope"), kong.Writers(io.Discard, io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.Parse([]string{"-e", "LIST=a,b", "-H", "Accept-Language: en, fr", "--root", "/tmp/a,b", "list", "tools"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		flag      string
		got, want []string
	}{
		{"-e", c.Env, []string{"LIST=a,b"}},
		{"-H", c.Header, []string{"Accept-Language: en, fr"}},
		{"--root", c.Roots, []string{"/tmp/a,b"}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s parsed as %q, want %q", c.flag, c.got, c.want)
		}
	}
	sp, err := c.ServerFlags.spec(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(sp.Env, "LIST=a,b") {
		t.Errorf("server environment %q lacks LIST=a,b", sp.Env)
	}
}
