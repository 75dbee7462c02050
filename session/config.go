package session

import (
	"encoding/json"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/session/transport"
)

// Implementation names a client or server (clientInfo / serverInfo).
type Implementation = protocol.Implementation

// ClientCaps are the client capabilities mcpscope declares. They are configurable so a user
// can see how a server behaves with and without each one.
type ClientCaps struct {
	Roots            bool
	RootsListChanged bool
	Sampling         bool
	ElicitForm       bool
	ElicitURL        bool
	Tasks            bool
	// Apps declares the MCP Apps extension (capabilities.extensions["io.modelcontextprotocol/ui"]
	// with the MIME types mcpscope hosts). Some servers list other tools without it.
	Apps bool
}

// DefaultCaps declares everything mcpscope can answer.
func DefaultCaps() ClientCaps {
	return ClientCaps{Roots: true, RootsListChanged: true, Sampling: true, ElicitForm: true, ElicitURL: true, Apps: true}
}

// JSON renders the capabilities object as sent on the wire.
func (c ClientCaps) JSON() json.RawMessage {
	m := map[string]any{}
	if c.Roots {
		if c.RootsListChanged {
			m["roots"] = map[string]any{"listChanged": true}
		} else {
			m["roots"] = map[string]any{}
		}
	}
	if c.Sampling {
		m["sampling"] = map[string]any{}
	}
	if c.ElicitForm || c.ElicitURL {
		e := map[string]any{}
		if c.ElicitForm {
			e["form"] = map[string]any{}
		}
		if c.ElicitURL {
			e["url"] = map[string]any{}
		}
		m["elicitation"] = e
	}
	if c.Tasks {
		m["tasks"] = map[string]any{"list": map[string]any{}, "cancel": map[string]any{},
			"requests": map[string]any{"sampling": map[string]any{"createMessage": map[string]any{}},
				"elicitation": map[string]any{"create": map[string]any{}}}}
	}
	if c.Apps {
		m["extensions"] = map[string]any{apps.ExtensionID: apps.ClientSetting()}
	}
	b, _ := json.Marshal(m)
	return b
}

// Config describes how to run a session.
type Config struct {
	Transport transport.Transport
	// Protocol is "auto" (probe server/discover, fall back to initialize) or a revision.
	Protocol   string
	ClientInfo Implementation
	Caps       ClientCaps
	Responder  Responder
	// RequestTimeout bounds each request; progress resets it. Default 60 s.
	RequestTimeout time.Duration
	// ProbeTimeout bounds the server/discover probe of Protocol "auto". Default 3 s.
	ProbeTimeout time.Duration
	// EraCache, when set, remembers the era a server of Protocol "auto" turned out to be, so
	// the next session skips the probe ("era from cache"), re-probing when the cached era
	// fails. Reprobe ignores what it holds (and replaces it).
	EraCache *EraCache
	Reprobe  bool
	// NoListen keeps the session from opening the standalone GET stream (Streamable HTTP).
	NoListen bool
	// LogLevel, when set, is sent as the per-request log level (2026-07-28) or with
	// logging/setLevel after the handshake (earlier revisions).
	LogLevel string
	// EventBound is the default bound of subscriptions (see DefaultSubscriptionBound).
	EventBound int
	// ServerRequestWorkers is how many server→client requests are answered at once;
	// 0 means DefaultServerRequestWorkers.
	ServerRequestWorkers int
	// ServerRequestQueueBytes bounds the server requests waiting for a worker (each counted
	// at its size plus ServerRequestOverhead); beyond it requests are refused with
	// CodeOverloaded. 0 means DefaultServerRequestQueueBytes.
	ServerRequestQueueBytes int64
	// EventBytes is the default byte bound of subscriptions (see DefaultSubscriptionBytes).
	EventBytes int64
}

func (c *Config) fill() {
	if c.Protocol == "" {
		c.Protocol = "auto"
	}
	if c.ClientInfo.Name == "" {
		c.ClientInfo = Implementation{Name: "mcpscope", Version: Version()}
	}
	if c.RequestTimeout == 0 {
		c.RequestTimeout = 60 * time.Second
	}
	if c.ProbeTimeout == 0 {
		c.ProbeTimeout = 3 * time.Second
	}
	if c.ServerRequestWorkers <= 0 {
		c.ServerRequestWorkers = DefaultServerRequestWorkers
	}
	if c.ServerRequestQueueBytes <= 0 {
		c.ServerRequestQueueBytes = DefaultServerRequestQueueBytes
	}
	if c.Responder == nil {
		c.Responder = &Headless{}
	}
}
