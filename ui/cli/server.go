package cli

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// ServerFlags select the server and shape the session. Every command and the interactive
// view take the same ones.
type ServerFlags struct {
	URL       string        `help:"Server URL (Streamable HTTP, falling back to HTTP+SSE unless --transport is given)." placeholder:"URL" group:"Server"`
	Transport string        `help:"Transport: stdio, http (Streamable HTTP) or sse (HTTP+SSE). Default: stdio for a command, http with fallback for a URL." enum:"stdio,http,sse," default:"" group:"Server"`
	Env       []string      `short:"e" sep:"none" help:"Set KEY=VAL in the server's environment (repeatable)." placeholder:"KEY=VAL" group:"Server"`
	Header    []string      `short:"H" sep:"none" help:"Add an HTTP header 'Name: value' (repeatable)." placeholder:"'NAME: VALUE'" group:"Server"`
	Bearer    string        `help:"Bearer token for HTTP servers (Authorization: Bearer ...)." env:"MCPSCOPE_BEARER" group:"Server"`
	Cwd       string        `help:"Working directory of a spawned server." type:"path" group:"Server"`
	Config    string        `help:"Read the server from a config file (mcpServers or VS Code servers format)." type:"path" placeholder:"FILE" group:"Server"`
	Server    string        `help:"Which server of --config to use." placeholder:"NAME" group:"Server"`
	Grace     time.Duration `help:"How long a spawned server gets to exit after its stdin closes, before SIGTERM (and again before SIGKILL)." default:"500ms" group:"Server"`
	MaxFrame  int64         `help:"Largest frame kept whole, in bytes; longer ones are flagged and truncated." default:"67108864" group:"Server"`

	MaxRedirects        int  `help:"Most HTTP redirects followed for one request (0: follow none)." default:"10" group:"Server"`
	RedirectCredentials bool `name:"follow-redirects-with-credentials" help:"Send the -H headers and the bearer token to another origin (scheme, host, port) a redirect leads to; by default they go only to the --url origin." group:"Server"`

	AuthFlags  `embed:""`
	GrantFlags `embed:""`
	FaultFlags `embed:""`

	Protocol    string        `help:"Protocol: auto (probe server/discover, fall back to initialize) or a revision (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28)." default:"auto" group:"Session"`
	Timeout     time.Duration `help:"Per-request timeout (progress resets it)." default:"60s" group:"Session"`
	Roots       []string      `name:"root" sep:"none" help:"A root to offer the server (path or URI; repeatable). The roots capability is declared only when a root is given, so by default a server keeps the directories its own command line names." placeholder:"PATH" group:"Session"`
	Elicit      string        `help:"How to answer elicitation: decline, cancel or accept-defaults." enum:"decline,cancel,accept-defaults" default:"decline" group:"Session"`
	SampleReply string        `name:"sampling-reply" help:"Answer sampling requests with this text (otherwise they are declined)." placeholder:"TEXT" group:"Session"`
	NoRoots     bool          `help:"Do not declare the roots capability, even with --root." group:"Session"`
	NoSampling  bool          `help:"Do not declare the sampling capability." group:"Session"`
	Elicitation string        `help:"Elicitation modes to declare: form,url, form, url or none." default:"form,url" group:"Session"`
	Tasks       bool          `help:"Declare the tasks capability." group:"Session"`
	NoApps      bool          `help:"Do not declare the MCP Apps extension (io.modelcontextprotocol/ui); a server may then list other tools (check shows both lists)." group:"Session"`
	NoListen    bool          `help:"Do not open the standalone GET stream (Streamable HTTP)." group:"Session"`
	Reprobe     bool          `help:"With --protocol auto, probe the server's era again instead of using the one cached for this server configuration." group:"Session"`
	LogLevel    string        `help:"Ask the server for log messages at this level (debug, info, notice, warning, error, ...)." placeholder:"LEVEL" group:"Session"`
	ServerReqs  int           `name:"server-requests" help:"How many server→client requests (ping, sampling, elicitation, roots) are answered at once; more wait in a queue." default:"32" group:"Session"`
	ServerQueue int64         `name:"server-request-queue" help:"Bytes of server requests that may wait for an answer; beyond it they are refused with error -32000 and flagged as a flood." default:"16777216" group:"Session"`
	Trace       bool          `help:"Write every event as NDJSON to stderr; where the reader falls more than --event-buffer behind, one gap line says how many events were dropped." group:"Output"`
	TraceDrain  time.Duration `name:"trace-drain" help:"At exit, how long --trace may go on writing what it has not written yet (a slow reader of stderr holds the exit no longer); then one gap line counts the rest." default:"1s" placeholder:"DURATION" group:"Output"`
	EventBuffer string        `name:"event-buffer" help:"Bytes of events each consumer (--trace, the interactive view, the recording, each viewer of a tap) may hold undelivered. Past it --trace, the view and tap viewers drop the oldest and show a gap; the recording slows the server down instead." default:"64MiB" placeholder:"SIZE" group:"Output"`
	Quiet       bool          `help:"Say nothing on stderr but errors: no line summing up the findings of a headless command (and no tap announcement)." group:"Output"`
	Record      string        `help:"Record the session to this file (JSONL; see mcpscope replay and mcpscope mock). Secrets are masked." type:"path" placeholder:"FILE" group:"Output"`
	// cardPick: the remotes of the server card a bare --url host named, for the view's
	// picker (resolveHost).
	cardPick []session.ConfiguredServer `kong:"-"`
	NoRedact bool                       `help:"Keep secrets (bearer token, -e values, -H values, tokens in text) in the --record file, --trace and what the interactive view copies or saves; the screen, the error line and the --debug log stay masked." group:"Output"`
}

// spec builds the server selection from the flags and the words after --. With nothing
// given it selects the built-in demo server, spawned from this same executable.
func (f *ServerFlags) spec(command []string) (session.ServerSpec, error) {
	var sp session.ServerSpec
	if f.Config != "" {
		var err error
		if sp, err = session.LoadServerConfig(f.Config, f.Server); err != nil {
			return sp, usageError{err}
		}
	} else if f.Server != "" {
		return sp, usageError{fmt.Errorf("--server needs --config FILE")}
	}
	if len(command) > 0 {
		sp.Command, sp.URL = command, ""
	}
	if f.URL != "" {
		sp.URL, sp.Command = f.URL, nil
	}
	if len(sp.Command) == 0 && sp.URL == "" {
		self, err := os.Executable()
		if err != nil {
			return sp, fmt.Errorf("find the demo server: %w", err)
		}
		sp.Command, sp.Name = []string{self, "demo"}, "demo"
	}
	if f.Transport != "" {
		sp.Transport = f.Transport
	}
	if f.Cwd != "" {
		sp.Dir = f.Cwd
	}
	for _, kv := range f.Env {
		if !strings.Contains(kv, "=") {
			// Not echoed: a value typed without its name may be a secret.
			return sp, usageError{fmt.Errorf("-e takes KEY=VAL: one has no '=' (%d characters, not shown: it may be a secret)", len(kv))}
		}
		sp.Env = append(sp.Env, kv)
	}
	for _, h := range f.Header {
		name, value, err := session.ParseHeader(h)
		if err != nil {
			return sp, usageError{err}
		}
		if sp.Headers == nil {
			sp.Headers = http.Header{}
		}
		sp.Headers.Add(name, value)
	}
	sp.Bearer = f.Bearer
	sp.MaxLine = f.MaxFrame
	sp.MaxRedirects, sp.RedirectCredentials = f.MaxRedirects, f.RedirectCredentials
	if f.MaxRedirects <= 0 {
		sp.MaxRedirects = -1 // the transport's "none"
	}
	sp.Grace = f.Grace
	if err := f.AuthFlags.apply(&sp); err != nil {
		return sp, usageError{err}
	}
	if err := f.GrantFlags.apply(&sp); err != nil {
		return sp, err
	}
	if err := sp.Validate(); err != nil {
		return sp, usageError{err}
	}
	return sp, nil
}

// eraCache gives cfg the era cache of the server configuration sp (protocol auto only).
func (f *ServerFlags) eraCache(sp session.ServerSpec, cfg *session.Config) {
	if cfg.Protocol == "auto" {
		cfg.EraCache, cfg.Reprobe = session.NewEraCache("", sp.EraKey()), f.Reprobe
	}
}

// sessionConfig builds the session configuration (without the transport).
func (f *ServerFlags) sessionConfig() (session.Config, error) {
	// Roots are declared only when there is a root to offer: a client that declares roots
	// and answers [] tells a server such as server-filesystem to drop the directories its
	// own command line gave it. Hosts offer roots when they have a workspace (VS Code its
	// folders, Claude Code its project) and Theia declares none without one.
	declareRoots := !f.NoRoots && len(f.Roots) > 0
	caps := session.ClientCaps{Roots: declareRoots, RootsListChanged: declareRoots, Sampling: !f.NoSampling, Tasks: f.Tasks, Apps: !f.NoApps}
	for _, m := range strings.Split(f.Elicitation, ",") {
		switch strings.TrimSpace(m) {
		case "form":
			caps.ElicitForm = true
		case "url":
			caps.ElicitURL = true
		case "none", "":
		default:
			return session.Config{}, usageError{fmt.Errorf("--elicitation %q: want form, url, form,url or none", f.Elicitation)}
		}
	}
	if _, ok := protocol.ParseRevision(f.Protocol); !ok && f.Protocol != "auto" {
		var known []string
		for _, r := range protocol.Revisions {
			known = append(known, string(r))
		}
		return session.Config{}, usageError{fmt.Errorf("--protocol %q: want auto or one of %s", f.Protocol, strings.Join(known, ", "))}
	}
	if f.ServerReqs < 1 || f.ServerQueue < 0 {
		return session.Config{}, usageError{fmt.Errorf("--server-requests wants at least 1 and --server-request-queue a size in bytes (0 for the default)")}
	}
	resp := &session.Headless{Elicit: f.Elicit, SamplingReply: f.SampleReply}
	for _, r := range f.Roots {
		resp.Roots = append(resp.Roots, session.RootFromPath(r))
	}
	buf, err := f.eventBuffer()
	if err != nil {
		return session.Config{}, err
	}
	return session.Config{Protocol: f.Protocol, Caps: caps, Responder: resp, RequestTimeout: f.Timeout,
		NoListen: f.NoListen, LogLevel: f.LogLevel, ServerRequestWorkers: f.ServerReqs, ServerRequestQueueBytes: f.ServerQueue,
		EventBytes: buf}, nil
}

// eventBuffer is --event-buffer in bytes.
func (f *ServerFlags) eventBuffer() (int64, error) {
	n, err := parseSize(f.EventBuffer)
	if err == nil && n < 1 {
		err = fmt.Errorf("%q: want at least one byte", f.EventBuffer)
	}
	if err != nil {
		return 0, usageError{fmt.Errorf("--event-buffer %w", err)}
	}
	return n, nil
}
