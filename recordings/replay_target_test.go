package recordings

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
)

// TestRequestTarget: a replay result names the tool, the prompt or the uri (masked).
func TestRequestTarget(t *testing.T) {
	for _, c := range []struct{ method, params, want string }{
		{"tools/call", `{"name":"add","arguments":{"a":1}}`, "add"},
		{"prompts/get", `{"name":"greet"}`, "greet"},
		{"resources/read", `{"uri":"https://user:hunter2@example.com/x"}`, "https://user:"},
		{"tools/list", `{}`, ""},
	} {
		got := requestTarget(&protocol.Frame{Method: c.method, Params: []byte(c.params)})
		if c.want == "" && got != "" || !strings.HasPrefix(got, c.want) {
			t.Errorf("%s %s: target %q, want %q…", c.method, c.params, got, c.want)
		}
		if strings.Contains(got, "hunter2") {
			t.Errorf("%s: the uri's password is shown: %q", c.method, got)
		}
	}
}
