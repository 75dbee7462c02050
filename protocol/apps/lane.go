package apps

// The methods of the app↔host conversation (apps.mdx, "Standard MCP Messages", "MCP Apps
// Specific Messages", "Reserved Messages (Sandbox Proxy)"), as data: who sends each, and
// whether it is a request or a notification.

// ProtocolVersion is the revision of the extension the host speaks in ui/initialize.
const ProtocolVersion = "2026-01-26"

// Method names of the app↔host conversation.
const (
	MethodInitialize         = "ui/initialize"
	MethodInitialized        = "ui/notifications/initialized"
	MethodToolInput          = "ui/notifications/tool-input"
	MethodToolInputPartial   = "ui/notifications/tool-input-partial"
	MethodToolResult         = "ui/notifications/tool-result"
	MethodToolCancelled      = "ui/notifications/tool-cancelled"
	MethodOpenLink           = "ui/open-link"
	MethodMessage            = "ui/message"
	MethodRequestDisplayMode = "ui/request-display-mode"
	MethodUpdateModelContext = "ui/update-model-context"
	MethodSizeChanged        = "ui/notifications/size-changed"
	MethodHostContextChanged = "ui/notifications/host-context-changed"
	MethodResourceTeardown   = "ui/resource-teardown"
	MethodSandboxProxyReady  = "ui/notifications/sandbox-proxy-ready"
	MethodSandboxResource    = "ui/notifications/sandbox-resource-ready"
)

// Side is one end of the app↔host conversation.
type Side uint8

const (
	FromView Side = iota + 1 // the app's view (or its sandbox proxy) to the host
	FromHost                 // the host to the view (or the sandbox proxy)
)

// LaneMethod is one method of the conversation.
type LaneMethod struct {
	From    Side
	Request bool // a request (answered); false: a notification
}

var laneMethods = map[string]LaneMethod{
	MethodInitialize:         {FromView, true},
	MethodInitialized:        {FromView, false},
	MethodOpenLink:           {FromView, true},
	MethodMessage:            {FromView, true},
	MethodRequestDisplayMode: {FromView, true},
	MethodUpdateModelContext: {FromView, true},
	MethodSizeChanged:        {FromView, false},
	MethodSandboxProxyReady:  {FromView, false},
	"tools/call":             {FromView, true},
	"resources/read":         {FromView, true},
	"notifications/message":  {FromView, false},

	MethodToolInput:          {FromHost, false},
	MethodToolInputPartial:   {FromHost, false},
	MethodToolResult:         {FromHost, false},
	MethodToolCancelled:      {FromHost, false},
	MethodHostContextChanged: {FromHost, false},
	MethodResourceTeardown:   {FromHost, true},
	MethodSandboxResource:    {FromHost, false},
}

// LookupLane says whether method is defined for a message sent by from. ping goes either
// way.
func LookupLane(method string, from Side) (LaneMethod, bool) {
	if method == "ping" {
		return LaneMethod{From: from, Request: true}, true
	}
	m, ok := laneMethods[method]
	if !ok || m.From != from {
		return m, false
	}
	return m, true
}

// IsSandboxMessage reports whether method is one of the sandbox proxy's own messages,
// which the proxy does not forward (apps.mdx, Sandbox proxy, 6).
func IsSandboxMessage(method string) bool {
	return len(method) > len("ui/notifications/sandbox-") && method[:len("ui/notifications/sandbox-")] == "ui/notifications/sandbox-"
}
