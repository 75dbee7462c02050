package cli_test

import (
	"os"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// TestCallTask runs `call --task` as a user would against the task server in both eras:
// the result on stdout, status and progress on stderr, and call's exit codes.
func TestCallTask(t *testing.T) {
	t.Parallel()
	srv := sessiontest.BuildTaskServer(t)
	for _, era := range []string{"2025-11-25", "auto"} {
		t.Run(era, func(t *testing.T) {
			stdout, stderr, code := run(t, "--protocol", era, "call", "--task", "sleep", "seconds=0.4", "--", srv)
			if code != cli.ExitOK {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if !strings.Contains(stdout, `"text": "slept"`) {
				t.Errorf("stdout lacks the task's result:\n%s", stdout)
			}
			for _, want := range []string{"task task-1 working (polling every 200ms)", "task task-1 completed", "progress 4/4"} {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}

			stdout, stderr, code = run(t, "--protocol", era, "--elicit", "accept-defaults", "call", "--task", "confirm", "--", srv)
			if code != cli.ExitOK || !strings.Contains(stdout, `confirmed: {\"action\":\"accept\",\"content\":{\"ok\":true}}`) {
				t.Errorf("confirm: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if !strings.Contains(stderr, "input_required") {
				t.Errorf("confirm: stderr never showed input_required:\n%s", stderr)
			}

			stdout, stderr, code = run(t, "--protocol", era, "call", "--task", "fail", "--", srv)
			if code != cli.ExitRPCError || !strings.Contains(stdout, "the job broke") {
				t.Errorf("fail: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, cli.ExitRPCError, stdout, stderr)
			}
		})
	}
	// A tool the server runs only as a task: without --task the refusal says what to do.
	_, stderr, code := run(t, "call", "confirm", "--", srv)
	if code != cli.ExitRPCError || !strings.Contains(stderr, "add --task") {
		t.Errorf("confirm without --task: exit %d\n%s", code, stderr)
	}
}

// TestCallTaskInterrupt interrupts `call --task` while its task runs: the task is cancelled
// on the server before mcpscope exits.
func TestCallTaskInterrupt(t *testing.T) {
	srv := sessiontest.BuildTaskServer(t)
	p := start(t, nil, sessiontest.BuildMCPScope(t), "--protocol", "2025-11-25", "--trace", "call", "--task", "sleep", "seconds=60", "--", srv)
	p.waitStderr("task task-1 working")
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	p.wait(func() bool { return p.ended })
	errOut := p.errOut.String()
	if !strings.Contains(errOut, "interrupted; task task-1 cancelled") || !strings.Contains(errOut, `"method":"tasks/cancel"`) {
		t.Errorf("the interrupt did not cancel the task:\n%s", errOut)
	}
	if p.code == cli.ExitOK {
		t.Errorf("an interrupted call exited 0")
	}
}
