package protocol

import (
	"encoding/json"
	"testing"
)

// toolsCallResult1KB is a typical tools/call result of about 1 KB: two text blocks,
// structured content and _meta.
var toolsCallResult1KB = []byte(`{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"Found 3 open issues in mcpscope/mcpscope matching \"decoder\":\n\n#118 Decoder drops unknown top-level members (opened 2 days ago by alice, labels: bug, protocol)\n#121 Show findings inline in the traffic list (opened yesterday by bob, labels: ui, enhancement)\n#124 Batch frames should expand into their members (opened 3 hours ago by carol, labels: ui)"},{"type":"text","text":"Tip: use \"state\": \"closed\" to include closed issues, or \"labels\" to filter. Results are sorted by last update, newest first.","annotations":{"audience":["user"],"priority":0.4}}],"structuredContent":{"total":3,"issues":[{"number":118,"title":"Decoder drops unknown top-level members","state":"open","labels":["bug","protocol"]},{"number":121,"title":"Show findings inline in the traffic list","state":"open","labels":["ui","enhancement"]},{"number":124,"title":"Batch frames should expand into their members","state":"open","labels":["ui"]}]},"isError":false,"_meta":{"io.example/requestTime":"2025-11-25T10:30:00Z","io.example/elapsedMs":87}}}`)

func BenchmarkDecode1KB(b *testing.B) {
	b.SetBytes(int64(len(toolsCallResult1KB)))
	b.ReportAllocs()
	for b.Loop() {
		f := Decode(toolsCallResult1KB)
		if f.Kind != KindResult {
			b.Fatal(f.Kind)
		}
	}
}

// BenchmarkUnmarshalMap1KB is the baseline Decode is measured against: encoding/json into
// a map of raw members.
func BenchmarkUnmarshalMap1KB(b *testing.B) {
	b.SetBytes(int64(len(toolsCallResult1KB)))
	b.ReportAllocs()
	for b.Loop() {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(toolsCallResult1KB, &m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeRequest(b *testing.B) {
	raw := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search_issues","arguments":{"query":"decoder","state":"open"},"_meta":{"progressToken":7}}}`)
	b.ReportAllocs()
	for b.Loop() {
		Decode(raw)
	}
}
