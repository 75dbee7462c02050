package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"strings"
)

// Nesting: valid JSON nested far deeper than decoders allow.
//
//	deepnest     answers with a result whose structuredContent holds arrays nested
//	             `depth` levels deep (default 100000): {"deep":[[[...]]]}
//	-deep-list N tools/list also lists a tool "deeplist" whose inputSchema nests N levels
//	             deep
var deepList = flag.Int("deep-list", 0, "list a tool whose inputSchema nests this many levels deep")

func init() {
	register("deepnest", "answers with a result nested args.depth levels deep (default 100000)", deepnest)
	prev := listHook
	listHook = func(frame []byte) []byte {
		if prev != nil {
			frame = prev(frame)
		}
		if *deepList <= 0 {
			return frame
		}
		// Spliced in by hand: encoding/json refuses to write JSON this deep.
		tool := `{"name":"deeplist","description":"its inputSchema nests very deeply","inputSchema":` +
			`{"type":"object","properties":{"deep":{"default":` + nested(*deepList) + `}}}},`
		return bytes.Replace(frame, []byte(`"tools":[`), []byte(`"tools":[`+tool), 1)
	}
}

// nested is depth empty arrays, one inside the other.
func nested(depth int) string { return strings.Repeat("[", depth) + strings.Repeat("]", depth) }

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
	b.WriteString(nested(a.Depth))
	b.WriteString(`}}}`)
	write([]byte(b.String()))
}
