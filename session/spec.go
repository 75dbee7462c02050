package session

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/session/auth"
	"github.com/mcpscope/mcpscope/session/secret"
	"github.com/mcpscope/mcpscope/session/transport"
)

// ServerSpec is how to reach a server: a command to spawn or a URL. The headless CLI and the
// TUI build it from the same flags.
type ServerSpec struct {
	Name      string   // from a config file, for display
	Command   []string // argv for stdio
	Env       []string // KEY=VAL overrides
	Dir       string   // working directory for stdio
	URL       string
	Transport string // "stdio", "http", "sse", or "" to decide (URL: try http, fall back to sse)
	Headers   http.Header
	Bearer    string
	MaxLine   int64
	Grace     time.Duration // stdio: wait after closing stdin before SIGTERM (0 = transport default)
	// MaxRedirects bounds the redirects followed per HTTP request (0: the default, 10;
	// negative: none).
	MaxRedirects int
	// RedirectCredentials sends the headers and the bearer token to another origin a
	// redirect leads to (--follow-redirects-with-credentials).
	RedirectCredentials bool
	// Auth, for a URL, authorizes with OAuth when the server asks (or from the start with
	// Eager); nil sends only the user's own credentials. Its ServerURL is filled in from
	// URL; its Store should outlive the session, so a restart keeps the token.
	Auth *auth.Options
}

// Validate reports a spec that cannot work, in words a user can act on.
func (sp ServerSpec) Validate() error {
	switch {
	case len(sp.Command) == 0 && sp.URL == "":
		return fmt.Errorf("no server given: pass -- CMD ARGS..., --url URL, or --config FILE --server NAME")
	case len(sp.Command) > 0 && sp.URL != "":
		return fmt.Errorf("give either a command (after --) or --url, not both")
	case sp.Transport == "stdio" && len(sp.Command) == 0:
		return fmt.Errorf("--transport stdio needs a command after --")
	case (sp.Transport == "http" || sp.Transport == "sse") && sp.URL == "":
		return fmt.Errorf("--transport %s needs --url", sp.Transport)
	case sp.Transport != "" && sp.Transport != "stdio" && sp.Transport != "http" && sp.Transport != "sse":
		return fmt.Errorf("unknown transport %q (stdio, http or sse)", sp.Transport)
	}
	return nil
}

// NewTransport builds the transport for the spec.
func (sp ServerSpec) NewTransport() (transport.Transport, error) {
	if err := sp.Validate(); err != nil {
		return nil, err
	}
	if len(sp.Command) > 0 {
		return transport.NewStdio(transport.StdioOptions{Command: sp.Command[0], Args: sp.Command[1:], Env: sp.Env, Dir: sp.Dir, MaxLine: sp.MaxLine, Grace: sp.Grace}), nil
	}
	o := transport.HTTPOptions{URL: sp.URL, Headers: sp.Headers, BearerToken: sp.Bearer, MaxFrame: sp.MaxLine,
		MaxRedirects: sp.MaxRedirects, FollowRedirectsWithCredentials: sp.RedirectCredentials}
	if sp.Auth != nil {
		ao := *sp.Auth
		ao.ServerURL = sp.URL
		o.Auth = auth.New(ao)
	}
	switch sp.Transport {
	case "http":
		return transport.NewStreamableHTTP(o), nil
	case "sse":
		return transport.NewLegacySSE(o), nil
	}
	return transport.NewAutoHTTP(o), nil
}

// Describe is the spec in one line, with secrets masked: the URL's password and secret
// query parameters, and secret shapes (a --token=... argument) in the command.
func (sp ServerSpec) Describe() string {
	if sp.URL != "" {
		return secret.URL(sp.URL)
	}
	return secret.New(nil, false).String(strings.Join(sp.Command, " "))
}

// ParseHeader parses a -H 'Name: value' flag.
func ParseHeader(h string) (string, string, error) {
	name, value, ok := strings.Cut(h, ":")
	if !ok || strings.TrimSpace(name) == "" {
		// Not echoed: a header typed without its name may be a token.
		return "", "", fmt.Errorf("a header takes 'Name: value': one has no name (%d characters, not shown: it may be a secret)", len(h))
	}
	return strings.TrimSpace(name), strings.TrimSpace(value), nil
}

// configEntry is one server in an mcpServers (Claude Desktop, Cursor, Claude Code) or
// servers (VS Code) file.
type configEntry struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Cwd     string            `json:"cwd"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	line    int               // where the entry's name is in the file (1-based; 0 unknown)
}

// configFile is the shape of every host's config file: mcpServers (Claude Desktop,
// Cursor, Claude Code), servers (VS Code's mcp.json), mcp.servers (VS Code's settings)
// and, in Claude Code's ~/.claude.json, projects.PATH.mcpServers.
type configFile struct {
	MCPServers map[string]configEntry `json:"mcpServers"`
	Servers    map[string]configEntry `json:"servers"`
	MCP        struct {
		Servers map[string]configEntry `json:"servers"`
	} `json:"mcp"`
	Projects map[string]struct {
		MCPServers map[string]configEntry `json:"mcpServers"`
	} `json:"projects"`
}

// readConfig reads the servers of a config file by name; project, when not empty, adds the
// servers Claude Code keeps for that project directory.
func readConfig(path, project string) (map[string]configEntry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	var file configFile
	data = stripJSONComments(data)
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	all := map[string]configEntry{}
	lines := configLines(data, project)
	for _, m := range []map[string]configEntry{file.MCP.Servers, file.Servers, file.MCPServers, file.Projects[project].MCPServers} {
		for k, v := range m {
			v.line = lines[k]
			all[k] = v
		}
	}
	return all, nil
}

// LoadServerConfig reads a config file in the mcpServers or the VS Code servers format and
// returns the named server (the only one, when name is empty and the file has one).
// ${VAR} and ${env:VAR} in values are replaced from the environment.
func LoadServerConfig(path, name string) (ServerSpec, error) {
	all, err := readConfig(path, "")
	if err != nil {
		return ServerSpec{}, err
	}
	if len(all) == 0 {
		return ServerSpec{}, fmt.Errorf("config %s has no mcpServers or servers", path)
	}
	names := make([]string, 0, len(all))
	for k := range all {
		names = append(names, k)
	}
	sort.Strings(names)
	if name == "" {
		if len(all) != 1 {
			return ServerSpec{}, fmt.Errorf("config %s has several servers (%s): pick one with --server", path, strings.Join(names, ", "))
		}
		name = names[0]
	}
	e, ok := all[name]
	if !ok {
		return ServerSpec{}, fmt.Errorf("config %s has no server %q (it has %s)", path, name, strings.Join(names, ", "))
	}
	return e.spec(name), nil
}

// spec is the entry as a server selection.
func (e configEntry) spec(name string) ServerSpec {
	sp := ServerSpec{Name: name, Dir: expandVars(e.Cwd), URL: expandVars(e.URL)}
	if e.Command != "" {
		sp.Command = append([]string{expandVars(e.Command)}, mapStrings(e.Args, expandVars)...)
	}
	for k, v := range e.Env {
		sp.Env = append(sp.Env, k+"="+expandVars(v))
	}
	sort.Strings(sp.Env)
	if len(e.Headers) > 0 {
		sp.Headers = http.Header{}
		for k, v := range e.Headers {
			sp.Headers.Set(k, expandVars(v))
		}
	}
	switch strings.ToLower(e.Type) {
	case "stdio":
		sp.Transport = "stdio"
	case "http", "streamable-http", "streamablehttp", "streamable_http":
		sp.Transport = "http"
	case "sse":
		sp.Transport = "sse"
	}
	return sp
}

// varRef is compiled on first use, not at every start.
var varRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{(env:)?([A-Za-z_][A-Za-z0-9_]*)\}`) })

func expandVars(s string) string {
	return varRef().ReplaceAllStringFunc(s, func(m string) string {
		sub := varRef().FindStringSubmatch(m)
		return os.Getenv(sub[2])
	})
}

func mapStrings(in []string, f func(string) string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	return out
}

// stripJSONComments removes // and /* */ comments outside strings (VS Code's mcp.json allows
// them).
func stripJSONComments(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inStr, esc := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inStr {
			out = append(out, c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		if c == '"' {
			inStr = true
			out = append(out, c)
			continue
		}
		if c == '/' && i+1 < len(b) && b[i+1] == '/' {
			for i < len(b) && b[i] != '\n' {
				i++
			}
			out = append(out, '\n')
			continue
		}
		if c == '/' && i+1 < len(b) && b[i+1] == '*' {
			i += 2
			for i+1 < len(b) && !(b[i] == '*' && b[i+1] == '/') {
				if b[i] == '\n' {
					out = append(out, '\n') // keeps the lines where they were (configLines)
				}
				i++
			}
			i++
			continue
		}
		out = append(out, c)
	}
	return out
}
