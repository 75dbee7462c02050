package protocol

import (
	"encoding/json"
	"errors"
)

// The _meta keys MCP reserves that mcpscope reads or writes. Every _meta key the program
// uses is one of these constants; a test keeps the strings out of every other file.
const (
	// MetaProgressToken asks for progress notifications for a request (every revision).
	MetaProgressToken = "progressToken"
	// MetaProtocolVersion is a 2026-07-28 request's protocol revision (required).
	MetaProtocolVersion = "io.modelcontextprotocol/protocolVersion"
	// MetaClientCapabilities is a 2026-07-28 request's client capabilities (required).
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	// MetaClientInfo is a 2026-07-28 request's clientInfo, an Implementation.
	MetaClientInfo = "io.modelcontextprotocol/clientInfo"
	// MetaLogLevel is a 2026-07-28 request's log level; it replaces logging/setLevel.
	MetaLogLevel = "io.modelcontextprotocol/logLevel"
	// MetaServerInfo is a 2026-07-28 result's serverInfo, an Implementation.
	MetaServerInfo = "io.modelcontextprotocol/serverInfo"
	// MetaSubscriptionID names the subscriptions/listen stream a 2026-07-28 notification
	// came on (the id of the request that opened it).
	MetaSubscriptionID = "io.modelcontextprotocol/subscriptionId"
	// MetaRelatedTask ties a 2025-11-25 message to a task.
	MetaRelatedTask = "io.modelcontextprotocol/related-task"
)

// Meta is a _meta object, member by member.
type Meta map[string]json.RawMessage

// MetaOf is the _meta member of an object (request params or a result); nil when there is
// none or the object does not decode.
func MetaOf(obj json.RawMessage) Meta {
	var v struct {
		Meta Meta `json:"_meta"`
	}
	if len(obj) == 0 || json.Unmarshal(obj, &v) != nil {
		return nil
	}
	return v.Meta
}

// String is the string at key; "" when it is absent or not a string.
func (m Meta) String(key string) string {
	var s string
	if raw, ok := m[key]; !ok || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// Implementation is the Implementation at key (MetaServerInfo, MetaClientInfo); ok is false
// when it is absent or is not wholly one (the members that did decode are kept).
func (m Meta) Implementation(key string) (impl DeclaredImplementation, ok bool) {
	raw, ok := m[key]
	if !ok {
		return impl, false
	}
	return impl, json.Unmarshal(raw, &impl) == nil
}

// Implementation names a client or a server (clientInfo, serverInfo): what mcpscope sends
// about itself and shows about a server.
type Implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// DeclaredImplementation is an Implementation as a peer declares it, with the website it
// may name (websiteUrl, since 2025-11-25).
type DeclaredImplementation struct {
	Implementation
	WebsiteURL string `json:"websiteUrl,omitempty"`
}

// UnmarshalJSON decodes the Implementation as encoding/json does and the website leniently:
// a websiteUrl that is not a string is left out rather than failing the whole handshake.
func (d *DeclaredImplementation) UnmarshalJSON(b []byte) error {
	var w struct {
		WebsiteURL json.RawMessage `json:"websiteUrl"`
	}
	if err := json.Unmarshal(b, &d.Implementation); err != nil {
		return err
	}
	if json.Unmarshal(b, &w) == nil && json.Unmarshal(w.WebsiteURL, &d.WebsiteURL) != nil {
		d.WebsiteURL = ""
	}
	return nil
}

// InitializeResult is the typed view of initialize's result (the stateful era's handshake).
type InitializeResult struct {
	ProtocolVersion string                 `json:"protocolVersion"`
	Capabilities    json.RawMessage        `json:"capabilities"`
	ServerInfo      DeclaredImplementation `json:"serverInfo"`
	Instructions    string                 `json:"instructions"`
}

// DecodeInitializeResult decodes initialize's result. Only the members above are read, so
// an error means one of them has the wrong type (or the result is not an object).
func DecodeInitializeResult(result json.RawMessage) (InitializeResult, error) {
	return decodeAs[InitializeResult](result)
}

// DiscoverResult is the typed view of server/discover's result (the 2026-07-28 handshake):
// the members a client uses. CheckDiscoverResult checks the rest of the schema.
type DiscoverResult struct {
	SupportedVersions []string        `json:"supportedVersions"`
	Capabilities      json.RawMessage `json:"capabilities"`
	Instructions      string          `json:"instructions"`
	Meta              Meta            `json:"_meta"`
}

// DecodeDiscoverResult decodes server/discover's result.
func DecodeDiscoverResult(result json.RawMessage) (DiscoverResult, error) {
	return decodeAs[DiscoverResult](result)
}

func decodeAs[T any](raw json.RawMessage) (T, error) {
	var v T
	err := json.Unmarshal(raw, &v)
	return v, err
}

// ServerInfo is the serverInfo the result's _meta carries (MetaServerInfo); ok is false when
// it has none that decodes.
func (r DiscoverResult) ServerInfo() (DeclaredImplementation, bool) {
	return r.Meta.Implementation(MetaServerInfo)
}

// ClientHello is what a client declares in its handshake request: initialize's params, or
// the _meta of server/discover (which every 2026-07-28 request carries).
type ClientHello struct {
	ProtocolVersion string          // the revision asked for, as written
	Capabilities    json.RawMessage // the client capabilities object, nil when absent
	ClientInfo      json.RawMessage // the clientInfo, nil when absent
}

// ErrNotHandshake is DecodeClientHello's error for a method that is not a handshake.
var ErrNotHandshake = errors.New("not a handshake request (initialize or server/discover)")

// DecodeClientHello decodes the handshake request of either era: method is "initialize" or
// "server/discover", params the request's params.
func DecodeClientHello(method string, params json.RawMessage) (ClientHello, error) {
	switch method {
	case "initialize":
		var p struct {
			ProtocolVersion string          `json:"protocolVersion"`
			Capabilities    json.RawMessage `json:"capabilities"`
			ClientInfo      json.RawMessage `json:"clientInfo"`
		}
		if err := json.Unmarshal(params, &p); err != nil {
			return ClientHello{}, err
		}
		return ClientHello{ProtocolVersion: p.ProtocolVersion, Capabilities: p.Capabilities, ClientInfo: p.ClientInfo}, nil
	case "server/discover":
		var p struct {
			Meta Meta `json:"_meta"`
		}
		if err := json.Unmarshal(params, &p); err != nil {
			return ClientHello{}, err
		}
		return ClientHello{ProtocolVersion: p.Meta.String(MetaProtocolVersion),
			Capabilities: p.Meta[MetaClientCapabilities], ClientInfo: p.Meta[MetaClientInfo]}, nil
	}
	return ClientHello{}, ErrNotHandshake
}
