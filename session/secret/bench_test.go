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
