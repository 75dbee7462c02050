package cli

import (
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/kong"
)

// TestServerArgs: the view's "copy as command" gets the server selection as the command
// line gave it, flags at their defaults left out, the command after --, and what curl
// needs from the spec.
func TestServerArgs(t *testing.T) {
	f := ServerFlags{URL: "https://example.test/mcp", Header: []string{"X-Api-Key: k3y-value"}, Bearer: "tok",
		Protocol: "2025-11-25", Timeout: 60 * time.Second, Elicitation: "form,url", NoListen: true}
	sp, err := f.spec(nil)
	if err != nil {
		t.Fatal(err)
	}
	a := f.serverArgs(nil, sp)
	want := "--url https://example.test/mcp -H X-Api-Key: k3y-value --bearer tok --protocol 2025-11-25 --no-listen"
	if got := strings.Join(a.Flags, " "); got != want {
		t.Errorf("flags\n got %s\nwant %s", got, want)
	}
	if a.URL != "https://example.test/mcp" || a.Bearer != "tok" || !slices.Contains(a.Headers, "X-Api-Key: k3y-value") {
		t.Errorf("curl's part: %+v", a)
	}

	g := ServerFlags{Env: []string{"A=1"}, Protocol: "auto", Timeout: 5 * time.Second, Elicitation: "form,url"}
	sp, err = g.spec([]string{"node", "server.js"})
	if err != nil {
		t.Fatal(err)
	}
	a = g.serverArgs([]string{"node", "server.js"}, sp)
	if got := strings.Join(a.Flags, " "); got != "-e A=1 --timeout 5s" || !slices.Equal(a.Command, []string{"node", "server.js"}) || a.URL != "" {
		t.Errorf("stdio: %+v", a)
	}
}

// TestServerArgsParseBack: the flags "copy as command" gives parse back to the same server
// selection, values that start with "-" (a token may) included.
func TestServerArgsParseBack(t *testing.T) {
	f := ServerFlags{URL: "https://example.test/mcp", Header: []string{"X-Api-Key: -k3y", "Accept: */*"}, Bearer: "-5Mv5tJyBQOXVRJZ",
		Env: []string{"-ODD=1"}, AuthFlags: AuthFlags{Scope: "-s"}, Protocol: "auto", Timeout: 60 * time.Second, Elicitation: "form,url"}
	sp, err := f.spec(nil)
	if err != nil {
		t.Fatal(err)
	}
	args := f.serverArgs(nil, sp).Flags
	var c CLI
	parser, err := kong.New(&c, kong.Name("mcpscope"), kong.Writers(io.Discard, io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.Parse(append(slices.Clone(args), "list", "tools")); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	g := c.ServerFlags
	if g.URL != f.URL || g.Bearer != f.Bearer || g.Scope != f.Scope || !slices.Equal(g.Header, f.Header) || !slices.Equal(g.Env, f.Env) {
		t.Errorf("%q parsed back as url %q bearer %q scope %q headers %q env %q", args, g.URL, g.Bearer, g.Scope, g.Header, g.Env)
	}
}
