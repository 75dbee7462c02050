package cli_test

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestOneShotStreams: against a stateful Streamable HTTP server, `list tools` opens no
// standalone GET stream (nothing it could receive there is of use to it) and still ends the
// session with DELETE; `call`, whose tool may ask the user something, opens it. Both send
// notifications/initialized before their first request (info sends none).
func TestOneShotStreams(t *testing.T) {
	url, _ := sessiontest.StartDemoHTTP(t)
	for _, c := range []struct {
		args []string
		get  bool
	}{
		{[]string{"list", "tools"}, false},
		{[]string{"info"}, false},
		{[]string{"call", "echo", "text=hi"}, true},
	} {
		_, stderr, code := run(t, append(append([]string{"--trace", "--protocol", "2025-11-25"}, c.args...), "--url", url)...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", c.args, code, stderr)
		}
		var gets, deletes int
		initialized, request := -1, -1
		for i, e := range traceEvents(t, stderr) {
			switch {
			case e.HTTP != nil && e.HTTP.Method == "GET":
				gets++
			case e.HTTP != nil && e.HTTP.Method == "DELETE":
				deletes++
			case e.Kind == "frame" && e.Method == "notifications/initialized":
				initialized = i
			case e.Kind == "frame" && e.FrameKind == "request" && e.Method != "initialize" && request < 0:
				request = i
			}
		}
		if (gets > 0) != c.get || deletes != 1 {
			t.Errorf("%s: %d GET streams (want one: %v), %d DELETEs (want 1)", strings.Join(c.args, " "), gets, c.get, deletes)
		}
		if initialized < 0 || request >= 0 && request < initialized {
			t.Errorf("%s: notifications/initialized at %d, the first request at %d", strings.Join(c.args, " "), initialized, request)
		}
	}
}
