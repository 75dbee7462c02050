package cli_test

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/ui/cli"
)

// TestCallWarnsAndShowsProgress: `call` says on stderr how the arguments fail the tool's
// inputSchema and sends them as typed all the same; a call that reports progress has each
// report on stderr, the result alone on stdout.
func TestCallWarnsAndShowsProgress(t *testing.T) {
	t.Parallel()
	_, stderr, _ := run(t, "--trace", "call", "add", "--args", `{"a":"one","b":2000}`)
	for _, want := range []string{
		"mcpscope: warning: the arguments fail add's inputSchema (2 problems); sending them as typed",
		"mcpscope:   /a: ", "mcpscope:   /b: ",
		`\"arguments\":{\"a\":\"one\",\"b\":2000}`, // the trace: the request as sent
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}

	stdout, stderr, code := run(t, "call", "slow", "seconds=0.3", "steps=3")
	if code != cli.ExitOK {
		t.Fatalf("slow: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"mcpscope: progress 1/3 step 1 of 3\n", "mcpscope: progress 3/3 step 3 of 3\n"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "warning") || strings.Contains(stdout, "progress 1/3") || !strings.Contains(stdout, "reported progress 3 times") {
		t.Errorf("valid arguments warned of, or the progress is on stdout:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	_, stderr, _ = run(t, "call", "slow", "seconds=0.2", "steps=2", "--no-progress")
	if strings.Contains(stderr, "progress") {
		t.Errorf("--no-progress still shows progress:\n%s", stderr)
	}
}
