// Command cardserver is a small MCP server with a server card that disagrees with it, for
// the tests of mcpscope card and check. It is written from the Server Cards extension's
// schema alone and shares no code with mcpscope.
//
// It listens on 127.0.0.1 (any free port), prints its Streamable HTTP URL on stdout and
// serves until stdin closes:
//
//   - /mcp: the server, "weather" version 2.0.0, one tool;
//   - /mcp/server-card: card.json, as application/json (not the card's media type). The
//     card is wrong on purpose: version 1.9.0, a remote at https://weather.example.com/mcp
//     rather than this server, and no description (which the schema requires).
package main

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

//go:embed card.json
var card []byte

type forecastArgs struct {
	City string `json:"city" jsonschema:"the city"`
}

func main() {
	srv := mcp.NewServer(&mcp.Implementation{Name: "weather", Title: "Weather", Version: "2.0.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "forecast", Description: "Tomorrow's weather in a city."},
		func(ctx context.Context, req *mcp.CallToolRequest, args forecastArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "sunny in " + args.City}}}, nil, nil
		})
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	mux.HandleFunc("GET /mcp/server-card", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(card)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "cardserver:", err)
		os.Exit(1)
	}
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	go func() { _ = http.Serve(ln, mux) }()
	_, _ = io.Copy(io.Discard, os.Stdin) // until the test closes stdin
}
