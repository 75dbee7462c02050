package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/recordings"
)

// TestStatsTableEscapes: a method name holding an escape sequence is printed escaped, and
// the columns stay aligned on its escaped width.
func TestStatsTableEscapes(t *testing.T) {
	var b bytes.Buffer
	err := writeStatsTable(&b, statsJSON{Events: 2, Frames: 2, Methods: []recordings.MethodStats{
		{Method: "notifications/\x1b[2Jwipe", Notifications: 1},
		{Method: "ping", Requests: 1},
	}})
	if err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.ContainsRune(out, 0x1b) || !strings.Contains(out, `notifications/\x1b[2Jwipe `) {
		t.Errorf("the method is not escaped:\n%q", out)
	}
	lines := strings.Split(out, "\n")
	if len(lines) < 3 || strings.Index(lines[1], "  0") != strings.Index(lines[2], "  1") {
		t.Errorf("the columns are not aligned:\n%s", out)
	}
}
