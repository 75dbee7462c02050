package cli_test

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestAttachSlowViewerGapLines taps the badserver while it floods 64 KiB notifications and
// watches it with `attach --ndjson` read at 2 MB/s through a 1 MiB viewer queue: the viewer
// prints gap lines, and its events and gaps account for every seq of the tap exactly.
func TestAttachSlowViewerGapLines(t *testing.T) {
	bin, bad := sessiontest.BuildMCPScope(t), sessiontest.BuildBadServer(t)
	env := tapEnv(t)
	tap := start(t, env, bin, "tap", "--no-record", "--name", "flood", "--event-buffer", "1MiB", "--", bad)
	tap.waitStderr("watch with: mcpscope attach flood")

	ctx, cancel := context.WithTimeout(context.Background(), 2*waitLimit)
	defer cancel()
	viewer := exec.CommandContext(ctx, bin, "attach", "--ndjson", "flood")
	viewer.Env = append(os.Environ(), env...)
	out, err := viewer.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := viewer.Start(); err != nil {
		t.Fatal(err)
	}
	type account struct {
		events int
		gaps   []session.Gap
	}
	got := make(chan account, 1)
	go func() {
		var a account
		a.events, a.gaps, _ = traceAccount(t, throttled{out, 2 << 20})
		got <- a
	}()
	tap.write(hostScript.initialize)
	tap.waitResponse(1)
	tap.write(hostScript.initialized)
	tap.write(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"flood","arguments":{"size":65536,"count":400}}}` + "\n")
	tap.waitResponse(2)
	if code := tap.exit(); code != 0 {
		t.Fatalf("tap: exit %d\n%s", code, tap.stderrText())
	}
	a := <-got
	if err := viewer.Wait(); err != nil {
		t.Fatalf("attach: %v", err)
	}
	if len(a.gaps) == 0 {
		t.Fatalf("a viewer at 2 MB/s behind a 1 MiB queue printed no gap line (%d events)", a.events)
	}
	var lost uint64
	for _, g := range a.gaps {
		lost += g.Events
	}
	// initialize ⇄, initialized, the call, 400 notifications, its answer, stderr, spawn and
	// exit notes: the accounting reaches the tap's last event.
	if total := uint64(a.events) + lost; total < 405 {
		t.Errorf("the viewer accounts for %d events, fewer than the tap published", total)
	}
	t.Logf("viewer: %d events, %d gap lines for %d events", a.events, len(a.gaps), lost)
}
