package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckExtensionMethods(t *testing.T) {
	req := func(method string) *Frame {
		return Decode([]byte(`{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{}}`))
	}
	tests := []struct {
		method, caps, want string
	}{
		{"skills/list", `{"resources":{},"extensions":{"io.modelcontextprotocol/skills":{}}}`, ""},
		{"skills/get", `{"resources":{}}`, "belongs to the io.modelcontextprotocol/skills extension, which the server did not declare"},
		{"resources/directory/read", `{"extensions":{"io.modelcontextprotocol/skills":{}}}`, "directoryRead setting"},
		{"resources/directory/read", `{"extensions":{"io.modelcontextprotocol/skills":{"directoryRead":true}}}`, ""},
		{"skills/nothing", `{}`, "is not a method of MCP revision"},
	}
	for _, tt := range tests {
		c := CheckContext{Revision: Rev20260728, ServerCaps: json.RawMessage(tt.caps)}
		var msgs []string
		for _, f := range Check(req(tt.method), ClientToServer, c) {
			msgs = append(msgs, f.Message)
		}
		got := strings.Join(msgs, "\n")
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s with %s: %q, want %q", tt.method, tt.caps, got, tt.want)
		}
	}
}
