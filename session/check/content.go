package check

import (
	"encoding/json"
	"strconv"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// content looks for hidden and deceptive text in everything the server gave: serverInfo and
// the instructions of the handshake, and every listed tool, prompt, resource and template.
// A finding's pointer is into the handshake's result ("/serverInfo/name",
// "/instructions") or into the list, counted across its pages ("/tools/3/description").
func (r *runner) content() {
	hs := r.handshakeEvent()
	if hs != nil && hs.Frame != nil {
		if info, ok := findObjectMember(hs.Frame.Result, "serverInfo"); ok {
			r.addContent(protocol.CheckContent(info, "/serverInfo"), hs)
		}
	}
	if ins := r.run.Definitions.Instructions; ins != "" {
		r.addContent(protocol.CheckContentText(ins, "/instructions", false), hs)
	}
	for _, kind := range session.ListKinds {
		for i, it := range r.pages[kind] {
			r.addContent(protocol.CheckContent(it.raw, "/"+string(kind)+"/"+strconv.Itoa(i)), r.event(it.seq))
		}
	}
}

// addContent records content findings with their pointer and section.
func (r *runner) addContent(fs []protocol.ContentFinding, ev *session.Event) {
	for _, f := range fs {
		r.addRef(f.Finding, protocol.ContentSpec(f.Code, f.Pointer, r.rev), ev)
		r.run.Items[len(r.run.Items)-1].Pointer = f.Pointer
	}
}

// findObjectMember is the value of member name of a JSON object.
func findObjectMember(obj json.RawMessage, name string) (json.RawMessage, bool) {
	members, ok := protocol.ObjectMembers(obj)
	if !ok {
		return nil, false
	}
	for _, m := range members {
		if m.Key == name {
			return m.Value, true
		}
	}
	return nil, false
}
