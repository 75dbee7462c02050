package cli_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// recordedFindings are the finding codes the recording holds on the frames of method (its
// requests, of either direction).
func recordedFindings(t *testing.T, path, method string) []string {
	t.Helper()
	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	es, _ := r.Events()
	var codes []string
	for _, e := range es {
		if e.Event.Kind == session.EvFrame && e.Event.Frame != nil && e.Event.Frame.Method == method {
			for _, f := range session.AllFindings(e.Event.Frame) {
				codes = append(codes, f.Code)
			}
		}
	}
	return codes
}

// TestTapClassifiesAsASession: a host sending a method the negotiated revision does not
// define through a tap gets the finding a direct session records for it (the tap learns
// the revision from the handshake it forwards); before, the tap recorded no finding.
func TestTapClassifiesAsASession(t *testing.T) {
	t.Parallel()
	bin := sessiontest.BuildMCPScope(t)
	env := tapEnv(t)
	dir := t.TempDir()
	const method = "mcpscope/no-such-method"

	direct := filepath.Join(dir, "direct.jsonl")
	if _, stderr, code := runEnv(t, env, "--record", direct, "--protocol", "2025-06-18", "rpc", method); code != 1 {
		t.Fatalf("rpc %s: exit %d\n%s", method, code, stderr)
	}
	want := recordedFindings(t, direct, method)
	if !slices.Contains(want, protocol.FindUnknownMethod) {
		t.Fatalf("the direct session records %v for %s, want %s", want, method, protocol.FindUnknownMethod)
	}

	tapped := filepath.Join(dir, "tap.jsonl")
	p := start(t, env, bin, "tap", "--quiet", "--record", tapped, "--", bin, "demo")
	p.write(hostScript.initialize)
	p.waitResponse(1)
	p.write(hostScript.initialized)
	p.write(`{"jsonrpc":"2.0","id":2,"method":"` + method + `"}` + "\n")
	p.waitResponse(2)
	if code := p.exit(); code != 0 {
		t.Fatalf("tap: exit %d\n%s", code, p.stderrText())
	}
	got := recordedFindings(t, tapped, method)
	if !slices.Equal(got, want) {
		t.Errorf("the tap records %v for %s, a direct session %v", got, method, want)
	}
}
