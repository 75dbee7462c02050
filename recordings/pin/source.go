package pin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
)

// Advertised lists the lists a server's capabilities offer: tools, prompts, and resources
// with their templates.
func Advertised(caps json.RawMessage) []session.ListKind {
	var c map[string]json.RawMessage
	_ = json.Unmarshal(caps, &c)
	var out []session.ListKind
	for _, l := range session.ListKinds {
		cap := map[session.ListKind]string{session.ListTools: "tools", session.ListPrompts: "prompts",
			session.ListResources: "resources", session.ListTemplates: "resources"}[l]
		if v, ok := c[cap]; ok && !bytes.Equal(v, []byte("null")) {
			out = append(out, l)
		}
	}
	return out
}

// FromSession reads the definitions of a connected session: every page of each list its
// capabilities offer. A list the server answers it does not serve (session.NotServed) is
// empty, and said in the set's Notes.
func FromSession(ctx context.Context, s *session.Session) (*Set, error) {
	info := s.Info()
	lists := map[session.ListKind][]json.RawMessage{}
	var notes []string
	for _, l := range Advertised(info.Capabilities) {
		items, err := s.List(ctx, l)
		switch {
		case session.NotServed(l, err):
			notes = append(notes, notServedNote(l, err))
			items = nil
		case err != nil:
			return nil, fmt.Errorf("list %s: %w", l, err)
		}
		lists[l] = items
	}
	set := New(info, lists)
	set.Source, set.Notes = "live server", notes
	return set, nil
}

// notServedNote says that the server declares a list it does not serve.
func notServedNote(l session.ListKind, err error) string {
	return fmt.Sprintf("the server declares resources, but %s failed: %v; treated as having none", l.Method(), err)
}

// FromRecording reads the definitions a recording holds: the last handshake answer, and the
// last complete listing (every page, from a request without a cursor to a result without
// nextCursor) of each list. A list the recording never fetched whole is absent, and named
// in missing when the recorded capabilities offer it.
func FromRecording(path string) (set *Set, missing []session.ListKind, err error) {
	r, err := recordings.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	type reqKey struct {
		gen int
		seq uint64
	}
	var (
		info    session.ServerInfo
		hsInfo  bool
		params  = map[reqKey]json.RawMessage{} // handshake and list requests
		partial = map[session.ListKind][]json.RawMessage{}
		next    = map[session.ListKind]string{} // nextCursor of the listing under way
		lists   = map[session.ListKind][]json.RawMessage{}
	)
	byMethod := map[string]session.ListKind{"tools/list": session.ListTools, "prompts/list": session.ListPrompts,
		"resources/list": session.ListResources, "resources/templates/list": session.ListTemplates}
	for i := 0; i < r.Len(); i++ {
		e, err := r.Entry(i)
		if err != nil || e.Event.Kind != session.EvFrame || e.Event.Frame == nil {
			continue
		}
		ev, f := e.Event, e.Event.Frame
		switch {
		case f.Kind == protocol.KindRequest && ev.Dir == protocol.ClientToServer:
			if _, ok := byMethod[f.Method]; ok || f.Method == "initialize" || f.Method == "server/discover" {
				params[reqKey{e.Gen, ev.Seq}] = f.Params
			}
		case f.Kind == protocol.KindError && ev.Dir == protocol.ServerToClient && f.Error != nil && f.Error.CodeOK &&
			protocol.NotServed(ev.Corr.Method, f.Error.Code):
			// The server answered that it does not serve the list: it has none.
			if l, ok := byMethod[ev.Corr.Method]; ok {
				lists[l], partial[l] = []json.RawMessage{}, nil
			}
		case f.Kind == protocol.KindResult && ev.Dir == protocol.ServerToClient:
			req := params[reqKey{e.Gen, ev.Corr.RequestSeq}]
			if m := ev.Corr.Method; m == "initialize" || m == "server/discover" {
				if got, err := session.HandshakeInfo(m, session.HandshakeOffer(m, req), f.Result); err == nil {
					info, hsInfo = got, true
				}
				continue
			}
			l, ok := byMethod[ev.Corr.Method]
			if !ok {
				continue
			}
			var p struct {
				Cursor string `json:"cursor"`
			}
			_ = json.Unmarshal(req, &p)
			var res struct {
				NextCursor string `json:"nextCursor"`
			}
			_ = json.Unmarshal(f.Result, &res)
			items, _ := pageItems(f.Result, string(l))
			switch {
			case p.Cursor == "":
				partial[l] = items
			case partial[l] != nil && p.Cursor == next[l]:
				partial[l] = append(partial[l], items...)
			default:
				continue // a page of a listing whose start is not recorded
			}
			next[l] = res.NextCursor
			if res.NextCursor == "" {
				lists[l], partial[l] = partial[l], nil
			}
		}
	}
	if !hsInfo {
		return nil, nil, fmt.Errorf("%s: the recording holds no handshake answer (initialize or server/discover result)", path)
	}
	for _, l := range Advertised(info.Capabilities) {
		if _, ok := lists[l]; !ok {
			missing = append(missing, l)
		}
	}
	set = New(info, lists)
	set.Source = path
	return set, missing, nil
}

// pageItems are the elements of the result member that holds a page's items.
func pageItems(result json.RawMessage, member string) ([]json.RawMessage, bool) {
	members, ok := protocol.ObjectMembers(result)
	if !ok {
		return []json.RawMessage{}, false
	}
	for _, m := range members {
		if m.Key == member {
			items, ok := protocol.ArrayElements(m.Value)
			return items, ok
		}
	}
	return []json.RawMessage{}, true
}
