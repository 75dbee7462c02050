package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/recordings"
)

// TestReplayTableNamesTargets: the printed replay table names what each call, read or
// prompt acted on, as the --tui table does, escaping what a terminal must not get raw.
func TestReplayTableNamesTargets(t *testing.T) {
	rep := &recordings.Report{Results: []recordings.Result{
		{N: 1, Method: "initialize", Status: recordings.StatusSame},
		{N: 2, Method: "tools/call", Target: "add", Status: recordings.StatusSame},
		{N: 3, Method: "resources/read", Target: "demo://readme", Status: recordings.StatusDifferent, Differences: []recordings.Difference{{Path: "/contents/0/text", Recorded: []byte(`"a"`), Live: []byte(`"b"`)}}},
		{N: 4, Method: "tools/call", Target: "\x1b]52;c;eA==\x07echo", Status: recordings.StatusSame},
	}}
	var out, errOut bytes.Buffer
	r := &runner{stdout: &out, stderr: &errOut}
	r.printReport(rep)
	lines := strings.Split(out.String(), "\n")
	for _, want := range []string{"2  tools/call add ", "3  resources/read demo://readme ", `4  tools/call \x1b]52;c;eA==\x07echo `} {
		found := false
		for _, l := range lines {
			found = found || strings.HasPrefix(l, want)
		}
		if !found {
			t.Errorf("no table row starts with %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(out.String(), "\n#3 resources/read demo://readme (different)\n") {
		t.Errorf("the difference's heading does not name the uri:\n%s", out.String())
	}
	if strings.ContainsAny(out.String(), "\x1b\x07") {
		t.Errorf("a control character reached the output raw: %q", out.String())
	}
}
