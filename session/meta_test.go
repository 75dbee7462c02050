package session

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
)

func TestWithMeta(t *testing.T) {
	meta := map[string]any{protocol.MetaProtocolVersion: "2026-07-28", "progressToken": json.Number("7")}
	cases := []struct {
		name, in, want string
	}{
		{"nil params", ``, `{"_meta":{"progressToken":7,"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`},
		{"keeps order", `{"name":"x","arguments":{"b":1,"a":2}}`,
			`{"_meta":{"progressToken":7,"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"x","arguments":{"b":1,"a":2}}`},
		{"merges caller meta, caller wins", `{"_meta":{"progressToken":"mine","x":1},"name":"y"}`,
			`{"_meta":{"progressToken":"mine","x":1,"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"y"}`},
		{"array params untouched", `[1,2]`, `[1,2]`},
		{"non-object meta untouched", `{"_meta":5}`, `{"_meta":5}`},
		{"invalid JSON untouched", `{"a":`, `{"a":`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := withMeta(json.RawMessage(c.in), meta)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
	if got, _ := withMeta(json.RawMessage(`{"a":1}`), nil); string(got) != `{"a":1}` {
		t.Errorf("no meta must leave params byte for byte, got %s", got)
	}
}

func TestWithInputs(t *testing.T) {
	state := "opaque"
	got, err := withInputs(json.RawMessage(`{"name":"t","inputResponses":{"old":1},"arguments":{}}`),
		map[string]json.RawMessage{"k": json.RawMessage(`{"action":"accept"}`)}, &state)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"t","arguments":{},"inputResponses":{"k":{"action":"accept"}},"requestState":"opaque"}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	got, _ = withInputs(json.RawMessage(`{"name":"t","requestState":"stale"}`), map[string]json.RawMessage{}, nil)
	if want := `{"name":"t","inputResponses":{}}`; string(got) != want {
		t.Errorf("a retry without requestState must not carry one: got %s", got)
	}
}

func TestRecentIDs(t *testing.T) {
	r := newRecentIDs(2)
	r.put("a", finished{state: finAnswered})
	r.put("b", finished{state: finCancelled})
	r.put("c", finished{state: finTimedOut})
	if _, ok := r.get("a"); ok {
		t.Error("oldest entry should have been forgotten")
	}
	if f, ok := r.get("c"); !ok || f.state != finTimedOut {
		t.Errorf("c = %+v, %v", f, ok)
	}
}

func TestHeadlessElicitAcceptDefaults(t *testing.T) {
	h := &Headless{Elicit: ElicitAcceptDefaults}
	params := json.RawMessage(`{"message":"m","requestedSchema":{"type":"object","properties":{
		"name":{"type":"string","default":"ada"},"age":{"type":"integer"},"ok":{"type":"boolean"},
		"color":{"type":"string","enum":["red","blue"]},"note":{"type":"string"}},"required":["name","age","ok","color"]}}`)
	res, rerr := h.Respond(t.Context(), &ServerRequest{Method: "elicitation/create", Params: params})
	if rerr != nil {
		t.Fatal(rerr)
	}
	var got struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	if err := json.Unmarshal(res, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"name": "ada", "age": 0.0, "ok": false, "color": "red"}
	if got.Action != "accept" || len(got.Content) != len(want) {
		t.Fatalf("got %s", res)
	}
	for k, v := range want {
		if got.Content[k] != v {
			t.Errorf("%s = %v, want %v", k, got.Content[k], v)
		}
	}
	for _, policy := range []string{"", ElicitDecline, ElicitCancel} {
		res, _ := (&Headless{Elicit: policy}).Respond(t.Context(), &ServerRequest{Method: "elicitation/create", Params: params})
		want := `{"action":"decline"}`
		if policy == ElicitCancel {
			want = `{"action":"cancel"}`
		}
		if string(res) != want {
			t.Errorf("policy %q: got %s", policy, res)
		}
	}
	if _, rerr := (&Headless{}).Respond(t.Context(), &ServerRequest{Method: "sampling/createMessage"}); rerr == nil || rerr.Code != -1 {
		t.Errorf("sampling without a canned reply must be declined, got %v", rerr)
	}
}

// TestTaskRouting covers what the tasks extension adds to a request: the task id as the
// Mcp-Name header, the extension declared alongside the other capabilities, and the
// 2025-11-25 task member.
func TestTaskRouting(t *testing.T) {
	for method, want := range map[string]string{"tasks/get": "t-1", "tasks/update": "t-1", "tasks/cancel": "t-1", "tasks/list": ""} {
		if got := MirroredName(method, json.RawMessage(`{"taskId":"t-1"}`)); got != want {
			t.Errorf("MirroredName(%s) = %q, want %q", method, got, want)
		}
	}
	caps := withExtension(json.RawMessage(`{"sampling":{},"extensions":{"io.other/x":{"a":1}}}`), "io.modelcontextprotocol/tasks")
	var m struct {
		Sampling   json.RawMessage            `json:"sampling"`
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	if err := json.Unmarshal(caps, &m); err != nil || m.Sampling == nil || string(m.Extensions["io.other/x"]) != `{"a":1}` || string(m.Extensions["io.modelcontextprotocol/tasks"]) != `{}` {
		t.Errorf("withExtension = %s", caps)
	}
	for _, tc := range []struct {
		params string
		ttl    time.Duration
		want   string
	}{
		{`{"name":"a"}`, 0, `{"name":"a","task":{}}`},
		{``, time.Minute, `{"task":{"ttl":60000}}`},
		{`{"name":"a","task":{"ttl":5}}`, time.Minute, `{"name":"a","task":{"ttl":5}}`},
	} {
		got, err := withTaskParam(json.RawMessage(tc.params), tc.ttl)
		if err != nil || string(got) != tc.want {
			t.Errorf("withTaskParam(%s, %s) = %s, %v; want %s", tc.params, tc.ttl, got, err, tc.want)
		}
	}
	if _, err := withTaskParam(json.RawMessage(`[1]`), 0); err == nil {
		t.Errorf("withTaskParam accepted params that are not an object")
	}
}
