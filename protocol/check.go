package protocol

import (
	"encoding/json"
	"fmt"
	"strings"
)

// CheckContext is what Check needs to know about the conversation: the negotiated revision
// and the capabilities objects each side declared, exactly as written (the "capabilities"
// member of initialize, its result, or server/discover). A nil capabilities object means
// "not known yet", and gates on that side are not checked; {} means "declared nothing".
type CheckContext struct {
	Revision   Revision
	ClientCaps json.RawMessage
	ServerCaps json.RawMessage
}

// Check returns the findings that depend on the negotiated revision and capabilities, for
// a frame sent by from: a batch where the revision has none; a method the revision does not
// define, or defines only for the other side, or as the other kind of message; a capability
// gate that the relevant side did not declare (including elicitation modes, sampling tools
// and context, and task augmentation in 2025-11-25); and, from 2026-07-28, a server result
// without a valid resultType. It looks only at the frame itself, so a response (which has
// no method) only gets the resultType check. Batch members are checked one by one and
// their findings say which member. An unknown revision yields no findings. Check does not
// modify f.
func Check(f *Frame, from Direction, c CheckContext) []Finding {
	if f == nil || !c.Revision.Known() {
		return nil
	}
	var out []Finding
	switch f.Kind {
	case KindBatch:
		if !c.Revision.AllowsBatch() {
			out = append(out, NewFinding(FindBatchForbidden,
				"a batch of %d messages, but revision %s has no JSON-RPC batching", len(f.Batch), c.Revision))
		}
		for i, el := range f.Batch {
			for _, fd := range Check(el, from, c) {
				fd.Message = fmt.Sprintf("batch item %d: %s", i+1, fd.Message)
				out = append(out, fd)
			}
		}
	case KindRequest, KindNotification:
		out = checkMethod(out, f, from, c)
	case KindResult:
		if from == ServerToClient && c.Revision.Stateless() {
			out = checkResultType(out, f, c)
		}
	}
	return out
}

// ResultType returns the resultType member of a result ("complete", "input_required"), or
// "" when the frame has no result, the member is absent, or it is not a string.
func ResultType(f *Frame) string {
	if f == nil || f.Result == nil {
		return ""
	}
	v, ok := findMember(f.Result, "resultType")
	if !ok {
		return ""
	}
	s, _ := stringValue(v)
	return s
}

func checkResultType(out []Finding, f *Frame, c CheckContext) []Finding {
	rev := c.Revision
	if len(f.Result) == 0 || f.Result[0] != '{' {
		return out // already reported as FindResultType
	}
	v, ok := findMember(f.Result, "resultType")
	if !ok {
		return append(out, NewFinding(FindMissingResultType,
			`result has no resultType; revision %s requires one ("complete" or "input_required")`, rev))
	}
	s, isString := stringValue(v)
	switch {
	case !isString:
		return append(out, NewFinding(FindUnknownResultType, "resultType is a %s, not a string", JSONType(v)))
	case s == "task":
		if ok, known := capDeclared(c, "server", "extensions."+TasksExtension); known && !ok {
			return append(out, NewFinding(FindUnknownResultType,
				`resultType "task", but the server did not declare the %s extension`, TasksExtension))
		}
	case s != "complete" && s != "input_required":
		return append(out, NewFinding(FindUnknownResultType,
			`resultType %q is not "complete" or "input_required"; unless an extension defines it, the client must treat it as invalid`, s))
	}
	return out
}

func other(d Direction) Direction {
	if d == ClientToServer {
		return ServerToClient
	}
	return ClientToServer
}

func sideName(d Direction) string {
	if d == ClientToServer {
		return "client"
	}
	return "server"
}

func checkMethod(out []Finding, f *Frame, from Direction, c CheckContext) []Finding {
	rev := c.Revision
	spec, ok := Lookup(rev, f.Method, from)
	if !ok {
		if ext, isExt := LookupExtension(f.Method, from); isExt {
			return checkExtensionMethod(out, ext, c)
		}
		if _, ok := Lookup(rev, f.Method, other(from)); ok {
			return append(out, NewFinding(FindWrongDirection, "%s is sent by the %s in %s, but here the %s sent it",
				f.Method, sideName(other(from)), rev, sideName(from)))
		}
		if where := revisionsWith(f.Method); where != "" {
			return append(out, NewFinding(FindUnknownMethod, "%s is not part of revision %s (it is in %s)",
				f.Method, rev, where))
		}
		return append(out, NewFinding(FindUnknownMethod, "%s is not a method of MCP revision %s", f.Method, rev))
	}
	if isNotif := f.Kind == KindNotification; isNotif != spec.Notification {
		if spec.Notification {
			out = append(out, NewFinding(FindMessageKind,
				"%s is a notification, but this message has an id, as a request would", f.Method))
		} else {
			out = append(out, NewFinding(FindMessageKind,
				"%s is a request, but this message has no id, so no response can come back", f.Method))
		}
	}
	out = checkGate(out, f.Method, spec.Capability, c)
	if rev >= Rev20251125 && rev.HasInitialize() {
		out = checkDetailedGates(out, f, from, c)
	}
	return out
}

// revisionsWith names the revisions that define method, e.g. "2024-11-05 to 2025-11-25".
func revisionsWith(method string) string {
	var revs []Revision
	for _, r := range Revisions {
		for _, m := range catalog {
			if m.Name == method && m.In(r) {
				revs = append(revs, r)
				break
			}
		}
	}
	switch len(revs) {
	case 0:
		return ""
	case 1:
		return string(revs[0])
	}
	return string(revs[0]) + " to " + string(revs[len(revs)-1])
}

// checkGate reports a capability gate ("server:tools.listChanged") that is not satisfied.
func checkGate(out []Finding, method, gate string, c CheckContext) []Finding {
	if gate == "" {
		return out
	}
	side, path, _ := strings.Cut(gate, ":")
	ok, known := capDeclared(c, side, path)
	if !known || ok {
		return out
	}
	return append(out, NewFinding(FindCapability, "%s needs the %s capability %q, which the %s did not declare",
		method, side, path, side))
}

// capDeclared reports whether the dotted path is declared in side's capabilities, and
// whether those capabilities are known at all. A member counts as declared when it is
// present and neither false nor null.
func capDeclared(c CheckContext, side, path string) (declared, known bool) {
	caps := c.ServerCaps
	if side == "client" {
		caps = c.ClientCaps
	}
	if caps == nil {
		return false, false
	}
	v := []byte(caps)
	if id, ok := strings.CutPrefix(path, "extensions."); ok {
		// An extension identifier has dots of its own: it is one member of extensions.
		ext, ok := findMember(v, "extensions")
		if !ok {
			return false, true
		}
		v, ok = findMember(ext, id)
		if !ok {
			return false, true
		}
		s := string(v)
		return s != "false" && s != "null", true
	}
	for seg := range strings.SplitSeq(path, ".") {
		var ok bool
		if v, ok = findMember(v, seg); !ok {
			return false, true
		}
	}
	s := string(v)
	return s != "false" && s != "null", true
}

// checkDetailedGates covers the capability rules of 2025-11-25 that depend on params:
// elicitation modes, sampling tools and context, and task-augmented requests.
func checkDetailedGates(out []Finding, f *Frame, from Direction, c CheckContext) []Finding {
	if f.Kind != KindRequest || len(f.Params) == 0 || f.Params[0] != '{' {
		return out
	}
	switch {
	case f.Method == "elicitation/create" && from == ServerToClient:
		out = checkElicitationMode(out, f, c)
	case f.Method == "sampling/createMessage" && from == ServerToClient:
		if _, ok := findMember(f.Params, "tools"); ok {
			out = checkGate(out, f.Method+" with tools", "client:sampling.tools", c)
		}
		if v, ok := findMember(f.Params, "includeContext"); ok {
			if s, _ := stringValue(v); s != "none" {
				out = checkGate(out, f.Method+" with includeContext "+string(v), "client:sampling.context", c)
			}
		}
	}
	if _, ok := findMember(f.Params, "task"); ok {
		receiver := sideName(other(from))
		path := "tasks.requests." + strings.ReplaceAll(f.Method, "/", ".")
		out = checkGate(out, "task-augmented "+f.Method, receiver+":"+path, c)
	}
	return out
}

// checkElicitationMode applies the 2025-11-25 rule: the client declares the modes it
// supports as elicitation.form and elicitation.url, and an empty elicitation object means
// form mode only. A request without mode is form mode.
func checkElicitationMode(out []Finding, f *Frame, c CheckContext) []Finding {
	elic, known := c.ClientCaps, c.ClientCaps != nil
	if !known {
		return out
	}
	e, ok := findMember(elic, "elicitation")
	if !ok || string(e) == "null" || string(e) == "false" {
		return out // the plain gate already reported it
	}
	mode := "form"
	if v, ok := findMember(f.Params, "mode"); ok {
		mode, _ = stringValue(v)
	}
	_, hasForm := findMember(e, "form")
	_, hasURL := findMember(e, "url")
	if !hasForm && !hasURL {
		hasForm = true
	}
	switch {
	case mode == "url" && !hasURL:
		out = append(out, NewFinding(FindCapability,
			"elicitation/create in url mode, but the client's elicitation capability does not include url"))
	case mode == "form" && !hasForm:
		out = append(out, NewFinding(FindCapability,
			"elicitation/create in form mode, but the client's elicitation capability does not include form"))
	}
	return out
}

// Declared reports whether a capability gate ("server:tasks.requests.tools.call",
// "server:extensions.io.modelcontextprotocol/tasks") is declared in c; unknown
// capabilities count as not declared.
func Declared(c CheckContext, gate string) bool {
	side, path, _ := strings.Cut(gate, ":")
	ok, _ := capDeclared(c, side, path)
	return ok
}
