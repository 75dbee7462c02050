package traffic

import "testing"

// The row label, the tool: filter and breakpoints name the tool the server runs: read by
// its exact key, never folded as encoding/json folds keys.
func TestRequestTargetExactKey(t *testing.T) {
	for _, c := range []struct{ method, params, want string }{
		{MethodToolsCall, `{"name":"model_only_admin","Name":"report"}`, "model_only_admin"},
		{MethodToolsCall, `{"Name":"report"}`, ""},
		{MethodPromptsGet, `{"NAME":"x","name":"greet"}`, "greet"},
		{MethodResourcesRead, `{"uri":"file:///a","Uri":"file:///b"}`, "file:///a"},
	} {
		if got := RequestTarget(c.method, []byte(c.params)); got != c.want {
			t.Errorf("RequestTarget(%s, %s) = %q, want %q", c.method, c.params, got, c.want)
		}
	}
}
