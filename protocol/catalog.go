package protocol

import "slices"

// MethodSpec describes one method in one direction. A method both sides may send (ping,
// notifications/cancelled, notifications/progress, the tasks/* methods) has one MethodSpec
// per direction.
type MethodSpec struct {
	Name         string
	Notification bool      // a notification (no id, no response) rather than a request
	From         Direction // who sends it
	// Capability names the gate that must have been declared for the method to be used:
	// "server:tools" means the server's capabilities contain "tools";
	// "server:resources.subscribe" means capabilities.resources.subscribe is present and
	// not false. For requests the gate is the receiver's capability; for notifications it
	// is usually the sender's (a server announces tools/list_changed only if it declared
	// tools.listChanged). "" means ungated.
	Capability string
	Since      Revision // first revision that has it
	Until      Revision // first revision that no longer has it; "" = still present
	// Extension names the protocol extension that defines the method ("" for the core
	// protocol); such methods are not in the revision's own schema.
	Extension string
}

// TasksExtension is the identifier of the tasks extension of 2026-07-28 (SEP-2663), the
// key under capabilities.extensions that each side declares.
const TasksExtension = "io.modelcontextprotocol/tasks"

// tasksGate is the capability gate of the tasks extension's methods.
const tasksGate = "server:extensions." + TasksExtension

// In reports whether the method exists in rev.
func (m MethodSpec) In(rev Revision) bool {
	return rev.Known() && rev.atLeast(m.Since) && (m.Until == "" || rev < m.Until)
}

const (
	c2s = ClientToServer
	s2c = ServerToClient
)

// catalog is every method of every known revision, checked against the official schemas by
// the package tests. Request and notification unions come from each schema's ClientRequest,
// ClientNotification, ServerRequest and ServerNotification definitions.
var catalog = []MethodSpec{
	// Lifecycle and utilities.
	{Name: "initialize", From: c2s, Since: Rev20241105, Until: Rev20260728},
	{Name: "notifications/initialized", Notification: true, From: c2s, Since: Rev20241105, Until: Rev20260728},
	{Name: "ping", From: c2s, Since: Rev20241105, Until: Rev20260728},
	{Name: "ping", From: s2c, Since: Rev20241105, Until: Rev20260728},
	{Name: "notifications/cancelled", Notification: true, From: c2s, Since: Rev20241105},
	// 2026-07-28 keeps the server→client form only to end a subscriptions/listen stream on stdio.
	{Name: "notifications/cancelled", Notification: true, From: s2c, Since: Rev20241105},
	{Name: "notifications/progress", Notification: true, From: c2s, Since: Rev20241105, Until: Rev20260728},
	{Name: "notifications/progress", Notification: true, From: s2c, Since: Rev20241105},
	{Name: "server/discover", From: c2s, Since: Rev20260728},
	{Name: "subscriptions/listen", From: c2s, Since: Rev20260728},
	{Name: "notifications/subscriptions/acknowledged", Notification: true, From: s2c, Since: Rev20260728},

	// Server features.
	{Name: "resources/list", From: c2s, Capability: "server:resources", Since: Rev20241105},
	{Name: "resources/templates/list", From: c2s, Capability: "server:resources", Since: Rev20241105},
	{Name: "resources/read", From: c2s, Capability: "server:resources", Since: Rev20241105},
	{Name: "resources/subscribe", From: c2s, Capability: "server:resources.subscribe", Since: Rev20241105, Until: Rev20260728},
	{Name: "resources/unsubscribe", From: c2s, Capability: "server:resources.subscribe", Since: Rev20241105, Until: Rev20260728},
	{Name: "notifications/resources/list_changed", Notification: true, From: s2c, Capability: "server:resources.listChanged", Since: Rev20241105},
	{Name: "notifications/resources/updated", Notification: true, From: s2c, Capability: "server:resources.subscribe", Since: Rev20241105},
	{Name: "prompts/list", From: c2s, Capability: "server:prompts", Since: Rev20241105},
	{Name: "prompts/get", From: c2s, Capability: "server:prompts", Since: Rev20241105},
	{Name: "notifications/prompts/list_changed", Notification: true, From: s2c, Capability: "server:prompts.listChanged", Since: Rev20241105},
	{Name: "tools/list", From: c2s, Capability: "server:tools", Since: Rev20241105},
	{Name: "tools/call", From: c2s, Capability: "server:tools", Since: Rev20241105},
	{Name: "notifications/tools/list_changed", Notification: true, From: s2c, Capability: "server:tools.listChanged", Since: Rev20241105},
	{Name: "logging/setLevel", From: c2s, Capability: "server:logging", Since: Rev20241105, Until: Rev20260728},
	{Name: "notifications/message", Notification: true, From: s2c, Capability: "server:logging", Since: Rev20241105},
	// 2024-11-05 had completion/complete but no completions capability to gate it.
	{Name: "completion/complete", From: c2s, Since: Rev20241105, Until: Rev20250326},
	{Name: "completion/complete", From: c2s, Capability: "server:completions", Since: Rev20250326},

	// Client features (server→client requests; 2026-07-28 moved them into
	// InputRequiredResult, so they are no longer JSON-RPC requests there).
	{Name: "sampling/createMessage", From: s2c, Capability: "client:sampling", Since: Rev20241105, Until: Rev20260728},
	{Name: "roots/list", From: s2c, Capability: "client:roots", Since: Rev20241105, Until: Rev20260728},
	{Name: "notifications/roots/list_changed", Notification: true, From: c2s, Capability: "client:roots.listChanged", Since: Rev20241105, Until: Rev20260728},
	{Name: "elicitation/create", From: s2c, Capability: "client:elicitation", Since: Rev20250618, Until: Rev20260728},
	{Name: "notifications/elicitation/complete", Notification: true, From: s2c, Capability: "client:elicitation.url", Since: Rev20251125, Until: Rev20260728},

	// Tasks (2025-11-25, experimental; an extension from 2026-07-28). Either side may be the
	// requestor, so each method exists in both directions, gated by the receiver.
	{Name: "tasks/get", From: c2s, Capability: "server:tasks", Since: Rev20251125, Until: Rev20260728},
	{Name: "tasks/result", From: c2s, Capability: "server:tasks", Since: Rev20251125, Until: Rev20260728},
	{Name: "tasks/list", From: c2s, Capability: "server:tasks.list", Since: Rev20251125, Until: Rev20260728},
	{Name: "tasks/cancel", From: c2s, Capability: "server:tasks.cancel", Since: Rev20251125, Until: Rev20260728},
	{Name: "tasks/get", From: s2c, Capability: "client:tasks", Since: Rev20251125, Until: Rev20260728},
	{Name: "tasks/result", From: s2c, Capability: "client:tasks", Since: Rev20251125, Until: Rev20260728},
	{Name: "tasks/list", From: s2c, Capability: "client:tasks.list", Since: Rev20251125, Until: Rev20260728},
	{Name: "tasks/cancel", From: s2c, Capability: "client:tasks.cancel", Since: Rev20251125, Until: Rev20260728},
	{Name: "notifications/tasks/status", Notification: true, From: c2s, Capability: "client:tasks", Since: Rev20251125, Until: Rev20260728},
	{Name: "notifications/tasks/status", Notification: true, From: s2c, Capability: "server:tasks", Since: Rev20251125, Until: Rev20260728},
	// The tasks extension of 2026-07-28: server-directed task creation, results inlined in
	// tasks/get, input through tasks/update; no tasks/result or tasks/list.
	{Name: "tasks/get", From: c2s, Capability: tasksGate, Since: Rev20260728, Extension: TasksExtension},
	{Name: "tasks/update", From: c2s, Capability: tasksGate, Since: Rev20260728, Extension: TasksExtension},
	{Name: "tasks/cancel", From: c2s, Capability: tasksGate, Since: Rev20260728, Extension: TasksExtension},
	{Name: "notifications/tasks", Notification: true, From: s2c, Capability: tasksGate, Since: Rev20260728, Extension: TasksExtension},
}

// Lookup returns the spec of method sent by from in rev.
func Lookup(rev Revision, method string, from Direction) (MethodSpec, bool) {
	for _, m := range catalog {
		if m.Name == method && m.From == from && m.In(rev) {
			return m, true
		}
	}
	return MethodSpec{}, false
}

// Methods returns every method of rev, in catalog order (a fresh slice).
func Methods(rev Revision) []MethodSpec {
	var out []MethodSpec
	for _, m := range catalog {
		if m.In(rev) {
			out = append(out, m)
		}
	}
	return out
}

// contentTypes lists the content block types of tool results (and prompt messages) per
// revision, with the revision that introduced each.
var contentTypes = []struct {
	name  string
	since Revision
}{
	{"text", Rev20241105},
	{"image", Rev20241105},
	{"resource", Rev20241105},
	{"audio", Rev20250326},
	{"resource_link", Rev20250618},
}

// ContentTypes returns the content block types ("text", "image", …) that a tools/call
// result may carry in rev; a block of another type gets FindUnknownContent.
func ContentTypes(rev Revision) []string {
	var out []string
	for _, c := range contentTypes {
		if rev.Known() && rev.atLeast(c.since) {
			out = append(out, c.name)
		}
	}
	return out
}

// KnownContentType reports whether t is a content block type of rev.
func KnownContentType(rev Revision, t string) bool { return slices.Contains(ContentTypes(rev), t) }

// ContentBlockTypes returns the "type" of every content block in a tools/call result
// ("content": [...]) or a prompts/get result ("messages": [{"content": {...}}]), scanning the
// raw JSON without decoding it. A malformed result yields none.
func ContentBlockTypes(result []byte) []string {
	var out []string
	blockType := func(v []byte) {
		if t, ok := findMember(v, "type"); ok {
			if s, ok := stringValue(t); ok {
				out = append(out, s)
			}
		}
	}
	if content, ok := findMember(result, "content"); ok {
		eachElement(content, blockType)
	}
	if msgs, ok := findMember(result, "messages"); ok {
		eachElement(msgs, func(m []byte) {
			if c, ok := findMember(m, "content"); ok {
				blockType(c)
			}
		})
	}
	return out
}

// eachElement calls fn with each element of a JSON array span.
func eachElement(arr []byte, fn func([]byte)) {
	i := skipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return
	}
	i = skipSpace(arr, i+1)
	for i < len(arr) && arr[i] != ']' {
		end, err := skipValue(arr, i)
		if err != nil {
			return
		}
		fn(arr[i:end])
		i = skipSpace(arr, end)
		if i < len(arr) && arr[i] == ',' {
			i = skipSpace(arr, i+1)
		}
	}
}

// NotServed reports whether an error answer to a list request means that the server has
// none of that list rather than that the request failed: -32601 (method not found) to
// resources/templates/list. The resources capability covers both resources and their
// templates, and servers with resources but no templates (server-postgres) answer so.
// Everything that lists treats such a server as having no templates: check warns, pins and
// diffs compare the rest, the view counts no error.
func NotServed(method string, code int64) bool {
	return method == "resources/templates/list" && code == MethodNotFound
}
