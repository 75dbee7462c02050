// Command oneshotfloor is the floor `mcpscope list tools --url` is measured against: the
// four HTTP requests a Streamable HTTP client cannot do without (initialize,
// notifications/initialized, tools/list, DELETE of the session), sent one after the other
// over one keep-alive connection, each response read whole, the tools/list result printed.
// Usage: oneshotfloor URL.
package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
)

func main() {
	url, c := os.Args[1], &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	sid := ""
	send := func(method, body string) []byte {
		req, _ := http.NewRequest(method, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
		}
		resp, err := c.Do(req)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer resp.Body.Close()
		if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
			sid = id
		}
		b, _ := io.ReadAll(resp.Body)
		return b
	}
	send("POST", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"floor","version":"1"}}}`)
	send("POST", `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	os.Stdout.Write(send("POST", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
	send("DELETE", "")
}
