package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/session/check"
	"github.com/mcpscope/mcpscope/session/secret"
)

// Name is the server's name in its handshake.
const Name = "mcpscope"

// instructions tell an agent how to use the tools, in a few lines.
const instructions = `mcpscope inspects an MCP server the way its user sees it, with the exact bytes.
1. connect (command+args for stdio, or url) starts a recorded session and returns its id and handshake; every other tool takes that session id.
2. list, call_tool, read_resource, get_prompt, complete and send_raw (any JSON-RPC text, for error paths) return the server's result plus the exchange: request/response seqs, latency, findings.
3. timeline lists events since a seq, filtered with mcpscope's query language (e.g. "has:finding", "method:tools/call", "tool:NAME", "has:error"); frame returns one event's exact bytes.
4. check runs mcpscope check; pin saves the definitions, diff compares them with a pin.
5. recording gives the session's file: the user opens it with "mcpscope open FILE". disconnect ends a session.
6. When the server asks something mid-call (elicitation, sampling), the call returns with "pending" and a call id: answer each question (pending lists them), then await_call gives the result. When connect returns pending_auth, show its url to the user and call await_auth.
7. tasks, roots, log_level, log_tail, subscribe, skills and events_list, events_poll, events_stream (bounded reads that return a cursor to resume) reach the rest of MCP; connect with reconnect: true survives a server restart.
connect starts the command you name as the user, like a shell would.`

// Options configure a Server.
type Options struct {
	// Open makes a session (not yet connected) for connect's target. The command line
	// gives its own, so the selection means what its flags mean.
	Open Opener
	// RecordDir is where every session's recording goes; empty: the user's recordings
	// directory (recordings.DefaultRecordDir).
	RecordDir string
	// PinDir is where pin writes when no file is named; empty: "pins" beside the user's
	// recordings directory.
	PinDir string
	// Version is the server's version in its handshake.
	Version string
	// RecordedCalls reads the tools/call requests of a recording, for check's calls_from
	// (the command line's check --calls); nil refuses calls_from.
	RecordedCalls func(path string) ([]check.ToolCall, error)
	// Elicit and SamplingReply are how connect answers the server's questions when it says
	// nothing of them (the command's --elicit and --sampling-reply); empty: they are asked.
	Elicit, SamplingReply string
	// Logf, when set, gets one line per session opened or closed (stderr for the command).
	Logf func(format string, args ...any)
}

// Server is mcpscope's MCP server and the sessions its clients opened.
type Server struct {
	opts   Options
	server *mcp.Server
	reg    *registry
	// questions are what servers asked that waits for the agent; calls the requests
	// that run on while it answers.
	questions *questions
	calls     *calls

	mu      sync.Mutex
	secrets []string // the secrets of every session opened: no result may contain them
	mask    *secret.Masker
}

// New builds the server and its tools.
func New(opts Options) *Server {
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &Server{opts: opts, reg: newRegistry(), questions: newQuestions(), calls: newCalls(), mask: secret.New(nil, false)}
	s.server = mcp.NewServer(&mcp.Implementation{Name: Name, Title: "mcpscope", Version: opts.Version},
		&mcp.ServerOptions{Instructions: instructions})
	s.addTools()
	s.server.AddReceivingMiddleware(s.maskResults)
	return s
}

// MCP is the go-sdk server, for a test that connects to it in memory.
func (s *Server) MCP() *mcp.Server { return s.server }

// Close closes every session and waits until each recording is written.
func (s *Server) Close() error { return s.reg.closeAll() }

// ServeStdio serves one client over newline-delimited JSON-RPC on in and out until in
// ends or ctx is done, then closes every session.
func (s *Server) ServeStdio(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	defer s.Close()
	err := s.server.Run(ctx, quietCancel{&mcp.IOTransport{Reader: in, Writer: out}})
	if ctx.Err() != nil || errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("serve on stdio: %w", err)
	}
	return nil
}

// httpSessionTimeout closes a stateful HTTP client session idle this long (the sessions it
// opened on servers stay: they belong to the serve process, shared by its clients).
const httpSessionTimeout = 30 * time.Minute

// Handler serves Streamable HTTP at every path: a request whose MCP-Protocol-Version is
// 2026-07-28 or later statelessly, as that revision requires, any other in a stateful
// session started by initialize.
func (s *Server) Handler() http.Handler {
	get := func(*http.Request) *mcp.Server { return s.server }
	stateful := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{SessionTimeout: httpSessionTimeout})
	stateless := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{Stateless: true, PropagateRequestCancellation: true})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Protocol-Version") >= "2026-07-28" {
			stateless.ServeHTTP(w, r)
			return
		}
		stateful.ServeHTTP(w, r)
	})
}

// addSecrets makes every later result mask values (a session's secrets).
func (s *Server) addSecrets(values []string) {
	if len(values) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.secrets = append(s.secrets, values...)
	s.mask = secret.New(s.secrets, false)
}

// masker is the masking of every result now.
func (s *Server) masker() *secret.Masker {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mask
}

// maskResults masks every tool result, its structured content and its text, with the
// secrets of every session opened and secret shapes: the one place nothing passes.
func (s *Server) maskResults(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		m := s.masker()
		if err != nil {
			var wire *jsonrpc.Error
			if errors.As(err, &wire) {
				masked := *wire
				masked.Message = m.String(wire.Message)
				masked.Data = m.Bytes(wire.Data)
				return res, &masked
			}
			return res, errors.New(m.String(err.Error()))
		}
		if r, ok := res.(*mcp.CallToolResult); ok && r != nil {
			maskResult(m, r)
		}
		return res, nil
	}
}
