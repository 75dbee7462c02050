package sessiontest

import (
	"bufio"
	"os/exec"
	"strings"
	"testing"
)

// StartCardServer runs testdata/cardserver for the duration of the test and returns its
// Streamable HTTP URL (…/mcp), whose /server-card is the card that disagrees with it.
func StartCardServer(t testing.TB) string {
	t.Helper()
	cmd := exec.Command(BuildCardServer(t))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close() // the server ends when its stdin does
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "http://") {
		t.Fatalf("cardserver printed %q: %v", line, err)
	}
	return strings.TrimSpace(line)
}
