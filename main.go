// Command mcpscope is an interactive inspector and debugger for MCP servers.
package main

import (
	"os"

	"github.com/mcpscope/mcpscope/ui/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
