// Command appserver is an MCP server over stdio with MCP Apps (io.modelcontextprotocol/ui):
// tools that link to ui:// resources, an app-only tool, and, unless -clean is given, one
// tool or resource for each way the extension can be broken: a resourceUri that resources/read
// does not resolve, one that is not ui://, the deprecated flat key, an unknown visibility, a
// wrong MIME type, content with neither text nor blob, a page that is not HTML5, a page that
// loads and connects to origins its CSP does not declare. With -clean it is the twin with
// none of them. A client that does not declare the extension gets a text-only tool list (the
// spec lets a server register other tools then). With -big the clean page is padded to 4 MiB.
//
// It answers initialize (2025-06-18), ping, the four lists, tools/call and resources/read,
// and exits when stdin closes.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"maps"
	"os"
	"slices"
	"strings"
)

const mime = "text/html;profile=mcp-app"

// cleanPage loads a script from a CDN and fetches from an API, both declared in its CSP.
const cleanPage = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Clean app</title>
<script src="https://cdn.example.com/app.js"></script>
<style>body{font-family:sans-serif}</style></head>
<body><div id="out"></div>
<script>fetch("https://api.example.com/data").then(r => r.json());</script>
</body></html>`

var cleanCSP = map[string]any{"csp": map[string]any{
	"resourceDomains": []string{"https://cdn.example.com"},
	"connectDomains":  []string{"https://api.example.com"},
}, "permissions": map[string]any{"clipboardWrite": map[string]any{}}, "domain": "apps.example.com", "prefersBorder": true}

// page is one ui:// resource as resources/read answers it.
type page struct {
	listed  bool
	content map[string]any
}

func pages(clean, big bool) map[string]page {
	body := cleanPage
	if big {
		body = strings.Replace(cleanPage, "</body>", "<!--"+strings.Repeat("x", 4<<20)+"--></body>", 1)
	}
	p := map[string]page{
		// Not listed: the spec lets a server leave UI-only resources out of resources/list.
		"ui://appserver/clean": {listed: false, content: map[string]any{"mimeType": mime, "text": body, "_meta": map[string]any{"ui": cleanCSP}}},
	}
	if clean {
		return p
	}
	p["ui://appserver/mime"] = page{listed: true, content: map[string]any{"mimeType": "text/html", "text": cleanPage, "_meta": map[string]any{"ui": cleanCSP}}}
	p["ui://appserver/empty"] = page{listed: true, content: map[string]any{"mimeType": mime, "_meta": map[string]any{"ui": cleanCSP}}}
	p["ui://appserver/quirks"] = page{listed: true, content: map[string]any{"mimeType": mime, "text": "<html><body>no doctype</body></html>"}}
	p["ui://appserver/csp"] = page{listed: true, content: map[string]any{"mimeType": mime,
		"text": `<!DOCTYPE html><html><head><title>Leaky</title><script src="https://cdn.undeclared.example/x.js"></script></head>` +
			`<body><script>new WebSocket("wss://live.undeclared.example/feed")</script></body></html>`}}
	p["ui://appserver/eval"] = page{listed: true, content: map[string]any{"mimeType": mime, "_meta": map[string]any{"ui": cleanCSP},
		"text": `<!DOCTYPE html><html><head><title>Evals</title></head><body><script>const twice = new Function("x", "return 2*x")</script></body></html>`}}
	return p
}

func tool(name, desc string, ui map[string]any, flat string) map[string]any {
	t := map[string]any{"name": name, "description": desc, "inputSchema": map[string]any{"type": "object"}}
	meta := map[string]any{}
	if ui != nil {
		meta["ui"] = ui
	}
	if flat != "" {
		meta["ui/resourceUri"] = flat
	}
	if len(meta) > 0 {
		t["_meta"] = meta
	}
	return t
}

func tools(clean, apps bool) []map[string]any {
	if !apps {
		return []map[string]any{tool("show", "Shows the data as text.", nil, "")}
	}
	ts := []map[string]any{
		tool("show", "Shows the data in an app.", map[string]any{"resourceUri": "ui://appserver/clean"}, ""),
		tool("refresh", "Refreshes the app's data; for the app only.", map[string]any{"resourceUri": "ui://appserver/clean", "visibility": []string{"app"}}, ""),
	}
	if clean {
		return ts
	}
	return append(ts,
		tool("missing", "Links to a resource that does not exist.", map[string]any{"resourceUri": "ui://appserver/missing"}, ""),
		tool("http", "Links to an https URL.", map[string]any{"resourceUri": "https://apps.example.com/page"}, ""),
		tool("flat", "Uses the deprecated flat key.", nil, "ui://appserver/clean"),
		tool("agent", "Names an unknown visibility.", map[string]any{"resourceUri": "ui://appserver/clean", "visibility": []string{"model", "agent"}}, ""),
		tool("mime", "Links to a page with the wrong MIME type.", map[string]any{"resourceUri": "ui://appserver/mime"}, ""),
		tool("empty", "Links to a page with no text or blob.", map[string]any{"resourceUri": "ui://appserver/empty"}, ""),
		tool("quirks", "Links to a page that is not HTML5.", map[string]any{"resourceUri": "ui://appserver/quirks"}, ""),
		tool("leaky", "Links to a page that uses undeclared origins.", map[string]any{"resourceUri": "ui://appserver/csp"}, ""),
	)
}

func main() {
	clean := flag.Bool("clean", false, "serve the twin with no broken case")
	big := flag.Bool("big", false, "pad the clean page to 4 MiB")
	flag.Parse()
	ps := pages(*clean, *big)
	apps := false
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name string `json:"name"`
				URI  string `json:"uri"`
				Caps struct {
					Extensions map[string]json.RawMessage `json:"extensions"`
				} `json:"capabilities"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue
		}
		var result any
		switch req.Method {
		case "initialize":
			_, apps = req.Params.Caps.Extensions["io.modelcontextprotocol/ui"]
			result = map[string]any{
				"protocolVersion": "2025-06-18",
				"capabilities": map[string]any{"tools": map[string]any{}, "resources": map[string]any{},
					"extensions": map[string]any{"io.modelcontextprotocol/ui": map[string]any{}}},
				"serverInfo": map[string]any{"name": "appserver", "version": "1.0.0"},
			}
		case "ping":
			result = map[string]any{}
		case "tools/list":
			result = map[string]any{"tools": tools(*clean, apps)}
		case "prompts/list":
			result = map[string]any{"prompts": []any{}}
		case "resources/list":
			list := []map[string]any{}
			for _, uri := range slices.Sorted(maps.Keys(ps)) {
				if p := ps[uri]; p.listed {
					list = append(list, map[string]any{"uri": uri, "name": strings.TrimPrefix(uri, "ui://appserver/"), "mimeType": p.content["mimeType"]})
				}
			}
			result = map[string]any{"resources": list}
		case "resources/templates/list":
			result = map[string]any{"resourceTemplates": []any{}}
		case "tools/call":
			if !slices.ContainsFunc(tools(*clean, apps), func(t map[string]any) bool { return t["name"] == req.Params.Name }) {
				write(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32602, "message": "no such tool"}})
				continue
			}
			result = map[string]any{"content": []map[string]any{{"type": "text", "text": "data: 42"}}, "structuredContent": map[string]any{"value": 42}}
		case "resources/read":
			p, ok := ps[req.Params.URI]
			if req.Params.URI == "" {
				write(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32602, "message": "uri is required"}})
				continue
			}
			if !ok {
				write(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32002, "message": "resource not found", "data": map[string]any{"uri": req.Params.URI}}})
				continue
			}
			c := map[string]any{"uri": req.Params.URI}
			for k, v := range p.content {
				c[k] = v
			}
			result = map[string]any{"contents": []map[string]any{c}}
		default:
			write(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "method not found: " + req.Method}})
			continue
		}
		write(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	}
}

func write(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	os.Stdout.Write(append(b, '\n'))
}
