package demo

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// fullCaps declares every client capability in an initialize request.
const fullCaps = `{"elicitation":{"form":{},"url":{}},"sampling":{},"roots":{"listChanged":true}}`

// initialize performs the stateful-era handshake with the given client
// capabilities and returns the initialize result.
func initialize(t *testing.T, c *lineClient, version, caps string) map[string]json.RawMessage {
	t.Helper()
	r := c.roundTrip("initialize", fmt.Sprintf(`{"protocolVersion":%q,"capabilities":%s,"clientInfo":{"name":"raw-test","version":"0.1"}}`, version, caps))
	var res map[string]json.RawMessage
	r.result(t, &res)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return res
}

// callTool calls a tool with raw arguments and decodes the result.
func callTool(t *testing.T, c *lineClient, name, args string) toolResult {
	t.Helper()
	var res toolResult
	c.roundTrip("tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, name, args)).result(t, &res)
	return res
}

var allTools = []string{
	"add", "ask_url", "ask_user", "audio", "crash_rpc", "create_ticket", "echo", "embedded", "fail",
	"get_weather", "image", "links", "list_roots", "log", "no_args", "slow", "summarize", "toggle_tools", "touch_resource",
	"url_required", "view_dice", "view_dice_reroll",
}

func TestStatefulHandshakeAndToolList(t *testing.T) {
	s := startStdio(t)
	res := initialize(t, s.lineClient, "2025-11-25", fullCaps)
	if got := string(res["protocolVersion"]); got != `"2025-11-25"` {
		t.Errorf("protocolVersion = %s", got)
	}
	for _, want := range []string{`"completions":{}`, `"logging":{}`, `"subscribe":true`, `"tools":{"listChanged":true}`, `"prompts":{"listChanged":true}`} {
		if !strings.Contains(string(res["capabilities"]), want) {
			t.Errorf("capabilities %s lack %s", res["capabilities"], want)
		}
	}
	if !strings.Contains(string(res["instructions"]), "mcpscope demo server") {
		t.Errorf("instructions = %s", res["instructions"])
	}

	// An older revision is negotiated as itself.
	old := startStdio(t)
	if res := initialize(t, old.lineClient, "2024-11-05", `{}`); string(res["protocolVersion"]) != `"2024-11-05"` {
		t.Errorf("2024-11-05 negotiated %s", res["protocolVersion"])
	}

	var names []string
	var schemas = map[string]json.RawMessage{}
	cursor, pages := "", 0
	for {
		params := `{}`
		if cursor != "" {
			params = fmt.Sprintf(`{"cursor":%q}`, cursor)
		}
		var page struct {
			Tools []struct {
				Name         string          `json:"name"`
				InputSchema  json.RawMessage `json:"inputSchema"`
				OutputSchema json.RawMessage `json:"outputSchema"`
			} `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		s.roundTrip("tools/list", params).result(t, &page)
		pages++
		for _, tool := range page.Tools {
			names = append(names, tool.Name)
			schemas[tool.Name] = tool.InputSchema
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if want := (len(allTools) + pageSize - 1) / pageSize; pages != want {
		t.Errorf("tools/list took %d pages, want %d (page size %d)", pages, want, pageSize)
	}
	if !slices.Equal(names, allTools) {
		t.Errorf("tools = %v\nwant %v", names, allTools)
	}
	// Hand-written schemas go on the wire byte for byte (compacted).
	for name, doc := range map[string]string{"create_ticket": schemaCreateTicket, "echo": schemaEcho, "no_args": schemaEmpty} {
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(doc)); err != nil {
			t.Fatal(err)
		}
		if string(schemas[name]) != want.String() {
			t.Errorf("%s inputSchema on the wire:\n%s\nwant\n%s", name, schemas[name], want.String())
		}
	}
}

func TestStatefulToolCalls(t *testing.T) {
	s := startStdio(t)
	initialize(t, s.lineClient, "2025-11-25", fullCaps)
	ticket := `{"title":"Crash on start","reporter":{"name":"Ada","email":"ada@example.com"},"assignee":null,` +
		`"due":"2026-01-31","target":{"kind":"repository","url":"https://example.com/repo.git"},` +
		`"steps":[{"action":"run it","expected":"no crash"}],"labels":["ui"],"priority":"p1"}`
	tests := []struct {
		tool, args string
		isError    bool
		check      func(t *testing.T, r toolResult)
	}{
		{"echo", `{"text":"line one\nline two"}`, false, wantText("line one\nline two")},
		{"echo", `{"text":"hi","uppercase":true}`, false, wantText("HI")},
		{"echo", `{}`, true, wantText("invalid arguments")},
		{"add", `{"a":2,"b":3.5}`, false, wantText("2 + 3.5 = 5.5")},
		{"add", `{"a":2,"b":3.5,"integer":true}`, false, wantText("= 6")},
		{"add", `{"a":2000,"b":1}`, true, wantText("maximum")},
		{"create_ticket", ticket, false, wantText("[bug/p1] \"Crash on start\"")},
		{"create_ticket", strings.Replace(ticket, "ada@example.com", "not-an-email", 1), true, wantText("email")},
		{"create_ticket", strings.Replace(ticket, `"kind":"repository"`, `"kind":"service"`, 1), true, wantText("oneOf")},
		{"get_weather", `{"city":"Lisbon"}`, false, checkWeather},
		{"image", `{"size":16}`, false, wantBlock("image", "image/png", "\x89PNG")},
		{"audio", `{}`, false, wantBlock("audio", "audio/wav", "RIFF")},
		{"links", `{}`, false, func(t *testing.T, r toolResult) {
			var uris []string
			for _, c := range r.Content {
				if c.Type == "resource_link" {
					uris = append(uris, c.URI)
				}
			}
			if !slices.Contains(uris, uriReadme) || !slices.Contains(uris, "demo://notes/mcp") {
				t.Errorf("resource links = %v", uris)
			}
		}},
		{"embedded", `{}`, false, func(t *testing.T, r toolResult) {
			if len(r.Content) != 3 || r.Content[1].Type != "resource" || !strings.Contains(string(r.Content[2].Resource), `"blob":`) {
				t.Errorf("embedded content = %+v", r.Content)
			}
		}},
		{"no_args", `{}`, false, wantText("raw-test 0.1 speaking 2025-11-25")},
		{"no_args", `{"x":1}`, true, wantText("invalid arguments")},
		{"fail", `{}`, true, wantText("failed on purpose")},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			r := callTool(t, s.lineClient, tt.tool, tt.args)
			if r.IsError != tt.isError {
				t.Errorf("isError = %v, want %v: %+v", r.IsError, tt.isError, r)
			}
			tt.check(t, r)
		})
	}

	r := s.roundTrip("tools/call", `{"name":"crash_rpc","arguments":{"code":-32042}}`)
	if r.Error == nil || r.Error.Code != -32042 || !strings.Contains(string(r.Error.Data), "crash_rpc") {
		t.Errorf("crash_rpc answered %s, want a JSON-RPC error -32042", r.raw)
	}
	if !strings.Contains(s.stderr.String(), "demo: tools/call echo\n") {
		t.Errorf("stderr lacks the tools/call line:\n%s", s.stderr)
	}
}

func wantText(sub string) func(*testing.T, toolResult) {
	return func(t *testing.T, r toolResult) {
		t.Helper()
		if !strings.Contains(r.text(), sub) {
			t.Errorf("text %q does not contain %q", r.text(), sub)
		}
	}
}

func wantBlock(typ, mime, magic string) func(*testing.T, toolResult) {
	return func(t *testing.T, r toolResult) {
		t.Helper()
		for _, c := range r.Content {
			if c.Type != typ {
				continue
			}
			data, err := base64.StdEncoding.DecodeString(c.Data)
			if err != nil || c.MIMEType != mime || !strings.HasPrefix(string(data), magic) {
				t.Errorf("%s block: mime %q, data %.8q, err %v", typ, c.MIMEType, data, err)
			}
			return
		}
		t.Errorf("no %s block in %+v", typ, r.Content)
	}
}

func checkWeather(t *testing.T, r toolResult) {
	t.Helper()
	out, err := compileSchema("test:weather-output", schemaGetWeatherOutput)
	if err != nil {
		t.Fatal(err)
	}
	if err := validate(out, r.StructuredContent); err != nil {
		t.Errorf("structuredContent %s does not match the output schema: %v", r.StructuredContent, err)
	}
	if !strings.Contains(r.text(), `"city":"Lisbon"`) {
		t.Errorf("text content %q should carry the JSON too", r.text())
	}
}

func TestStatefulNotifications(t *testing.T) {
	s := startStdio(t)
	initialize(t, s.lineClient, "2025-11-25", fullCaps)

	t.Run("progress", func(t *testing.T) {
		id := s.call("tools/call", `{"name":"slow","arguments":{"seconds":0.03,"steps":3},"_meta":{"progressToken":"tok-1"}}`)
		for step := 1; step <= 3; step++ {
			n := s.notification("notifications/progress")
			if want := fmt.Sprintf(`"progress":%d,"total":3`, step); !strings.Contains(n.raw, want) || !strings.Contains(n.raw, `"progressToken":"tok-1"`) {
				t.Errorf("progress %d: %s", step, n.raw)
			}
		}
		var r toolResult
		s.response(id).result(t, &r)
		if !strings.Contains(r.text(), "reported progress 3 times") {
			t.Errorf("slow: %q", r.text())
		}
	})

	t.Run("cancel", func(t *testing.T) {
		id := s.call("tools/call", `{"name":"slow","arguments":{"seconds":60,"steps":2}}`)
		// The progress subtest called slow once already; wait until this
		// call is running so that the cancellation interrupts it.
		s.stderr.waitForCount(t, "demo: tools/call slow\n", 2)
		s.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d,"reason":"test"}}`, id))
		s.stderr.waitFor(t, "slow cancelled after 0 of 2 steps")
	})

	t.Run("logging", func(t *testing.T) {
		s.roundTrip("logging/setLevel", `{"level":"error"}`)
		callTool(t, s.lineClient, "log", `{"message":"m"}`)
		for _, level := range []string{"error", "critical", "alert", "emergency"} {
			n := s.notification("notifications/message")
			if !strings.Contains(n.raw, `"level":"`+level+`"`) || !strings.Contains(n.raw, `"logger":"demo"`) {
				t.Errorf("want %s message, got %s", level, n.raw)
			}
		}
		for _, m := range s.backlog {
			if m.Method == "notifications/message" {
				t.Errorf("message below the level was sent: %s", m.raw)
			}
		}
	})

	t.Run("list_changed", func(t *testing.T) {
		callTool(t, s.lineClient, "toggle_tools", `{}`)
		s.notification("notifications/tools/list_changed")
		r := callTool(t, s.lineClient, "bonus", `{}`)
		if !strings.Contains(r.text(), "bonus tool") {
			t.Errorf("bonus: %+v", r)
		}
		callTool(t, s.lineClient, "toggle_tools", `{"what":"all"}`)
		for _, m := range []string{"tools", "prompts", "resources"} {
			s.notification("notifications/" + m + "/list_changed")
		}
	})

	t.Run("resource_updated", func(t *testing.T) {
		s.roundTrip("resources/subscribe", `{"uri":"demo://counter"}`).result(t, &struct{}{})
		r := callTool(t, s.lineClient, "touch_resource", `{"note":"hello"}`)
		n := s.notification("notifications/resources/updated")
		if !strings.Contains(n.raw, `"uri":"demo://counter"`) || !strings.Contains(r.text(), "revision 1") {
			t.Errorf("updated: %s; result %q", n.raw, r.text())
		}
		var read struct{ Contents []content }
		s.roundTrip("resources/read", `{"uri":"demo://counter"}`).result(t, &read)
		if len(read.Contents) != 1 || !strings.Contains(read.Contents[0].Text, "revision 1: hello") {
			t.Errorf("counter = %+v", read.Contents)
		}
		if e := s.roundTrip("resources/subscribe", `{"uri":"demo://nope"}`).Error; e == nil {
			t.Errorf("subscribing to an unknown resource succeeded")
		}
	})
}

// TestStatefulClientInput drives the tools that need client input: in the
// stateful era the server sends its own requests and waits for the answers.
func TestStatefulClientInput(t *testing.T) {
	s := startStdio(t)
	initialize(t, s.lineClient, "2025-11-25", fullCaps)

	t.Run("ask_user", func(t *testing.T) {
		id := s.call("tools/call", `{"name":"ask_user","arguments":{}}`)
		req := s.request("elicitation/create")
		if !strings.Contains(req.raw, `"mode":"form"`) || !strings.Contains(req.raw, `"oneOf":[{"const":"vim","title":"Vim"}`) {
			t.Errorf("elicitation request: %s", req.raw)
		}
		s.reply(req, `{"action":"accept","content":{"name":"Ada","age":36,"newsletter":true,"color":"blue","editor":"vim"}}`)
		var r toolResult
		s.response(id).result(t, &r)
		if !strings.Contains(r.text(), "Thanks, Ada!") {
			t.Errorf("ask_user: %q", r.text())
		}

		id = s.call("tools/call", `{"name":"ask_user","arguments":{}}`)
		s.reply(s.request("elicitation/create"), `{"action":"decline"}`)
		s.response(id).result(t, &r)
		if !strings.Contains(r.text(), "declined") {
			t.Errorf("ask_user declined: %q", r.text())
		}
	})

	t.Run("ask_url", func(t *testing.T) {
		id := s.call("tools/call", `{"name":"ask_url","arguments":{}}`)
		req := s.request("elicitation/create")
		var p struct{ Mode, URL, ElicitationID string }
		json.Unmarshal(req.Params, &p)
		if p.Mode != "url" || p.ElicitationID == "" || !strings.HasSuffix(p.URL, p.ElicitationID) {
			t.Errorf("url elicitation: %s", req.raw)
		}
		s.reply(req, `{"action":"accept"}`)
		n := s.notification("notifications/elicitation/complete")
		if !strings.Contains(n.raw, p.ElicitationID) {
			t.Errorf("complete notification %s lacks %s", n.raw, p.ElicitationID)
		}
		var r toolResult
		s.response(id).result(t, &r)
		if !strings.Contains(r.text(), "complete") {
			t.Errorf("ask_url: %q", r.text())
		}
	})

	t.Run("summarize", func(t *testing.T) {
		id := s.call("tools/call", `{"name":"summarize","arguments":{"text":"Long text.","max_tokens":50}}`)
		req := s.request("sampling/createMessage")
		if !strings.Contains(req.raw, `"maxTokens":50`) || !strings.Contains(req.raw, "Long text.") {
			t.Errorf("sampling request: %s", req.raw)
		}
		s.reply(req, `{"role":"assistant","content":{"type":"text","text":"Short."},"model":"test-model","stopReason":"endTurn"}`)
		var r toolResult
		s.response(id).result(t, &r)
		if !strings.Contains(r.text(), "Summary by test-model") || !strings.Contains(r.text(), "Short.") {
			t.Errorf("summarize: %q", r.text())
		}
	})

	t.Run("list_roots", func(t *testing.T) {
		id := s.call("tools/call", `{"name":"list_roots","arguments":{}}`)
		s.reply(s.request("roots/list"), `{"roots":[{"uri":"file:///work/project","name":"project"}]}`)
		var r toolResult
		s.response(id).result(t, &r)
		if !strings.Contains(r.text(), "- project: file:///work/project") {
			t.Errorf("list_roots: %q", r.text())
		}
	})

	t.Run("missing capabilities", func(t *testing.T) {
		bare := startStdio(t)
		initialize(t, bare.lineClient, "2025-11-25", `{}`)
		for _, tool := range []string{"ask_user", "ask_url", "summarize", "list_roots"} {
			r := callTool(t, bare.lineClient, tool, `{}`)
			if !r.IsError || !strings.Contains(r.text(), "did not declare") {
				t.Errorf("%s without the capability: %+v", tool, r)
			}
		}
	})
}
