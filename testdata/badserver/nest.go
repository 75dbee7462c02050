package main

import (
	"encoding/json"
	"strings"
)

// Nesting: a tool whose answer is valid JSON nested far deeper than decoders allow.
//
//	deepnest  answers with a result whose content item's text field is replaced by arrays
//	          nested `depth` levels deep (default 100000), e.g. "structuredContent":[[[...]]]
func init() {
	register("deepnest", "answers with a result nested args.depth levels deep (default 100000)", deepnest)
}

func deepnest(req request, raw json.RawMessage) {
	var a struct {
		Depth int `json:"depth"`
	}
	json.Unmarshal(raw, &a)
	if a.Depth <= 0 {
		a.Depth = 100000
	}
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(req.ID)
	b.WriteString(`,"result":{"content":[{"type":"text","text":"nested"}],"structuredContent":{"deep":`)
	b.WriteString(strings.Repeat("[", a.Depth))
	b.WriteString(strings.Repeat("]", a.Depth))
	b.WriteString(`}}}`)
	write([]byte(b.String()))
}
