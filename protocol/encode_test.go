package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEncoders(t *testing.T) {
	type args struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments,omitempty"`
	}
	var nilPtr *args
	mustEnc := func(b []byte, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"request", mustEnc(EncodeRequest(IntID(1), "tools/call", args{Name: "echo", Arguments: map[string]any{"t": "<a&b>"}})),
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"t":"<a&b>"}}}`},
		{"request raw params compacted", mustEnc(EncodeRequest(StringID("r1"), "tools/list", json.RawMessage("{ \"cursor\" : \"c\" }\n"))),
			`{"jsonrpc":"2.0","id":"r1","method":"tools/list","params":{"cursor":"c"}}`},
		{"request nil params", mustEnc(EncodeRequest(IntID(2), "ping", nil)), `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
		{"request nil raw params", mustEnc(EncodeRequest(IntID(2), "ping", json.RawMessage(nil))), `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
		{"request nil pointer params", mustEnc(EncodeRequest(IntID(2), "ping", nilPtr)), `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
		{"notification", mustEnc(EncodeNotification("notifications/initialized", nil)), `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{"notification params", mustEnc(EncodeNotification("notifications/cancelled", map[string]any{"requestId": 3, "reason": "user"})),
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"user","requestId":3}}`},
		{"result", mustEnc(EncodeResult(IntID(5), json.RawMessage(`{"roots":[]}`))), `{"jsonrpc":"2.0","id":5,"result":{"roots":[]}}`},
		{"result nil", mustEnc(EncodeResult(StringID("s"), nil)), `{"jsonrpc":"2.0","id":"s","result":{}}`},
		{"error", mustEnc(EncodeError(IntID(6), MethodNotFound, "Method not found", nil)),
			`{"jsonrpc":"2.0","id":6,"error":{"code":-32601,"message":"Method not found"}}`},
		{"error data", mustEnc(EncodeError(IntID(6), InvalidParams, "bad \"x\"", map[string]string{"field": "x"})),
			`{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"bad \"x\"","data":{"field":"x"}}}`},
		{"error null id", mustEnc(EncodeError(ID{}, ParseError, "Parse error", nil)),
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, tt.got, tt.want)
		}
		f := Decode([]byte(tt.got))
		if len(f.Findings) != 0 {
			t.Errorf("%s: own output has findings %v", tt.name, f.Findings)
		}
	}
}

func TestEncoderErrors(t *testing.T) {
	if _, err := EncodeRequest(ID{}, "ping", nil); err == nil {
		t.Error("request without id")
	}
	if _, err := EncodeResult(ID{}, nil); err == nil {
		t.Error("result without id")
	}
	if _, err := EncodeRequest(ID{Raw: json.RawMessage("1 2")}, "ping", nil); err == nil {
		t.Error("malformed id")
	}
	if _, err := EncodeRequest(IntID(1), "x", json.RawMessage("{")); err == nil {
		t.Error("malformed raw params")
	}
	if _, err := EncodeNotification("x", func() {}); err == nil {
		t.Error("unencodable params")
	}
	if _, err := EncodeError(IntID(1), 1, "m", make(chan int)); err == nil {
		t.Error("unencodable data")
	}
}

// TestEncodersMatchSchema checks what mcpscope sends against each revision's schema.
func TestEncodersMatchSchema(t *testing.T) {
	for _, rev := range Revisions {
		var msgs [][]byte
		add := func(b []byte, err error) {
			if err != nil {
				t.Fatal(err)
			}
			msgs = append(msgs, b)
		}
		meta := map[string]any{}
		if rev.Stateless() {
			add(EncodeRequest(IntID(1), "server/discover", map[string]any{}))
			meta = map[string]any{"_meta": map[string]any{
				"io.modelcontextprotocol/protocolVersion":    string(rev),
				"io.modelcontextprotocol/clientCapabilities": map[string]any{},
			}}
		} else {
			add(EncodeRequest(IntID(1), "initialize", map[string]any{
				"protocolVersion": string(rev), "capabilities": map[string]any{},
				"clientInfo": map[string]any{"name": "mcpscope", "version": "0.1.0"},
			}))
			add(EncodeNotification("notifications/initialized", nil))
			add(EncodeRequest(StringID("p"), "ping", nil))
			add(EncodeResult(IntID(9), json.RawMessage(`{"roots":[]}`)))
		}
		add(EncodeRequest(IntID(2), "tools/list", meta))
		add(EncodeNotification("notifications/cancelled", map[string]any{"requestId": 2, "reason": "timeout"}))
		add(EncodeError(IntID(7), MethodNotFound, "Method not found", nil))
		for _, m := range msgs {
			validateMessage(t, rev, m)
		}
	}
}

func TestErrorCodeName(t *testing.T) {
	for code, want := range map[int64]string{
		ParseError: "Parse error", InvalidRequest: "Invalid request", MethodNotFound: "Method not found",
		InvalidParams: "Invalid params", InternalError: "Internal error", URLElicitationRequired: "URL elicitation required",
		UnsupportedProtocolVersion: "Unsupported protocol version", -32050: "Server error", -32700 + 1: "Reserved", 42: "",
	} {
		if got := ErrorCodeName(code); got != want {
			t.Errorf("ErrorCodeName(%d) = %q, want %q", code, got, want)
		}
	}
}

// TestMarshalKeepsHTMLCharacters: what mcpscope builds to send keeps & < > as given, in a
// value, a map of raw members and the encoders' params.
func TestMarshalKeepsHTMLCharacters(t *testing.T) {
	const typed = `a&b<c>d "q" é`
	got, err := Marshal(map[string]any{"s": typed, "raw": json.RawMessage(`{"x":"<&>"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"raw":{"x":"<&>"},"s":"a&b<c>d \"q\" é"}`; string(got) != want {
		t.Errorf("Marshal = %s, want %s", got, want)
	}
	req, err := EncodeRequest(ID{Raw: json.RawMessage("1")}, "tools/call", json.RawMessage(got))
	if err != nil || !strings.Contains(string(req), `"x":"<&>"`) || strings.Contains(string(req), `\u0026`) {
		t.Errorf("EncodeRequest = %s, %v", req, err)
	}
}
