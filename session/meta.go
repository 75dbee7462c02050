package session

import (
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/protocol"
)

// metaLocked is what the session adds to a request's params._meta: the per-request
// protocol version, capabilities and client info of the stateless era, and a progress token.
func (s *Session) metaLocked(stateless bool, version, token string) map[string]any {
	m := map[string]any{}
	if stateless {
		m[protocol.MetaProtocolVersion] = version
		m[protocol.MetaClientCapabilities] = s.capsJSON
		m[protocol.MetaClientInfo] = s.cfg.ClientInfo
		if s.cfg.LogLevel != "" {
			m[protocol.MetaLogLevel] = s.cfg.LogLevel
		}
	}
	if token != "" {
		n := json.Number(token)
		m[protocol.MetaProgressToken] = n
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// withMeta adds meta's keys to params._meta, keeping params' own members, their order and
// any _meta keys the caller set. Params that are not an object are left as they are: a
// debugger sends what it is told.
func withMeta(params json.RawMessage, meta map[string]any) (json.RawMessage, error) {
	if len(meta) == 0 {
		return params, nil
	}
	if len(params) == 0 {
		params = json.RawMessage(`{}`)
	}
	ms, ok := protocol.ObjectMembers(params)
	if !ok {
		return params, nil
	}
	idx := -1
	for i, m := range ms {
		if m.Key == "_meta" {
			idx = i
		}
	}
	var existing []protocol.Member
	if idx >= 0 {
		if existing, ok = protocol.ObjectMembers(ms[idx].Value); !ok {
			return params, nil // a _meta that is not an object is the caller's choice
		}
	}
	have := map[string]bool{}
	for _, m := range existing {
		have[m.Key] = true
	}
	for _, k := range metaOrder {
		v, ok := meta[k]
		if !ok || have[k] {
			continue
		}
		b, err := protocol.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("encode _meta %s: %w", k, err)
		}
		existing = append(existing, protocol.Member{Key: k, Value: b})
	}
	metaRaw := protocol.EncodeObject(existing)
	if idx >= 0 {
		ms[idx].Value = metaRaw
	} else {
		ms = append([]protocol.Member{{Key: "_meta", Value: metaRaw}}, ms...)
	}
	return protocol.EncodeObject(ms), nil
}

var metaOrder = []string{protocol.MetaProgressToken, protocol.MetaProtocolVersion, protocol.MetaClientCapabilities, protocol.MetaClientInfo, protocol.MetaLogLevel}

// MirroredName is the Mcp-Name header value of a request (2026-07-28), not yet encoded: the tool or prompt name, the URI, or
// the task id.
func MirroredName(method string, params json.RawMessage) string {
	switch method {
	case "tasks/get", "tasks/update", "tasks/cancel":
		// The tasks extension routes a task's requests by its id.
		id, _ := protocol.MemberString(params, "taskId")
		return id
	}
	return protocol.Target(method, params) // exact keys: the header names what the server runs
}

// checkContextLocked is the context for protocol.Check: the negotiated revision, or before
// negotiation the one a request is sent under (sentUnder), else the default offer.
func (s *Session) checkContextLocked(sentUnder string) protocol.CheckContext {
	rev := s.info.Revision
	if r, ok := protocol.ParseRevision(sentUnder); ok && rev == "" {
		rev = r
	}
	if rev == "" {
		rev = protocol.LatestStateful
	}
	return protocol.CheckContext{Revision: rev, ClientCaps: s.capsJSON, ServerCaps: s.info.Capabilities}
}

// hasMethod reports whether the negotiated revision has method in that direction.
func (s *Session) hasMethod(method string, from protocol.Direction) bool {
	s.mu.Lock()
	rev := s.info.Revision
	s.mu.Unlock()
	if rev == "" {
		rev = protocol.LatestStateful
	}
	_, ok := protocol.Lookup(rev, method, from)
	return ok
}

// serverHas reports whether the server declared capability name.
func (s *Session) serverHas(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	var caps map[string]json.RawMessage
	_ = json.Unmarshal(s.info.Capabilities, &caps)
	_, ok := caps[name]
	return ok
}

// clientAllowsLocked reports whether mcpscope's declared capabilities allow the server to
// send this request.
func (s *Session) clientAllowsLocked(method string) bool {
	c := s.cfg.Caps
	switch method {
	case "roots/list":
		return c.Roots
	case "sampling/createMessage":
		return c.Sampling
	case "elicitation/create":
		return c.ElicitForm || c.ElicitURL
	}
	return true
}
