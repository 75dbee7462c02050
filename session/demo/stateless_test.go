package demo

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// meta2026 returns the per-request _meta of a 2026-07-28 client with the
// given capabilities, as a JSON member ready to put in params.
func meta2026(caps string, extra ...string) string {
	m := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps +
		`,"io.modelcontextprotocol/clientInfo":{"name":"raw-test","version":"0.2"}`
	for _, e := range extra {
		m += "," + e
	}
	return m + "}"
}

// caps2026 declares every client capability in 2026-07-28 _meta.
const caps2026 = `{"elicitation":{"form":{},"url":{}},"sampling":{},"roots":{}}`

// call2026 calls a tool the 2026-07-28 way and decodes the result.
func call2026(t *testing.T, c *lineClient, name, args, extra string) toolResult {
	t.Helper()
	var r toolResult
	c.roundTrip("tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s%s,%s}`, name, args, extra, meta2026(caps2026))).result(t, &r)
	return r
}

func TestStatelessDiscover(t *testing.T) {
	s := startStdio(t)
	var res struct {
		ResultType        string
		SupportedVersions []string
		Capabilities      map[string]json.RawMessage
		Instructions      string
		Meta              map[string]json.RawMessage `json:"_meta"`
	}
	s.roundTrip("server/discover", "{"+meta2026(`{}`)+"}").result(t, &res)
	if res.ResultType != "complete" || len(res.SupportedVersions) == 0 || res.SupportedVersions[0] != "2026-07-28" ||
		!slices.Contains(res.SupportedVersions, "2024-11-05") {
		t.Errorf("discover = %+v", res)
	}
	for _, c := range []string{"tools", "prompts", "resources", "logging", "completions"} {
		if res.Capabilities[c] == nil {
			t.Errorf("discover capabilities lack %s", c)
		}
	}
	if !strings.Contains(string(res.Meta["io.modelcontextprotocol/serverInfo"]), `"name":"mcpscope-demo"`) || res.Instructions == "" {
		t.Errorf("discover identity: %+v", res)
	}

	// Without the per-request _meta, server/discover is not available.
	if r := s.roundTrip("server/discover", `{}`); r.Error == nil || r.Error.Code != -32601 {
		t.Errorf("discover without _meta: %s", r.raw)
	}
}

func TestStatelessToolCalls(t *testing.T) {
	s := startStdio(t)
	var list struct {
		ResultType string
		Tools      []struct{ Name string }
		NextCursor string
	}
	s.roundTrip("tools/list", "{"+meta2026(`{}`)+"}").result(t, &list)
	if list.ResultType != "complete" || len(list.Tools) != pageSize || list.NextCursor == "" {
		t.Errorf("tools/list = %+v", list)
	}

	r := call2026(t, s.lineClient, "echo", `{"text":"two\nlines"}`, "")
	if r.ResultType != "complete" || r.text() != "two\nlines" || r.Meta["io.modelcontextprotocol/serverInfo"] == nil {
		t.Errorf("echo = %+v", r)
	}
	if r := call2026(t, s.lineClient, "no_args", `{}`, ""); !strings.Contains(r.text(), "raw-test 0.2 speaking 2026-07-28") {
		t.Errorf("no_args = %q", r.text())
	}

	// Progress works per request; the log level comes from _meta.
	id := s.call("tools/call", `{"name":"slow","arguments":{"seconds":0.02,"steps":2},`+meta2026(`{}`, `"progressToken":7`)+`}`)
	s.notification("notifications/progress")
	s.notification("notifications/progress")
	s.response(id).result(t, &r)

	s.roundTrip("tools/call", `{"name":"log","arguments":{},`+meta2026(`{}`, `"io.modelcontextprotocol/logLevel":"alert"`)+`}`).result(t, &r)
	for _, level := range []string{"alert", "emergency"} {
		if n := s.notification("notifications/message"); !strings.Contains(n.raw, `"level":"`+level+`"`) {
			t.Errorf("want %s, got %s", level, n.raw)
		}
	}

	// Stateful-era methods are gone in 2026-07-28.
	if r := s.roundTrip("logging/setLevel", `{"level":"debug",`+meta2026(`{}`)+`}`); r.Error == nil {
		t.Errorf("logging/setLevel in 2026-07-28: %s", r.raw)
	}
}

// TestStatelessInputRequired drives the multi-round-trip flow: the first
// call answers input_required, the client retries with inputResponses and
// the echoed requestState.
func TestStatelessInputRequired(t *testing.T) {
	s := startStdio(t)
	tests := []struct {
		tool, args, key, method, answer, want string
	}{
		{"ask_user", `{"message":"Who are you?"}`, "profile", "elicitation/create",
			`{"action":"accept","content":{"name":"Grace","rating":9.5}}`, "Thanks, Grace!"},
		{"ask_user", `{}`, "profile", "elicitation/create", `{"action":"cancel"}`, "dismissed"},
		{"ask_url", `{}`, "connect", "elicitation/create", `{"action":"accept"}`, "agreed to open the page"},
		{"summarize", `{"text":"abc"}`, "summary", "sampling/createMessage",
			`{"role":"assistant","content":{"type":"text","text":"A summary."},"model":"m1","stopReason":"endTurn"}`, "Summary by m1"},
		{"list_roots", `{}`, "roots", "roots/list", `{"roots":[{"uri":"file:///src","name":"src"}]}`, "- src: file:///src"},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			first := s.roundTrip("tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s,%s}`, tt.tool, tt.args, meta2026(caps2026)))
			var r toolResult
			first.result(t, &r)
			if r.ResultType != "input_required" || r.RequestState == "" || len(r.InputRequests) != 1 {
				t.Fatalf("first round: %s", first.raw)
			}
			var ir struct {
				Method string
				Params json.RawMessage
			}
			json.Unmarshal(r.InputRequests[tt.key], &ir)
			if ir.Method != tt.method {
				t.Errorf("inputRequests.%s.method = %q, want %q", tt.key, ir.Method, tt.method)
			}
			retry := fmt.Sprintf(`,"inputResponses":{%q:%s},"requestState":%q`, tt.key, tt.answer, r.RequestState)
			r = call2026(t, s.lineClient, tt.tool, tt.args, retry)
			if r.ResultType != "complete" || !strings.Contains(r.text(), tt.want) {
				t.Errorf("retry: %+v", r)
			}
		})
	}

	t.Run("requestState is checked", func(t *testing.T) {
		r := call2026(t, s.lineClient, "ask_user", `{}`, "")
		answer := `"inputResponses":{"profile":{"action":"accept","content":{"name":"X"}}}`
		bad := map[string]string{
			"tampered":       fmt.Sprintf(`,%s,"requestState":%q`, answer, "x"+r.RequestState),
			"missing":        "," + answer,
			"other tool":     "",
			"other argument": fmt.Sprintf(`,%s,"requestState":%q`, answer, r.RequestState),
		}
		for name, extra := range bad {
			tool, args := "ask_user", `{}`
			switch name {
			case "other tool":
				tool, extra = "ask_url", fmt.Sprintf(`,"inputResponses":{"connect":{"action":"accept"}},"requestState":%q`, r.RequestState)
			case "other argument":
				args = `{"message":"changed"}`
			}
			resp := s.roundTrip("tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s%s,%s}`, tool, args, extra, meta2026(caps2026)))
			if resp.Error == nil || resp.Error.Code != -32602 {
				t.Errorf("%s requestState: %s", name, resp.raw)
			}
		}
	})

	t.Run("answer must match the schema", func(t *testing.T) {
		r := call2026(t, s.lineClient, "ask_user", `{}`, "")
		r = call2026(t, s.lineClient, "ask_user", `{}`,
			fmt.Sprintf(`,"inputResponses":{"profile":{"action":"accept","content":{"name":"X","age":-3}}},"requestState":%q`, r.RequestState))
		if !r.IsError || !strings.Contains(r.text(), "does not match") {
			t.Errorf("invalid answer: %+v", r)
		}
	})

	t.Run("undeclared capability", func(t *testing.T) {
		var r toolResult
		s.roundTrip("tools/call", `{"name":"summarize","arguments":{},`+meta2026(`{"elicitation":{}}`)+`}`).result(t, &r)
		if !r.IsError || r.ResultType != "complete" || len(r.InputRequests) != 0 {
			t.Errorf("summarize without sampling: %+v", r)
		}
	})
}

// TestStatelessSubscriptions checks that list_changed and resources/updated
// reach a 2026-07-28 client on its subscriptions/listen request.
func TestStatelessSubscriptions(t *testing.T) {
	s := startStdio(t)
	listen := s.call("subscriptions/listen", `{"notifications":{"toolsListChanged":true,"resourceSubscriptions":["demo://counter"]},`+meta2026(`{}`)+`}`)
	ack := s.notification("notifications/subscriptions/acknowledged")
	if !strings.Contains(ack.raw, `"toolsListChanged":true`) || !strings.Contains(ack.raw, `"resourceSubscriptions":["demo://counter"]`) {
		t.Errorf("acknowledged: %s", ack.raw)
	}
	call2026(t, s.lineClient, "toggle_tools", `{}`, "")
	if n := s.notification("notifications/tools/list_changed"); !strings.Contains(n.raw, fmt.Sprintf(`"io.modelcontextprotocol/subscriptionId":%d`, listen)) {
		t.Errorf("list_changed without the listen id: %s", n.raw)
	}
	call2026(t, s.lineClient, "touch_resource", `{}`, "")
	if n := s.notification("notifications/resources/updated"); !strings.Contains(n.raw, `"uri":"demo://counter"`) {
		t.Errorf("resources/updated: %s", n.raw)
	}
	s.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d}}`, listen))
}
