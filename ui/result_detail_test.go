package ui

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/ui/explorer"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// TestDetailResultSection shows a tools/call response by content type above its JSON in
// the detail pane, with the tool's outputSchema from the explorer; other responses get no
// such section.
func TestDetailResultSection(t *testing.T) {
	h := traffic.NewHistory(0)
	weather := strings.Join(strings.Fields(string(readResult(t, "get_weather.json"))), " ")
	_, resp := dtExchange(t, h, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Paris"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":`+weather+`}`)
	d := dtDetail(pairSideBySide-1, 200) // one frame at a time: the section is on its own lines
	d.results = func() explorer.ResultEnv { return explorer.ResultEnv{OutputSchema: demoOutputSchemas(t)} }
	dtDrain(d, d.SetEntry(resp))
	text := dtText(d)
	res, js := strings.Index(text, "Result\n"), strings.LastIndex(text, "pretty JSON") // the response's
	if res < 0 || js < res || !strings.Contains(text, "✓ matches the tool's outputSchema") {
		t.Fatalf("no result section above the JSON:\n%s", text)
	}
	_, other := dtExchange(t, traffic.NewHistory(0), `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`)
	dtDrain(d, d.SetEntry(other))
	if strings.Contains(dtText(d), "Result\n") {
		t.Errorf("a tools/list response got a result section:\n%s", dtText(d))
	}
}

// TestDetailResultSectionBounded: the detail pane lays out at most explorer.ResultInline bytes of a
// result held whole (it does so in Update) and says how much more there is.
func TestDetailResultSectionBounded(t *testing.T) {
	result := bigToolResult(t, 512<<10)
	_, resp := dtExchange(t, traffic.NewHistory(0), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":1,"result":`+string(result)+`}`)
	d := dtDetail(pairSideBySide-1, 200)
	lines := d.resultSection(resp, 100)
	text := ansi.Strip(strings.Join(lines, "\n"))
	if !strings.Contains(text, "line 0000001: the quick") || !strings.Contains(text, "KB more") {
		t.Fatalf("the section is not the head of the text with a note:\n%.400s", text)
	}
	if n := len(text); n > explorer.ResultInline+explorer.ResultInline/2 {
		t.Errorf("the section holds %d bytes of text for a %d-byte result", n, len(result))
	}
}

// TestLineWidthsBounded: the pair layout does not pretty-print a body larger than the
// detail shows to measure it: such a body fits no column.
func TestLineWidthsBounded(t *testing.T) {
	big := bigToolResult(t, maxBodyBytes)
	if got := lineWidths(big, false); len(got) != 1 || got[0] != math.MaxInt {
		t.Errorf("a %d-byte body was measured: %d widths", len(big), len(got))
	}
	if got := lineWidths([]byte(`{"a":1}`), false); slices.Max(got) != len(`  "a": 1`) {
		t.Errorf("a small body's widths %v", got)
	}
}

// The results under testdata/results were captured from the demo server with the headless
// CLI (mcpscope call image -- mcpscope demo, and so on); tools.json is its tools list.

func readResult(t *testing.T, name string) json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "results", name))
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

// bigToolResult is a tools/call result of one text block of about n bytes of numbered
// lines, as the badserver's bigtext tool sends.
func bigToolResult(tb testing.TB, n int) json.RawMessage {
	tb.Helper()
	var b strings.Builder
	b.Grow(n + 128)
	for i := 1; b.Len() < n; i++ {
		fmt.Fprintf(&b, "line %07d: the quick brown fox jumps over the lazy dog, again and again.\n", i)
	}
	raw, err := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": b.String()}}})
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}
