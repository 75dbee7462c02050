// Command changedserver is the built-in demo server over stdio with one behaviour changed:
// the echo tool appends " (changed)" to its text. Tests record a session against the demo
// and replay it against this server to see the difference reported.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/session/demo"
)

func main() {
	srv := demo.New(demo.Options{Logger: os.Stderr})
	srv.AddReceivingMiddleware(changeEcho)
	t := &mcp.IOTransport{Reader: os.Stdin, Writer: os.Stdout}
	if err := srv.Run(context.Background(), t); err != nil && !errors.Is(err, io.EOF) {
		fmt.Fprintln(os.Stderr, "changedserver:", err)
	}
}

// changeEcho alters the echo tool's answer.
func changeEcho(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if method != "tools/call" || err != nil {
			return res, err
		}
		call, ok := req.(*mcp.CallToolRequest)
		if !ok || call.Params.Name != "echo" {
			return res, err
		}
		if r, ok := res.(*mcp.CallToolResult); ok && len(r.Content) > 0 {
			if tc, ok := r.Content[0].(*mcp.TextContent); ok {
				tc.Text += " (changed)"
			}
		}
		return res, err
	}
}
