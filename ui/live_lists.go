package ui

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// liveLists follows the */list results of a live tap as they arrive: a result whose request
// has no cursor starts a listing, one whose request's cursor is the previous page's
// nextCursor continues it, and the page without a nextCursor completes it. The completed
// listing of each kind is the explorer's list.
type liveLists struct {
	kinds   map[string]session.ListKind // list method → kind
	pending map[session.ListKind]*livePages
	done    map[session.ListKind][]json.RawMessage
}

// livePages is a listing in progress.
type livePages struct {
	items []json.RawMessage
	want  string // the nextCursor of the last page
}

func newLiveLists() *liveLists {
	l := &liveLists{kinds: map[string]session.ListKind{}, pending: map[session.ListKind]*livePages{},
		done: map[session.ListKind][]json.RawMessage{}}
	for _, k := range session.ListKinds {
		l.kinds[k.Method()] = k
	}
	return l
}

// take looks at one new entry, whose event as received is ev (the entry may hold a large
// frame cut); it reports the kind whose listing e completed.
func (l *liveLists) take(e *traffic.Entry, ev *session.Event) (session.ListKind, bool) {
	f := ev.Frame
	if f == nil || f.Kind != protocol.KindResult || ev.Dir != protocol.ServerToClient {
		return "", false
	}
	kind, ok := l.kinds[ev.Corr.Method]
	if !ok {
		return "", false
	}
	var res map[string]json.RawMessage
	if json.Unmarshal(f.Result, &res) != nil {
		return "", false
	}
	var next string
	_ = json.Unmarshal(res["nextCursor"], &next)
	var items []json.RawMessage
	for k, v := range res {
		if k != "nextCursor" && k != "_meta" && k != "resultType" && len(v) > 0 && v[0] == '[' {
			_ = json.Unmarshal(v, &items)
		}
	}
	var cursor string
	if req := e.Pair; req != nil && req.Ev != nil && req.Ev.Frame != nil {
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(req.Ev.Frame.Params, &p)
		cursor = p.Cursor
	}
	p := l.pending[kind]
	switch {
	case cursor == "":
		p = &livePages{}
	case p == nil || p.want != cursor:
		return "", false // a page of a listing whose start this view did not see
	}
	p.items = append(p.items, items...)
	if next != "" {
		p.want = next
		l.pending[kind] = p
		return "", false
	}
	delete(l.pending, kind)
	l.done[kind] = p.items
	return kind, true
}

// offers reports whether the server's capabilities include the list of kind.
func offers(info session.ServerInfo, kind session.ListKind) bool {
	var have map[string]json.RawMessage
	_ = json.Unmarshal(info.Capabilities, &have)
	_, ok := have[listCapability[kind]]
	return ok
}

// listCapability is the capability that offers each list.
var listCapability = map[session.ListKind]string{session.ListTools: "tools", session.ListResources: "resources",
	session.ListTemplates: "resources", session.ListPrompts: "prompts"}

// liveHoldNotes are the events of a batch from the tap (for holdsObserve).
func liveHoldNotes(items []liveItem) []*session.Event {
	var out []*session.Event
	for _, it := range items {
		if it.ev != nil && faultNote(it.ev) {
			out = append(out, it.ev)
		}
	}
	return out
}
