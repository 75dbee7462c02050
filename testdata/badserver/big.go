package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
)

// Large answers that are valid MCP, for how the inspector copes with megabytes:
//
//	bigtext      a text result of -big-size bytes (20 MiB), in lines of about 80 bytes
//
// With -resources the server also declares resources and offers one, ui://big/page.html
// (text/html;profile=mcp-app), whose read answers -big-resource-size bytes (4 MiB) of HTML.

var (
	bigSize     = flag.Int("big-size", 20<<20, "size in bytes of the bigtext tool's text")
	resources   = flag.Bool("resources", false, "declare resources and offer ui://big/page.html")
	bigResource = flag.Int("big-resource-size", 4<<20, "size in bytes of ui://big/page.html")
)

// bigPage is the resource -resources offers.
const bigPage = "ui://big/page.html"

func init() {
	register("bigtext", "answers with a text of many lines (-big-size bytes)", func(req request, _ json.RawMessage) {
		write(resultFrame(req.ID, textResult(bigLines(*bigSize, "line %07d: the quick brown fox jumps over the lazy dog, again and again.\n"))))
	})
	capsHook = func(caps map[string]any) {
		if *resources {
			caps["resources"] = map[string]any{}
		}
	}
	methods["resources/list"] = func(req request) {
		write(resultFrame(req.ID, map[string]any{"resources": []any{map[string]any{
			"uri": bigPage, "name": "page.html", "mimeType": "text/html;profile=mcp-app", "size": *bigResource,
		}}}))
	}
	methods["resources/read"] = func(req request) {
		var p struct {
			URI string `json:"uri"`
		}
		json.Unmarshal(req.Params, &p)
		if p.URI != bigPage {
			write(errorFrame(req.ID, -32002, "resource not found: "+p.URI))
			return
		}
		html := "<!doctype html>\n<html><body>\n" + bigLines(*bigResource-40, "<p id=\"p%07d\">a paragraph of the big page, long enough to wrap.</p>\n") + "</body></html>\n"
		write(htmlFrame(req.ID, map[string]any{"contents": []any{map[string]any{
			"uri": bigPage, "mimeType": "text/html;profile=mcp-app", "text": html,
		}}}))
	}
	methods["resources/templates/list"] = func(req request) {
		write(resultFrame(req.ID, map[string]any{"resourceTemplates": []any{}}))
	}
}

// htmlFrame is resultFrame without HTML's characters escaped, so a page's size on the wire
// is its size.
func htmlFrame(id json.RawMessage, result any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"jsonrpc": "2.0", "id": id, "result": result}); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// bigLines is about size bytes of numbered lines made from format (one %d).
func bigLines(size int, format string) string {
	var b strings.Builder
	b.Grow(size + 128)
	for i := 1; b.Len() < size; i++ {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}
