package sessiontest

import (
	"strings"
	"testing"
)

// TestSchemaValidator pins that the validator accepts well-formed client frames of every
// revision and rejects broken ones, so a schema check in an end-to-end test can fail.
func TestSchemaValidator(t *testing.T) {
	v := Schemas(t)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`
	type sample struct {
		name, replyTo, raw string
		ok                 bool
	}
	stateful := func(rev string) []sample {
		out := []sample{
			{"call", "", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"a":1}}}`, true},
			{"call without name", "", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}`, false},
			{"initialize", "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + rev + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, true},
			{"initialize without clientInfo", "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + rev + `","capabilities":{}}}`, false},
			{"initialized", "", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, true},
			{"cancelled", "", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"x"}}`, true},
			{"server-only notification", "", `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, false},
			{"unknown method", "", `{"jsonrpc":"2.0","id":2,"method":"no/such"}`, false},
			{"wrong jsonrpc", "", `{"jsonrpc":"1.0","id":2,"method":"ping"}`, false},
			{"roots reply", "roots/list", `{"jsonrpc":"2.0","id":"r1","result":{"roots":[{"uri":"file:///tmp","name":"tmp"}]}}`, true},
			{"roots reply without roots", "roots/list", `{"jsonrpc":"2.0","id":"r1","result":{}}`, false},
			{"sampling reply", "sampling/createMessage", `{"jsonrpc":"2.0","id":5,"result":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}}`, true},
			{"sampling reply without model", "sampling/createMessage", `{"jsonrpc":"2.0","id":5,"result":{"role":"assistant","content":{"type":"text","text":"hi"}}}`, false},
			{"error reply", "sampling/createMessage", `{"jsonrpc":"2.0","id":5,"error":{"code":-1,"message":"declined"}}`, true},
			{"error reply without message", "sampling/createMessage", `{"jsonrpc":"2.0","id":5,"error":{"code":-1}}`, false},
			{"not json", "", `hello`, false},
		}
		if rev >= "2025-06-18" {
			out = append(out,
				sample{"elicit reply", "elicitation/create", `{"jsonrpc":"2.0","id":6,"result":{"action":"accept","content":{"name":"x"}}}`, true},
				sample{"elicit reply with a bad action", "elicitation/create", `{"jsonrpc":"2.0","id":6,"result":{"action":"maybe"}}`, false})
		}
		return out
	}
	revs := map[string][]sample{
		"2024-11-05": stateful("2024-11-05"),
		"2025-03-26": stateful("2025-03-26"),
		"2025-06-18": stateful("2025-06-18"),
		"2025-11-25": stateful("2025-11-25"),
		"2026-07-28": {
			{"discover", "", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta + `}}`, true},
			{"call", "", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + meta + `,"name":"echo","arguments":{}}}`, true},
			{"call without _meta", "", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}}`, false},
			{"initialize is gone", "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2026-07-28","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, false},
			{"cancelled", "", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`, true},
		},
	}
	for rev, samples := range revs {
		for _, s := range samples {
			t.Run(rev+"/"+s.name, func(t *testing.T) {
				err := v.CheckSent(rev, s.replyTo, []byte(s.raw))
				if s.ok && err != nil {
					t.Errorf("want valid, got %v", err)
				}
				if !s.ok && err == nil {
					t.Errorf("want invalid, the validator accepted it")
				}
			})
		}
	}
	if err := v.CheckSent("1999-01-01", "", []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)); err == nil || !strings.Contains(err.Error(), "unknown revision") {
		t.Errorf("unknown revision: got %v", err)
	}
}
