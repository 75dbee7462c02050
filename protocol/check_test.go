package protocol

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	allServer := json.RawMessage(`{"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},"prompts":{},"logging":{},"completions":{},"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}}`)
	allClient := json.RawMessage(`{"roots":{"listChanged":true},"sampling":{"tools":{},"context":{}},"elicitation":{"form":{},"url":{}},"tasks":{"requests":{"sampling":{"createMessage":{}}}}}`)
	none := json.RawMessage(`{}`)
	tasksExt := json.RawMessage(`{"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}`)
	ctx := func(rev Revision, client, server json.RawMessage) CheckContext {
		return CheckContext{Revision: rev, ClientCaps: client, ServerCaps: server}
	}
	tests := []struct {
		name  string
		raw   string
		from  Direction
		c     CheckContext
		codes []string
	}{
		{"tools/call allowed", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`, ClientToServer, ctx(Rev20250618, none, allServer), nil},
		{"tools/call without tools", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`, ClientToServer, ctx(Rev20250618, none, none), []string{FindCapability}},
		{"caps unknown", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`, ClientToServer, ctx(Rev20250618, nil, nil), nil},
		{"subscribe false", `{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"x"}}`, ClientToServer, ctx(Rev20250618, none, json.RawMessage(`{"resources":{"subscribe":false}}`)), []string{FindCapability}},
		{"subscribe true", `{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"x"}}`, ClientToServer, ctx(Rev20250618, none, allServer), nil},
		{"list_changed undeclared", `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, ServerToClient, ctx(Rev20250618, none, json.RawMessage(`{"tools":{}}`)), []string{FindCapability}},
		{"list_changed declared", `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, ServerToClient, ctx(Rev20250618, none, allServer), nil},
		{"sampling without cap", `{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}`, ServerToClient, ctx(Rev20250618, json.RawMessage(`{"roots":{}}`), allServer), []string{FindCapability}},
		{"sampling with cap", `{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}`, ServerToClient, ctx(Rev20250618, json.RawMessage(`{"sampling":{}}`), allServer), nil},
		{"sampling tools undeclared", `{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5,"tools":[]}}`, ServerToClient, ctx(Rev20251125, json.RawMessage(`{"sampling":{}}`), allServer), []string{FindCapability}},
		{"sampling context undeclared", `{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5,"includeContext":"thisServer"}}`, ServerToClient, ctx(Rev20251125, json.RawMessage(`{"sampling":{}}`), allServer), []string{FindCapability}},
		{"sampling context none", `{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5,"includeContext":"none"}}`, ServerToClient, ctx(Rev20251125, json.RawMessage(`{"sampling":{}}`), allServer), nil},
		{"sampling everything declared", `{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5,"tools":[],"includeContext":"allServers","task":{}}}`, ServerToClient, ctx(Rev20251125, allClient, allServer), nil},
		{"elicitation empty = form, form request", `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"m","requestedSchema":{}}}`, ServerToClient, ctx(Rev20251125, json.RawMessage(`{"elicitation":{}}`), allServer), nil},
		{"elicitation empty = form, url request", `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://x","elicitationId":"e"}}`, ServerToClient, ctx(Rev20251125, json.RawMessage(`{"elicitation":{}}`), allServer), []string{FindCapability}},
		{"elicitation url only, form request", `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"mode":"form","message":"m","requestedSchema":{}}}`, ServerToClient, ctx(Rev20251125, json.RawMessage(`{"elicitation":{"url":{}}}`), allServer), []string{FindCapability}},
		{"elicitation url declared", `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://x","elicitationId":"e"}}`, ServerToClient, ctx(Rev20251125, allClient, allServer), nil},
		{"elicitation undeclared", `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"m","requestedSchema":{}}}`, ServerToClient, ctx(Rev20250618, none, allServer), []string{FindCapability}},
		{"elicitation in 2025-03-26", `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{}}`, ServerToClient, ctx(Rev20250326, allClient, allServer), []string{FindUnknownMethod}},
		{"elicitation complete needs url", `{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"e"}}`, ServerToClient, ctx(Rev20251125, json.RawMessage(`{"elicitation":{"form":{}}}`), allServer), []string{FindCapability}},
		{"task tools/call declared", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","task":{"ttl":1}}}`, ClientToServer, ctx(Rev20251125, none, allServer), nil},
		{"task tools/call undeclared", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","task":{"ttl":1}}}`, ClientToServer, ctx(Rev20251125, none, json.RawMessage(`{"tools":{}}`)), []string{FindCapability}},
		{"tasks/list undeclared", `{"jsonrpc":"2.0","id":1,"method":"tasks/list"}`, ServerToClient, ctx(Rev20251125, json.RawMessage(`{"tasks":{}}`), allServer), []string{FindCapability}},
		{"completion ungated in 2024-11-05", `{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{}}`, ClientToServer, ctx(Rev20241105, none, none), nil},
		{"completion gated in 2025-03-26", `{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{}}`, ClientToServer, ctx(Rev20250326, none, none), []string{FindCapability}},
		{"ping both ways", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, ServerToClient, ctx(Rev20250618, none, none), nil},
		{"ping gone in 2026", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, ClientToServer, ctx(Rev20260728, none, none), []string{FindUnknownMethod}},
		{"initialize gone in 2026", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, ClientToServer, ctx(Rev20260728, nil, nil), []string{FindUnknownMethod}},
		{"server/discover in 2026", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`, ClientToServer, ctx(Rev20260728, nil, nil), nil},
		{"server/discover before 2026", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`, ClientToServer, ctx(Rev20251125, nil, nil), []string{FindUnknownMethod}},
		{"cancelled from server in 2026", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, ServerToClient, ctx(Rev20260728, nil, nil), nil},
		{"progress from client in 2026", `{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`, ClientToServer, ctx(Rev20260728, nil, nil), []string{FindWrongDirection}},
		{"wrong direction", `{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{}}`, ClientToServer, ctx(Rev20250618, allClient, allServer), []string{FindWrongDirection}},
		{"unknown method", `{"jsonrpc":"2.0","id":1,"method":"tools/frobnicate"}`, ClientToServer, ctx(Rev20250618, nil, nil), []string{FindUnknownMethod}},
		{"notification sent as request", `{"jsonrpc":"2.0","id":1,"method":"notifications/initialized"}`, ClientToServer, ctx(Rev20250618, nil, nil), []string{FindMessageKind}},
		{"request sent as notification", `{"jsonrpc":"2.0","method":"ping"}`, ClientToServer, ctx(Rev20250618, nil, nil), []string{FindMessageKind}},
		{"batch allowed", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, ClientToServer, ctx(Rev20250326, nil, nil), nil},
		{"batch in 2024-11-05", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, ClientToServer, ctx(Rev20241105, nil, nil), []string{FindBatchForbidden}},
		{"batch in 2025-06-18 with bad member", `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"nope"}]`, ClientToServer, ctx(Rev20250618, nil, nil), []string{FindBatchForbidden, FindUnknownMethod}},
		{"2026 result without resultType", `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`, ServerToClient, ctx(Rev20260728, nil, nil), []string{FindMissingResultType}},
		{"2026 result complete", `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[]}}`, ServerToClient, ctx(Rev20260728, nil, nil), nil},
		{"2026 result input_required", `{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"s"}}`, ServerToClient, ctx(Rev20260728, nil, nil), nil},
		{"2026 result odd resultType", `{"jsonrpc":"2.0","id":1,"result":{"resultType":"partial"}}`, ServerToClient, ctx(Rev20260728, nil, nil), []string{FindUnknownResultType}},
		{"2026 result resultType number", `{"jsonrpc":"2.0","id":1,"result":{"resultType":1}}`, ServerToClient, ctx(Rev20260728, nil, nil), []string{FindUnknownResultType}},
		{"2026 error needs no resultType", `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}`, ServerToClient, ctx(Rev20260728, nil, nil), nil},
		{"2025 result needs no resultType", `{"jsonrpc":"2.0","id":1,"result":{}}`, ServerToClient, ctx(Rev20251125, nil, nil), nil},
		{"unknown revision", `{"jsonrpc":"2.0","id":1,"method":"tools/frobnicate"}`, ClientToServer, ctx("1999-01-01", nil, nil), nil},
		{"2026 task result, extension declared", `{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"t","status":"working"}}`, ServerToClient, ctx(Rev20260728, nil, tasksExt), nil},
		{"2026 task result, extension undeclared", `{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"t","status":"working"}}`, ServerToClient, ctx(Rev20260728, nil, none), []string{FindUnknownResultType}},
		{"2026 tasks/get, extension declared", `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t"}}`, ClientToServer, ctx(Rev20260728, none, tasksExt), nil},
		{"2026 tasks/update, extension undeclared", `{"jsonrpc":"2.0","id":1,"method":"tasks/update","params":{"taskId":"t","inputResponses":{}}}`, ClientToServer, ctx(Rev20260728, none, json.RawMessage(`{"extensions":{"io.other/x":{}}}`)), []string{FindCapability}},
		{"2026 tasks/result is gone", `{"jsonrpc":"2.0","id":1,"method":"tasks/result","params":{"taskId":"t"}}`, ClientToServer, ctx(Rev20260728, none, tasksExt), []string{FindUnknownMethod}},
		{"2025 tasks/update does not exist", `{"jsonrpc":"2.0","id":1,"method":"tasks/update","params":{"taskId":"t"}}`, ClientToServer, ctx(Rev20251125, none, allServer), []string{FindUnknownMethod}},
		{"2026 task notification", `{"jsonrpc":"2.0","method":"notifications/tasks","params":{"taskId":"t","status":"completed"}}`, ServerToClient, ctx(Rev20260728, none, tasksExt), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Decode([]byte(tt.raw))
			if len(f.Findings) != 0 {
				t.Fatalf("decode findings %v", f.Findings)
			}
			before := cloneFrame(f)
			got := Check(f, tt.from, tt.c)
			wantCodes(t, got, tt.codes...)
			if !reflect.DeepEqual(before, f) {
				t.Error("Check modified the frame")
			}
			for _, fd := range got {
				if fd.Message == "" {
					t.Errorf("%s without message", fd.Code)
				}
			}
		})
	}
}

func cloneFrame(f *Frame) *Frame {
	c := *f
	c.Raw = bytes.Clone(f.Raw)
	c.Findings = append([]Finding(nil), f.Findings...)
	c.Batch = nil
	for _, m := range f.Batch {
		c.Batch = append(c.Batch, cloneFrame(m))
	}
	return &c
}

func TestCheckBatchMessagesNameTheMember(t *testing.T) {
	f := Decode([]byte(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"nope"}]`))
	got := Check(f, ClientToServer, CheckContext{Revision: Rev20250326})
	if len(got) != 1 || !strings.HasPrefix(got[0].Message, "batch item 2: ") {
		t.Errorf("findings = %v", got)
	}
}

func TestResultType(t *testing.T) {
	for raw, want := range map[string]string{
		`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}`:       "complete",
		`{"jsonrpc":"2.0","id":1,"result":{"a":{"resultType":"x"}}}`:        "",
		`{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}`: "input_required",
		`{"jsonrpc":"2.0","id":1,"result":{"resultType":3}}`:                "",
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}`:         "",
		`{"jsonrpc":"2.0","id":1,"result":[]}`:                              "",
	} {
		if got := ResultType(Decode([]byte(raw))); got != want {
			t.Errorf("ResultType(%s) = %q, want %q", raw, got, want)
		}
	}
	if ResultType(nil) != "" {
		t.Error("nil frame")
	}
}

func TestRevisions(t *testing.T) {
	for i, r := range Revisions {
		if got, ok := ParseRevision(string(r)); !ok || got != r {
			t.Errorf("ParseRevision(%s)", r)
		}
		if i > 0 && Revisions[i-1] >= r {
			t.Error("Revisions out of order")
		}
		if r.Stateless() != (r == Rev20260728) || r.HasInitialize() == r.Stateless() {
			t.Errorf("%s: Stateless %v", r, r.Stateless())
		}
		if r.AllowsBatch() != (r == Rev20250326) {
			t.Errorf("%s: AllowsBatch %v", r, r.AllowsBatch())
		}
	}
	if _, ok := ParseRevision("2025-01-01"); ok {
		t.Error("unknown revision parsed")
	}
	if LatestStateful.Stateless() || !LatestStateful.Known() {
		t.Error("LatestStateful")
	}
	if Revision("2099-01-01").Stateless() {
		t.Error("unknown revisions are not stateless")
	}
}

// TestSchemaRejects makes sure the schema validation used by the encoder tests is live.
func TestSchemaRejects(t *testing.T) {
	for _, rev := range []Revision{Rev20241105, Rev20260728} {
		if messageError(t, rev, []byte(`{"jsonrpc":"1.0","id":1,"method":"ping"}`)) == nil {
			t.Errorf("%s: schema accepted jsonrpc 1.0", rev)
		}
	}
}

func TestFindingsRegistry(t *testing.T) {
	all := []string{FindJSONRPCVersion, FindResultAndError, FindNoResultOrError, FindErrorCode, FindErrorMessage,
		FindIDType, FindNotJSON, FindInvalidUTF8, FindEmptyLine, FindTooLarge, FindBatchForbidden, FindUnknownID,
		FindDuplicateResponse, FindLateResponse, FindMissingResultType, FindUnknownMethod, FindWrongDirection,
		FindCapability, FindUnterminated, FindUnknownContent, FindRedirectWithheld, FindRedirectForwarded, FindRedirectNotFollowed}
	codes := FindingCodes()
	for _, c := range all {
		if Explain(c) == "" {
			t.Errorf("%s has no explanation", c)
		}
		found := false
		for _, k := range codes {
			found = found || k == c
		}
		if !found {
			t.Errorf("%s not in FindingCodes", c)
		}
	}
	if f := NewFinding(FindLateResponse, "response to %s after cancel", "7"); f.Severity != SevInfo || f.Message != "response to 7 after cancel" {
		t.Errorf("NewFinding = %+v", f)
	}
	if f := NewFinding(FindNotJSON, "banner line"); f.Severity != SevError || f.Message != "banner line" {
		t.Errorf("NewFinding without args = %+v", f)
	}
	if f := NewFinding("vendor.custom", "x"); f.Severity != SevWarning || Explain("vendor.custom") != "" {
		t.Errorf("unknown code = %+v", f)
	}
}

func TestContentBlockTypes(t *testing.T) {
	cases := []struct {
		in   string
		want string
	}{
		{`{"content":[{"type":"text","text":"a"},{"type":"image","data":"x"},{"text":"no type"}]}`, "text,image"},
		{`{"messages":[{"role":"user","content":{"type":"audio"}},{"role":"assistant","content":{"type":"text"}}]}`, "audio,text"},
		{`{"content":[]}`, ""},
		{`{"content":[{"type":"text"},`, ""},
		{`not json`, ""},
	}
	for _, c := range cases {
		if got := strings.Join(ContentBlockTypes([]byte(c.in)), ","); got != c.want {
			t.Errorf("%s: got %q, want %q", c.in, got, c.want)
		}
	}
}
