package explorer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/ui/internal/common"
)

// The results under ui/testdata/results were captured from the demo server with the headless
// CLI (mcpscope call image -- mcpscope demo, and so on); tools.json is its tools list.

func readResult(t *testing.T, name string) json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "results", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// demoOutputSchemas returns the outputSchema lookup of the demo's tools list.
func demoOutputSchemas(t *testing.T) func(string) json.RawMessage {
	var tools []struct {
		Name         string          `json:"name"`
		OutputSchema json.RawMessage `json:"outputSchema"`
	}
	if err := json.Unmarshal(readResult(t, "tools.json"), &tools); err != nil {
		t.Fatal(err)
	}
	return func(name string) json.RawMessage {
		for _, tl := range tools {
			if tl.Name == name {
				return tl.OutputSchema
			}
		}
		return nil
	}
}

// TestRenderResult renders real results by content type.
func TestRenderResult(t *testing.T) {
	weather := readResult(t, "get_weather.json")
	badWeather := strings.Replace(string(weather), `"temperature": 21`, `"temperature": "warm"`, 1)
	if badWeather == string(weather) {
		t.Fatal("the weather fixture changed: no temperature 21 to spoil")
	}
	unknown := strings.Replace(string(readResult(t, "image.json")), `"type": "image"`, `"type": "hologram"`, 1)
	cases := []struct {
		name, method, tool string
		result             json.RawMessage
		want, not          []string
		media, links       int
		toolErr            bool
		findings           int
	}{
		{name: "empty text", method: methodToolsCall, tool: "echo", result: json.RawMessage(`{"content":[{"type":"text","text":""}]}`),
			want: []string{"(empty text)"}},
		{name: "image", method: methodToolsCall, tool: "image", result: readResult(t, "image.json"),
			want: []string{"A generated PNG:", "[image] image/png · 64×64 px PNG", "b saves it"}, media: 1},
		{name: "audio", method: methodToolsCall, tool: "audio", result: readResult(t, "audio.json"),
			want: []string{"[audio] audio/wav", "KB", "b saves it"}, not: []string{"px"}, media: 1},
		{name: "links", method: methodToolsCall, tool: "links", result: readResult(t, "links.json"),
			want: []string{"[link] Read me demo://readme · text/markdown · 383 B · F follows it", "demo://logo.png"}, links: 5},
		{name: "embedded", method: methodToolsCall, tool: "embedded", result: readResult(t, "embedded.json"),
			want: []string{"[embedded resource]", "demo://readme · text/markdown", "# mcpscope demo server", "demo://logo.png · image/png · blob", "px PNG"}, media: 1},
		{name: "structured", method: methodToolsCall, tool: "get_weather", result: weather,
			want: []string{"Structured content", `"city": "Paris"`, "✓ matches the tool's outputSchema"}},
		{name: "structured mismatch", method: methodToolsCall, tool: "get_weather", result: json.RawMessage(badWeather),
			want: []string{"does not match the tool's outputSchema", "/temperature"}, findings: 1},
		{name: "tool error", method: methodToolsCall, tool: "fail", result: readResult(t, "fail.json"),
			want: []string{"✗ tool error", "not a JSON-RPC error", "The demo tool failed on purpose."}, toolErr: true},
		{name: "unknown content", method: methodToolsCall, tool: "image", result: json.RawMessage(unknown),
			want: []string{`unknown type "hologram"`, "negotiated revision", `"type": "hologram"`, `"mimeType": "image/png"`}, findings: 1},
		{name: "prompt", method: methodPromptsGet, result: readResult(t, "prompt_showcase.json"),
			want: []string{"A conversation about MCP", "user ›", "assistant ›", "[image] image/png", "[embedded resource]", "[link]"}, media: 1, links: 1},
		{name: "read blob", method: methodResourcesRead, result: readResult(t, "read_logo.json"),
			want: []string{"demo://logo.png · image/png · blob", "64×64 px"}, media: 1},
		{name: "read text", method: methodResourcesRead, result: readResult(t, "read_readme.json"),
			want: []string{"demo://readme · text/markdown", "# mcpscope demo server"}},
		{name: "read text/plain blob", method: methodResourcesRead,
			result: json.RawMessage(`{"contents":[{"uri":"file:///notes.txt","mimeType":"text/plain; charset=utf-8","blob":"aGVsbG8gZnJvbSBhIGJsb2IKc2Vjb25kIGxpbmU="}]}`),
			want:   []string{"file:///notes.txt · text/plain; charset=utf-8 · blob 29 B", "hello from a blob", "second line"}, media: 1},
		{name: "read binary blob", method: methodResourcesRead,
			result: json.RawMessage(`{"contents":[{"uri":"file:///x.bin","mimeType":"text/plain","blob":"//4gbm90IHV0Zi04"},{"uri":"file:///y.bin","mimeType":"application/octet-stream","blob":"aGVsbG8gZnJvbSBhIGJsb2IKc2Vjb25kIGxpbmU="}]}`),
			want:   []string{"file:///x.bin · text/plain · blob", "file:///y.bin · application/octet-stream · blob"}, not: []string{"not utf-8", "hello from a blob"}, media: 2},
		{name: "not an object", method: methodToolsCall, result: json.RawMessage(`[1,2]`),
			want: []string{"not a JSON object", "1,"}, findings: 1},
		// An answer made at a breakpoint with the editor's template, sent as it was.
		{name: "no content", method: methodToolsCall, tool: "echo", result: json.RawMessage(`{}`),
			want: []string{"no content array", "as received:", "{}"}, findings: 1},
		{name: "empty other", method: methodPromptsGet, result: json.RawMessage(`{}`),
			want: []string{"as received:", "{}"}, findings: 1},
	}
	env := ResultEnv{OutputSchema: demoOutputSchemas(t), Revision: protocol.Rev20251125}
	s, k := common.NewStyles(true), common.DefaultKeyMap()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := RenderResult(s, k, c.method, c.tool, c.result, env, 100)
			text := squash(ansi.Strip(strings.Join(v.lines, "\n")))
			for _, w := range c.want {
				if !strings.Contains(text, squash(w)) {
					t.Errorf("lacks %q:\n%s", w, text)
				}
			}
			for _, w := range c.not {
				if strings.Contains(text, w) {
					t.Errorf("has %q:\n%s", w, text)
				}
			}
			if len(v.media) != c.media || len(v.links) != c.links || v.toolError != c.toolErr || v.findings != c.findings {
				t.Errorf("media %d links %d tool error %v findings %d; want %d %d %v %d", len(v.media), len(v.links),
					v.toolError, v.findings, c.media, c.links, c.toolErr, c.findings)
			}
			for _, l := range v.lines {
				if w := ansi.StringWidth(l); w > 100 {
					t.Errorf("line %d wide: %q", w, ansi.Strip(l))
				}
			}
		})
	}
}

// TestRenderResultRevision flags a content type the negotiated revision does not define.
func TestRenderResultRevision(t *testing.T) {
	env := ResultEnv{Revision: protocol.Rev20241105}
	v := RenderResult(common.NewStyles(true), common.DefaultKeyMap(), methodToolsCall, "audio", readResult(t, "audio.json"), env, 100)
	text := ansi.Strip(strings.Join(v.lines, "\n"))
	if v.findings != 1 || !strings.Contains(text, `"audio" content is not defined in 2024-11-05`) || !strings.Contains(text, "[audio]") {
		t.Errorf("findings %d:\n%s", v.findings, text)
	}
}

// TestMediaNames names saved parts by the tool or the resource, with the mime type's
// extension.
func TestMediaNames(t *testing.T) {
	env := ResultEnv{}
	s, k := common.NewStyles(true), common.DefaultKeyMap()
	for _, c := range []struct {
		method, tool, file, want string
	}{
		{methodToolsCall, "image", "image.json", "image.png"},
		{methodToolsCall, "audio", "audio.json", "audio.wav"},
		{methodResourcesRead, "", "read_logo.json", "logo.png"},
	} {
		v := RenderResult(s, k, c.method, c.tool, readResult(t, c.file), env, 80)
		if len(v.media) != 1 || v.media[0].name != c.want || len(v.media[0].data) == 0 {
			t.Errorf("%s: media %+v", c.file, v.media)
		}
	}
}

// TestTemplates parses and expands RFC 6570 templates.
func TestTemplates(t *testing.T) {
	vals := map[string]any{"topic": "mcp tools", "path": "a/b", "q": "x&y", "n": "3", "empty": ""}
	cases := []struct{ tmpl, want string }{
		{"demo://notes/{topic}", "demo://notes/mcp%20tools"},
		{"file:///{+path}", "file:///a/b"},
		{"demo://x{/path}", "demo://x/a%2Fb"},
		{"demo://s{?q,n}", "demo://s?q=x%26y&n=3"},
		{"demo://s{?q}{&n}", "demo://s?q=x%26y&n=3"},
		{"demo://s{?missing}", "demo://s"},
		{"demo://{empty}x", "demo://x"},
		{"demo://s{?empty}", "demo://s?empty="},
		{"demo://{topic:3}", "demo://mcp"},
		{"no variables", "no variables"},
	}
	for _, c := range cases {
		if got := expandTemplate(c.tmpl, vals); got != c.want {
			t.Errorf("%s: %q, want %q", c.tmpl, got, c.want)
		}
	}
	vars := templateVars("demo://{a}/{+b}{/a}{?c,d*}")
	var names []string
	for _, v := range vars {
		names = append(names, v.op+v.name)
	}
	if got := strings.Join(names, " "); got != "a +b ?c ?d" {
		t.Errorf("variables %q", got)
	}
	if got := string(templateSchema(vars)); !strings.Contains(got, `"required":["a","b"]`) || strings.Index(got, `"a"`) > strings.Index(got, `"b"`) {
		t.Errorf("schema %s", got)
	}
	ps := string(promptSchema([]promptArg{{Name: "z", Required: true}, {Name: "a", Title: "A"}}))
	if !strings.Contains(ps, `"required":["z"]`) || strings.Index(ps, `"z"`) > strings.Index(ps, `"a"`) {
		t.Errorf("prompt schema %s", ps)
	}
}

// TestRenderResultFlagged: a result whose frame was flagged (an answer made at a
// breakpoint without resultType) shows why, and what was received.
func TestRenderResultFlagged(t *testing.T) {
	s, k := common.NewStyles(true), common.DefaultKeyMap()
	env := ResultEnv{Revision: protocol.Rev20260728, Findings: []string{"result has no resultType"}}
	v := RenderResult(s, k, methodToolsCall, "echo", json.RawMessage(`{"content":[{"type":"text","text":""}]}`), env, 100)
	text := ansi.Strip(strings.Join(v.lines, "\n"))
	for _, want := range []string{"⚠ result has no resultType", "as received:", `"content": [`} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
	if v.findings != 1 {
		t.Errorf("findings %d", v.findings)
	}
}
