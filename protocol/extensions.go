package protocol

// ExtensionMethod is a method that an extension defines rather than a revision: it is
// part of the conversation when the server declared the extension under
// capabilities.extensions (from 2026-07-28), and needs the extension's setting when one
// is named.
type ExtensionMethod struct {
	Name      string
	From      Direction
	Extension string // the extension identifier, e.g. io.modelcontextprotocol/skills
	Setting   string // a boolean setting of the extension the method also needs; "" for none
}

// extensionMethods lists the methods of the extensions mcpscope knows.
var extensionMethods = []ExtensionMethod{
	{Name: "skills/list", From: c2s, Extension: "io.modelcontextprotocol/skills"},
	{Name: "skills/get", From: c2s, Extension: "io.modelcontextprotocol/skills"},
	{Name: "resources/directory/read", From: c2s, Extension: "io.modelcontextprotocol/skills", Setting: "directoryRead"},
	{Name: "events/list", From: c2s, Extension: EventsExtension},
	{Name: "events/poll", From: c2s, Extension: EventsExtension},
	{Name: "events/stream", From: c2s, Extension: EventsExtension},
	{Name: "events/subscribe", From: c2s, Extension: EventsExtension},
	{Name: "events/unsubscribe", From: c2s, Extension: EventsExtension},
	{Name: "notifications/events/active", From: s2c, Extension: EventsExtension},
	{Name: "notifications/events/heartbeat", From: s2c, Extension: EventsExtension},
	{Name: "notifications/events/event", From: s2c, Extension: EventsExtension},
	{Name: "notifications/events/error", From: s2c, Extension: EventsExtension},
	{Name: "notifications/events/terminated", From: s2c, Extension: EventsExtension},
	{Name: "notifications/events/list_changed", From: s2c, Extension: EventsExtension, Setting: "listChanged"},
}

// EventsExtension identifies the Events extension (SEP-3415).
const EventsExtension = "io.modelcontextprotocol/events"

// LookupExtension returns the extension method sent by from, if method is one.
func LookupExtension(method string, from Direction) (ExtensionMethod, bool) {
	for _, m := range extensionMethods {
		if m.Name == method && m.From == from {
			return m, true
		}
	}
	return ExtensionMethod{}, false
}

// checkExtensionMethod flags an extension method that the server did not declare (or
// whose setting it did not turn on). Capabilities not known yet are not checked.
func checkExtensionMethod(out []Finding, m ExtensionMethod, c CheckContext) []Finding {
	caps := c.ServerCaps
	if caps == nil {
		return out
	}
	exts, _ := findMember(caps, "extensions")
	ext, declared := findMember(exts, m.Extension)
	if declared && string(ext) != "null" && string(ext) != "false" {
		if m.Setting == "" {
			return out
		}
		if v, ok := findMember(ext, m.Setting); ok && string(v) == "true" {
			return out
		}
		return append(out, NewFinding(FindCapability, "%s needs the %s extension's %s setting, which the server did not turn on",
			m.Name, m.Extension, m.Setting))
	}
	return append(out, NewFinding(FindCapability, "%s belongs to the %s extension, which the server did not declare",
		m.Name, m.Extension))
}
