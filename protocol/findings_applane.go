package protocol

// Findings of the app↔host conversation of MCP Apps (the postMessage lane between an
// app's view and the host, io.modelcontextprotocol/ui 2026-01-26). The session raises them
// as it pairs the lane's messages (session/applane.go).
const (
	FindAppBeforeInitialize = "app.before-initialize" // the view sent a request before ui/initialize, or the host sent one before initialized
	FindAppUnknownMethod    = "app.unknown-method"    // a method the extension does not define for that side
	FindAppUnknownID        = "app.unknown-id"        // a response on the app lane that answers no request
	FindAppRefused          = "app.refused"           // the host refused the view's request (visibility, or the user said no)
	FindAppCSPRefused       = "app.csp-refused"       // the host left a declared CSP source out of the view's policy
	FindAppCSPViolation     = "app.csp-violation"     // the view's policy blocked something the view did (securitypolicyviolation)
)

// appLaneFindings are the codes of the app↔host lane, a part of
// the one finding table (findingTable, findings.go).
func appLaneFindings() map[string]findingInfo {
	return map[string]findingInfo{
		FindAppBeforeInitialize: {SevWarning, "MCP Apps: the view starts with ui/initialize and " +
			"ui/notifications/initialized, and the host MUST NOT send any request or notification " +
			"to the view before it receives initialized. This message came before that handshake " +
			"(apps.mdx, Sandbox proxy and Lifecycle)."},
		FindAppUnknownMethod: {SevWarning, "MCP Apps defines the methods a view and a host exchange " +
			"over postMessage: ui/* requests and notifications, and the MCP subset tools/call, " +
			"resources/read, notifications/message and ping. This method is not one of them for " +
			"the side that sent it (apps.mdx, Standard MCP Messages and MCP Apps Specific Messages)."},
		FindAppUnknownID: {SevWarning, "This response on the app↔host lane answers no request " +
			"that was waiting. Responses MUST carry the id of the request they answer."},
		FindAppRefused: {SevInfo, "The host refused the view's request: a tools/call of a tool " +
			"whose visibility does not include \"app\" (the host MUST reject it, apps.mdx, " +
			"Visibility), or a request the user declined."},
		FindAppCSPRefused: {SevWarning, "The resource's _meta.ui.csp declares a source that mcpscope " +
			"leaves out of the view's policy: a loopback, private or link-local address or name " +
			"(the user's other local web apps), every origin (\"*\", a scheme alone, a port " +
			"wildcard, a wildcard over a top-level domain) or text that is not a host source. " +
			"A host MAY restrict further than declared (apps.mdx, Host Behavior: No Loosening)."},
		FindAppCSPViolation: {SevWarning, "The view's Content-Security-Policy blocked something the view " +
			"did (the browser's securitypolicyviolation event, heard by mcpscope's sandbox page): a script, " +
			"a connection, a worker or eval that the policy does not allow. Under the spec's default " +
			"policy (no declared csp) a view gets no eval, no blob: scripts and no connections; hosts " +
			"differ (the ext-apps reference host allows eval and blob:), so an app that needs more than " +
			"it declares works on some hosts and fails on others (apps.mdx, Content Security Policy). " +
			"mcpscope app and the inspector take --csp reference to host it as the reference host does."},
	}
}
