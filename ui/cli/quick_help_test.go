package cli

import (
	"bytes"
	"flag"
	"os"
	"strconv"
	"testing"

	"github.com/alecthomas/kong"
)

var updateHelp = flag.Bool("update-help", false, "rewrite ui/cli/help80.txt from what kong prints for --help at 80 columns")

// fullHelp is what the full parser prints for args at width columns.
func fullHelp(t *testing.T, width int, args ...string) string {
	t.Helper()
	t.Setenv("COLUMNS", strconv.Itoa(width))
	var out, errOut bytes.Buffer
	exited := -1
	parser, err := kong.New(&CLI{}, kongOptions(&out, &errOut, func(code int) { exited = code })...)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = parser.Parse(args)
	if exited != 0 || errOut.Len() > 0 {
		t.Fatalf("kong --help: exit %d, stderr %q", exited, errOut.String())
	}
	return out.String()
}

// mainHelp is what Main prints for args at width columns.
func mainHelp(t *testing.T, width int, args ...string) string {
	t.Helper()
	t.Setenv("COLUMNS", strconv.Itoa(width))
	var out, errOut bytes.Buffer
	if code := Main(args, nil, &out, &errOut); code != 0 || errOut.Len() > 0 {
		t.Fatalf("mcpscope %v: exit %d, stderr %q", args, code, errOut.String())
	}
	return out.String()
}

// TestHelp80: the top-level help kept for 80 columns is what kong prints. After a change
// to the commands or the global flags: go test ./ui/cli -run TestHelp80 -update-help
func TestHelp80(t *testing.T) {
	want := fullHelp(t, 80, "--help")
	if *updateHelp {
		if err := os.WriteFile("help80.txt", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if help80 != want {
		t.Fatalf("help80.txt is not what kong prints for --help at 80 columns; run\n\tgo test ./ui/cli -run TestHelp80 -update-help")
	}
	for _, args := range [][]string{{"--help"}, {"-h"}} {
		if got := mainHelp(t, 80, args...); got != want {
			t.Errorf("mcpscope %s at 80 columns:\n%s\nwant:\n%s", args[0], got, want)
		}
	}
}

// TestQuickHelpSame: at other widths the top-level help, wrapped by kong from the model
// without the commands' own fields, is the full parser's.
func TestQuickHelpSame(t *testing.T) {
	for _, width := range []int{40, 60, 79, 81, 100, 132, 200} {
		want := fullHelp(t, width, "--help")
		if got := mainHelp(t, width, "--help"); got != want {
			t.Errorf("mcpscope --help at %d columns:\n%s\nwant:\n%s", width, got, want)
		}
	}
}

// TestHelpWidth follows kong: $COLUMNS when it is a number, else 80 off a terminal.
func TestHelpWidth(t *testing.T) {
	for cols, want := range map[string]int{"": 80, "120": 120, "x": 80} {
		t.Setenv("COLUMNS", cols)
		if got := helpWidth(&bytes.Buffer{}); got != want {
			t.Errorf("COLUMNS=%q: width %d, want %d", cols, got, want)
		}
	}
}
