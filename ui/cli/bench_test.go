package cli_test

import (
	"os/exec"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// BenchmarkListToolsURL is what a user waits for: `mcpscope list tools --url` against a
// running local server, from process start to exit (handshake probe included).
func BenchmarkListToolsURL(b *testing.B) {
	bin := sessiontest.BuildMCPScope(b)
	url, _ := sessiontest.StartDemoHTTP(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := exec.Command(bin, "list", "tools", "--url", url).Output()
		if err != nil || len(out) < 100 {
			b.Fatalf("list tools: %v (%d bytes)", err, len(out))
		}
	}
}

// BenchmarkListToolsStdio is the same for a stdio server: `mcpscope list tools -- mcpscope
// demo`, two processes started (three with the supervisor on Linux), process start to exit.
func BenchmarkListToolsStdio(b *testing.B) {
	bin := sessiontest.BuildMCPScope(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := exec.Command(bin, "list", "tools", "--", bin, "demo").Output()
		if err != nil || len(out) < 100 {
			b.Fatalf("list tools: %v (%d bytes)", err, len(out))
		}
	}
}
