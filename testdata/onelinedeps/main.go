// Command onelinedeps prints one line, as testdata/oneline does, with the third-party
// packages mcpscope imports linked in and initialised but unused: the floor of a Go
// program of mcpscope's dependencies (BenchmarkStartup reports it beside oneline). The
// list is every module package outside the standard library that mcpscope's own packages
// import (go list -f '{{join .Imports "\n"}}' ./...), and net/http.
package main

import (
	"fmt"
	_ "net/http"

	_ "charm.land/bubbles/v2/help"
	_ "charm.land/bubbles/v2/key"
	_ "charm.land/bubbles/v2/textarea"
	_ "charm.land/bubbles/v2/textinput"
	_ "charm.land/bubbletea/v2"
	_ "charm.land/lipgloss/v2"
	_ "github.com/alecthomas/chroma/v2"
	_ "github.com/alecthomas/kong"
	_ "github.com/charmbracelet/x/ansi"
	_ "github.com/charmbracelet/x/term"
	_ "github.com/go-jose/go-jose/v4"
	_ "github.com/go-jose/go-jose/v4/jwt"
	_ "github.com/google/jsonschema-go/jsonschema"
	_ "github.com/modelcontextprotocol/go-sdk/auth"
	_ "github.com/modelcontextprotocol/go-sdk/jsonrpc"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/modelcontextprotocol/go-sdk/oauthex"
	_ "github.com/owenrumney/go-sarif/v2/sarif"
	_ "github.com/pkoukk/tiktoken-go"
	_ "github.com/pkoukk/tiktoken-go-loader"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
	_ "github.com/santhosh-tekuri/jsonschema/v6/kind"
	_ "github.com/zalando/go-keyring"
	_ "go.yaml.in/yaml/v3"
	_ "golang.org/x/net/html"
	_ "golang.org/x/oauth2"
	_ "golang.org/x/text/language"
	_ "golang.org/x/text/message"
)

func main() { fmt.Println("onelinedeps 0.1.0") }
