package cli_test

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestCallDeepNesting: a tool result nested 100,000 levels deep is printed as received,
// with the nesting finding on stderr and in the trace, instead of failing.
func TestCallDeepNesting(t *testing.T) {
	stdout, stderr, code := run(t, "call", "deepnest", "--trace", "--", sessiontest.BuildBadServer(t))
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr[:min(len(stderr), 2000)])
	}
	if !strings.HasPrefix(stdout, `{"content":[{"type":"text","text":"nested"}],"structuredContent":{"deep":[[[[`) ||
		strings.Count(stdout, "[") != 100001 {
		t.Errorf("stdout is not the result as received: %.200s… (%d bytes)", stdout, len(stdout))
	}
	if !strings.Contains(stderr, "mcpscope: "+protocol.FindTooDeep+": the JSON nests beyond 10000 levels") {
		t.Errorf("no nesting note on stderr")
	}
	if !strings.Contains(stderr, `"findings":[{"code":"`+protocol.FindTooDeep+`","message":"the message nests 100003 levels deep`) {
		t.Errorf("the trace does not carry the finding")
	}
}

// TestListDeepNesting: a tools/list item nested 100,000 levels deep is listed as received
// with the nesting note, where the list used to fail with "exceeded max depth".
func TestListDeepNesting(t *testing.T) {
	stdout, stderr, code := run(t, "list", "tools", "--", sessiontest.BuildBadServer(t), "-deep-list", "100000")
	if code != 0 {
		t.Fatalf("exit %d\n%.2000s", code, stderr)
	}
	if !strings.HasPrefix(stdout, `[{"name":"deeplist","description":"its inputSchema nests very deeply"`) ||
		!strings.Contains(stdout, `"name":"stdoutclose"`) || strings.Count(stdout, "[") < 100000 {
		t.Errorf("stdout is not the list as received: %.300s… (%d bytes)", stdout, len(stdout))
	}
	if !strings.Contains(stderr, "mcpscope: "+protocol.FindTooDeep+": the JSON nests beyond 10000 levels") {
		t.Errorf("no nesting note on stderr:\n%.2000s", stderr)
	}
}
