package recordings

import (
	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// The tap flags what a direct session flags. protocol.Decode gave each frame the findings
// of its bytes; classify adds those that depend on the negotiated revision and
// capabilities (protocol.Check: a method the revision does not define or defines for the
// other side, a capability gate not declared, a batch where the revision has none, a
// missing resultType), with the context the tap learnt from the handshake it forwarded, as
// the session does with the one it made.

// handshakeHello is what a handshake request (initialize, server/discover) asks for; nil
// for any other frame.
func handshakeHello(m *protocol.Frame) *protocol.ClientHello {
	if m.Method != "initialize" && m.Method != "server/discover" {
		return nil
	}
	h, err := protocol.DecodeClientHello(m.Method, m.Params)
	if err != nil {
		return nil
	}
	return &h
}

// learn takes the negotiated revision and both sides' capabilities from the answer m to
// the handshake request p. Called with t.mu held.
func (t *Tap) learn(p pendingReq, m *protocol.Frame) {
	if p.hello == nil || m.Kind != protocol.KindResult {
		return
	}
	info, err := session.HandshakeInfo(p.method, protocol.Revision(p.hello.ProtocolVersion), m.Result)
	if err != nil || !info.Revision.Known() {
		return
	}
	t.check = protocol.CheckContext{Revision: info.Revision, ClientCaps: p.hello.Capabilities, ServerCaps: info.Capabilities}
}

// classify adds the findings of protocol.Check to frame event e. A frame is judged by the
// revision the handshake negotiated; a request that names its own (initialize's
// protocolVersion, a 2026-07-28 request's _meta) by that one, with the capabilities it
// declares, as the session judges what it sends. Before any revision is known nothing is
// judged. Called with t.mu held.
func (t *Tap) classify(e *session.Event) {
	f := e.Frame
	if f == nil {
		return
	}
	c := t.check
	if f.Kind == protocol.KindRequest || f.Kind == protocol.KindNotification {
		method := f.Method
		if method != "initialize" {
			method = "server/discover" // any request's _meta, read as server/discover's
		}
		if h, err := protocol.DecodeClientHello(method, f.Params); err == nil {
			if r := protocol.Revision(h.ProtocolVersion); r.Known() {
				c.Revision = r
				if h.Capabilities != nil {
					c.ClientCaps = h.Capabilities
				}
			}
		}
	}
	if !c.Revision.Known() {
		return
	}
	f.Findings = append(f.Findings, protocol.Check(f, e.Dir, c)...)
}
