// Command onelinereq prints one line, as testdata/oneline does, with only the libraries
// mcpscope is required to use linked in and initialised but unused: Bubble Tea, Lip Gloss,
// Bubbles (a text input), chroma, the go-sdk's server, the JSON Schema validator
// (santhosh-tekuri/jsonschema, which compiles its meta-schemas in init), and net/http. It is the floor no
// build of mcpscope can go under while it keeps them (BenchmarkStartup reports it beside
// oneline and onelinedeps).
package main

import (
	"fmt"
	_ "net/http"

	_ "charm.land/bubbles/v2/textinput"
	_ "charm.land/bubbletea/v2"
	_ "charm.land/lipgloss/v2"
	_ "github.com/alecthomas/chroma/v2"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
)

func main() { fmt.Println("onelinereq 0.1.0") }
