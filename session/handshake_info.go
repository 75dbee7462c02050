package session

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcpscope/mcpscope/protocol"
)

// HandshakeInfo turns a handshake's answer into ServerInfo: result is the result of method,
// "initialize" or "server/discover", and offered the revision the request asked for. It is
// the one reading of InitializeResult and DiscoverResult into what a session learned, for a
// live session, a recording and a tap alike.
//
// For initialize, Revision is the protocolVersion the server chose, as written: whether
// mcpscope speaks it is the caller's question. For server/discover, Revision is offered when
// the server lists it (or lists nothing), else the newest 2026-07-28-era revision mcpscope
// speaks among those listed, else "" (the server speaks only earlier revisions, or none
// mcpscope knows). Transport, SessionID and Auto are not the handshake's to say.
func HandshakeInfo(method string, offered protocol.Revision, result json.RawMessage) (ServerInfo, error) {
	switch method {
	case "initialize":
		r, err := protocol.DecodeInitializeResult(result)
		if err != nil {
			return ServerInfo{}, fmt.Errorf("initialize result is not an InitializeResult: %w", err)
		}
		return ServerInfo{Implementation: r.ServerInfo.Implementation, Website: r.ServerInfo.WebsiteURL,
			Capabilities: r.Capabilities, Instructions: r.Instructions, Revision: protocol.Revision(r.ProtocolVersion)}, nil
	case "server/discover":
		r, err := protocol.DecodeDiscoverResult(result)
		if err != nil {
			return ServerInfo{}, fmt.Errorf("server/discover result is not a DiscoverResult: %w", err)
		}
		impl, _ := r.ServerInfo()
		info := ServerInfo{Implementation: impl.Implementation, Website: impl.WebsiteURL, Capabilities: r.Capabilities,
			Instructions: r.Instructions, Stateless: true, SupportedVersions: r.SupportedVersions, Revision: offered}
		if len(r.SupportedVersions) > 0 && !slices.Contains(r.SupportedVersions, string(offered)) {
			info.Revision, _ = pickRevision(r.SupportedVersions, true)
		}
		return info, nil
	}
	return ServerInfo{}, fmt.Errorf("%s: %w", method, protocol.ErrNotHandshake)
}

// HandshakeOffer is the revision a recorded handshake request offered: initialize's
// protocolVersion, or the protocolVersion in server/discover's _meta; "" when it names none.
func HandshakeOffer(method string, params json.RawMessage) protocol.Revision {
	h, _ := protocol.DecodeClientHello(method, params)
	return protocol.Revision(h.ProtocolVersion)
}
