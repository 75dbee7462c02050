package apps

import (
	"strings"
	"testing"
)

// BenchmarkSummarizeHTML sums up a 4 MiB page (the size of real apps' single-file bundles):
// one pass, so a check or the explorer's layout command pays milliseconds, not seconds.
func BenchmarkSummarizeHTML(b *testing.B) {
	script := `<script>fetch("https://api.example.com/x");const a=` + strings.Repeat(`"abcdefghij",`, 1000) + `0;</script>`
	doc := []byte(page + strings.Repeat(script+`<div style="background:url(https://img.example/a.png)">text</div>`, 300))
	for len(doc) < 4<<20 {
		doc = append(doc, doc[:len(doc)/2]...)
	}
	doc = doc[:4<<20]
	b.SetBytes(int64(len(doc)))
	b.ResetTimer()
	for b.Loop() {
		s := SummarizeHTML(doc)
		if len(s.Origins) == 0 {
			b.Fatal("no origins")
		}
	}
}
