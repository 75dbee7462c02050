//lint:file-ignore SA1019 the demo exercises roots, sampling and logging, deprecated in 2026-07-28 but still part of the protocol.

package demo

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/protocol"
)

// Default identity of the demo server.
const (
	DefaultName    = "mcpscope-demo"
	DefaultVersion = "1.0.0"
)

// pageSize is the page size of every list method. It is small on purpose so
// that resources/list (30 resources) and tools/list need cursors.
const pageSize = 10

// instructions is sent in the initialize result and in server/discover.
const instructions = `This is the mcpscope demo server. It implements every server feature of MCP
so you can watch the traffic in mcpscope:

- Tools: echo, add and create_ticket have rich input schemas; get_weather returns
  structured content; image, audio, links and embedded return non-text content;
  slow reports progress and can be cancelled; fail and crash_rpc show the two kinds
  of error; log emits a message at every level; toggle_tools and touch_resource
  trigger list_changed and resources/updated notifications.
- ask_user, ask_url, summarize and list_roots need input from the client
  (elicitation, sampling, roots): server→client requests in the stateful era,
  input_required results in 2026-07-28. url_required answers error -32042 until
  the page it names is visited (2025-11-25).
- Resources: 30 of them (pages of 10), a demo://notes/{topic} template with
  completion, and subscriptions on demo://counter.
- Prompts: greet, code_review (with argument completion) and showcase.`

// Options configures [New].
type Options struct {
	// Name and Version override the server's advertised identity.
	Name    string
	Version string
	// Logger receives one short human-readable line per request handled
	// ("demo: tools/call echo"). Nil discards them.
	Logger io.Writer
}

// demo holds the state shared by every session of one demo server.
type demo struct {
	server *mcp.Server
	impl   *mcp.Implementation // the identity the server card repeats
	// cardAuth: the server card's remote lists the Authorization header (demo --auth).
	cardAuth bool
	log      *lineLogger
	tools    map[string]*registeredTool
	// profileSchema checks ask_user's answers.
	profileSchema *lazySchema
	// stateKey signs requestState values of multi-round-trip tools.
	stateKey []byte

	mu          sync.Mutex
	rolls       int             // dice rolls so far (app.go)
	bonus       map[string]bool // toggle_tools state: "tools", "prompts", "resources" → present
	counter     int             // revision of demo://counter
	counterNote string          // note given to the last touch_resource
	touchedAt   string          // time of the last touch_resource

	pages connectPages // url_required's page server and connections

	events *eventLog // the Events extension's clock and webhook subscriptions (events.go)
}

// New builds the demo server with all of its tools, resources and prompts.
// The same server may be connected to any number of sessions.
func New(opts Options) *mcp.Server {
	return newDemo(opts).server
}

func newDemo(opts Options) *demo {
	name, version := opts.Name, opts.Version
	if name == "" {
		name = DefaultName
	}
	if version == "" {
		version = DefaultVersion
	}
	d := &demo{
		log:      newLineLogger(opts.Logger),
		tools:    make(map[string]*registeredTool),
		bonus:    make(map[string]bool),
		stateKey: make([]byte, 32),
		events:   newEventLog(),
	}
	rand.Read(d.stateKey) // never fails; see crypto/rand.Read
	d.profileSchema = newLazySchema("demo:elicitation/profile", schemaProfileForm)
	impl := &mcp.Implementation{
		Name:       name,
		Title:      "mcpscope demo server",
		Version:    version,
		WebsiteURL: "https://modelcontextprotocol.io",
	}
	d.impl = impl
	d.server = mcp.NewServer(impl, &mcp.ServerOptions{
		Instructions:       instructions,
		PageSize:           pageSize,
		CompletionHandler:  d.complete,
		SubscribeHandler:   d.subscribe,
		UnsubscribeHandler: d.unsubscribe,
		Capabilities: &mcp.ServerCapabilities{
			Logging:     &mcp.LoggingCapabilities{},
			Completions: &mcp.CompletionCapabilities{},
			Tools:       &mcp.ToolCapabilities{ListChanged: true},
			Prompts:     &mcp.PromptCapabilities{ListChanged: true},
			Resources:   &mcp.ResourceCapabilities{ListChanged: true, Subscribe: true},
			Extensions:  map[string]any{protocol.EventsExtension: map[string]any{}},
		},
	})
	d.server.AddReceivingMiddleware(d.logRequests, resourceNotFoundCode)
	d.addTools()
	d.addResources()
	d.addPrompts()
	d.addEvents()
	return d
}

// logRequests writes one stderr line for every request and notification the
// server receives, and one more for every request that fails.
func (d *demo) logRequests(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		line := method
		if p := req.GetParams(); !isNilParams(p) {
			if detail := describe(p); detail != "" {
				line += " " + detail
			}
			if v, _ := p.GetMeta()[mcp.MetaKeyProtocolVersion].(string); v != "" {
				line += " [" + v + "]"
			}
		}
		d.log.printf("%s", line)
		res, err := next(ctx, method, req)
		if err != nil {
			d.log.printf("%s failed: %v", method, err)
		}
		return res, err
	}
}

// resourceNotFoundCode gives a missing resource the code of the revision the request
// speaks: -32002 up to 2025-11-25, -32602 (the SDK's) from 2026-07-28.
func resourceNotFoundCode(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		var rpcErr *jsonrpc.Error
		if err == nil || !errors.As(err, &rpcErr) || rpcErr.Code != mcp.CodeResourceNotFound || rpcErr.Message != "Resource not found" {
			return res, err
		}
		if p, ok := req.GetParams().(*mcp.ReadResourceParams); ok && p.URI == "" {
			return res, err // no uri at all: invalid params, which is the SDK's code
		}
		if v, ok := req.(interface{ ProtocolVersion() string }); ok && v.ProtocolVersion() != "" && v.ProtocolVersion() < "2026-07-28" {
			legacy := *rpcErr
			legacy.Code = legacyResourceNotFound
			return res, &legacy
		}
		return res, err
	}
}

// legacyResourceNotFound is the resource-not-found code of revisions before 2026-07-28.
const legacyResourceNotFound = -32002

// describe names the object a request is about: the tool, prompt, resource,
// completion reference or log level.
func describe(p mcp.Params) string {
	switch p := p.(type) {
	case *mcp.CallToolParamsRaw:
		if p.RequestState != "" || len(p.InputResponses) > 0 {
			return p.Name + " (retry with input responses)"
		}
		return p.Name
	case *mcp.GetPromptParams:
		return p.Name
	case *mcp.ReadResourceParams:
		return p.URI
	case *mcp.SubscribeParams:
		return p.URI
	case *mcp.UnsubscribeParams:
		return p.URI
	case *mcp.SetLoggingLevelParams:
		return string(p.Level)
	case *mcp.CompleteParams:
		if p.Ref == nil {
			return ""
		}
		return p.Ref.Name + p.Ref.URI + " " + p.Argument.Name + "=" + p.Argument.Value
	case *mcp.InitializeParams:
		if p.ClientInfo != nil {
			return p.ProtocolVersion + " from " + p.ClientInfo.Name
		}
		return p.ProtocolVersion
	}
	return ""
}

// isNilParams reports whether p is absent, including a typed nil pointer
// (a request sent without "params").
func isNilParams(p mcp.Params) bool {
	if p == nil {
		return true
	}
	v := reflect.ValueOf(p)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// lineLogger writes "demo: …" lines to a writer shared by goroutines.
type lineLogger struct {
	mu sync.Mutex
	w  io.Writer
}

func newLineLogger(w io.Writer) *lineLogger {
	if w == nil {
		w = io.Discard
	}
	return &lineLogger{w: w}
}

func (l *lineLogger) printf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	msg = strings.ReplaceAll(msg, "\n", " ")
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "demo: %s\n", msg)
}
