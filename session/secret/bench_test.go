package secret

import (
	"strings"
	"testing"
)

// benchScreen is about the size of a 160×48 screen with colour: 48 lines of 400 bytes.
var benchScreen = strings.Repeat(strings.Repeat(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"x"}]}} `, 5)+"\n", 48)

// BenchmarkMaskScreen is the last pass over every drawn screen: three given values, none
// present (the usual case).
func BenchmarkMaskScreen(b *testing.B) {
	m := New([]string{"SECRET-one-123456", "SECRET-two-123456", "SECRET-three-1234"}, false)
	b.SetBytes(int64(len(benchScreen)))
	for b.Loop() {
		_ = m.Values(benchScreen)
	}
}

// BenchmarkMaskFrame1KB masks a 1 KB frame by values and shapes, as a recording line is.
func BenchmarkMaskFrame1KB(b *testing.B) {
	m := New([]string{"SECRET-one-123456", "SECRET-two-123456"}, false)
	frame := benchScreen[:1024]
	b.SetBytes(int64(len(frame)))
	for b.Loop() {
		_ = m.String(frame)
	}
}

// BenchmarkMaskAppHTML masks a 1 MB frame that carries an app's HTML and script in one
// JSON string, with no secret in it: the shape of an MCP App's ui:// resource.
func BenchmarkMaskAppHTML(b *testing.B) {
	m := New([]string{"SECRET-one-123456", "SECRET-two-123456"}, false)
	js := `<script>function f(e){if(e.token==="box")return a.token=b.token;var api_key=abc123;return {password:e.password,url:"https://x/?q=1"}}</script>\n<div class=\"x\">` + "\u00e9</div>\n"
	frame := `{"jsonrpc":"2.0","id":3,"result":{"contents":[{"uri":"ui://app","mimeType":"text/html","text":"` +
		strings.Repeat(strings.ReplaceAll(js, `"`, `\"`), 1<<20/len(js)) + `"}]}}`
	b.SetBytes(int64(len(frame)))
	for b.Loop() {
		if got := m.String(frame); len(got) != len(frame) {
			b.Fatal("masked what is no secret")
		}
	}
}
