package recordings

import (
	"encoding/json"
	"errors"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/session"
)

// RecordedClient is what the recorded client declared in its handshake, for a replay that
// should present itself the same way (a recording made by tap has another client's).
type RecordedClient struct {
	// Protocol is the revision the client asked for (initialize's protocolVersion, or the
	// protocolVersion of server/discover's _meta); "" when absent or not one mcpscope knows.
	Protocol string
	// Caps are the recorded client capabilities, as far as ClientCaps can say them; HasCaps
	// is false when the handshake did not carry a capabilities object.
	Caps    session.ClientCaps
	HasCaps bool
	// Info is the recorded clientInfo, nil when absent.
	Info *session.Implementation
}

// RecordedClient reads the recorded handshake request (see Handshake). ok is false when the
// recording has none.
func (t *Transcript) RecordedClient() (rc RecordedClient, ok bool) {
	req, _ := t.Handshake()
	if req == nil {
		return rc, false
	}
	f := req.Event.Frame
	hello, err := protocol.DecodeClientHello(f.Method, f.Params)
	if err != nil && !errors.Is(err, protocol.ErrNotHandshake) {
		return rc, true
	}
	version, caps, info := hello.ProtocolVersion, hello.Capabilities, hello.ClientInfo
	if _, known := protocol.ParseRevision(version); known {
		rc.Protocol = version
	}
	rc.Caps, rc.HasCaps = capsFrom(caps)
	var impl session.Implementation
	if json.Unmarshal(info, &impl) == nil && impl.Name != "" {
		rc.Info = &impl
	}
	return rc, true
}

// capsFrom maps a capabilities object onto ClientCaps: roots (and roots.listChanged),
// sampling, elicitation form and url (an empty elicitation object means form, as in the
// revisions before modes), tasks, the MCP Apps extension.
func capsFrom(raw json.RawMessage) (session.ClientCaps, bool) {
	var c session.ClientCaps
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return c, false
	}
	present := func(v json.RawMessage) bool { return len(v) > 0 && string(v) != "null" }
	if v, ok := m["roots"]; ok && present(v) {
		c.Roots = true
		var r struct {
			ListChanged bool `json:"listChanged"`
		}
		_ = json.Unmarshal(v, &r)
		c.RootsListChanged = r.ListChanged
	}
	if v, ok := m["sampling"]; ok && present(v) {
		c.Sampling = true
	}
	if v, ok := m["elicitation"]; ok && present(v) {
		var e map[string]json.RawMessage
		_ = json.Unmarshal(v, &e)
		_, c.ElicitForm = e["form"]
		_, c.ElicitURL = e["url"]
		if !c.ElicitForm && !c.ElicitURL {
			c.ElicitForm = true
		}
	}
	if v, ok := m["tasks"]; ok && present(v) {
		c.Tasks = true
	}
	var ext map[string]json.RawMessage
	if json.Unmarshal(m["extensions"], &ext) == nil {
		if v, ok := ext[apps.ExtensionID]; ok && present(v) {
			c.Apps = true
		}
	}
	return c, true
}
