// Package apphost hosts one MCP App (io.modelcontextprotocol/ui, 2026-01-26) in the user's
// browser, with mcpscope as the host.
//
// Start reads the tool's ui:// resource through the live session and serves, on 127.0.0.1
// only, two origins: the host page and the sandbox proxy, the double-iframe pattern the
// spec requires of a web host (apps.mdx, "Sandbox proxy"). Each is a port under a random
// name of .localhost (host-….localhost, sandbox-….localhost), which browsers resolve to
// loopback (RFC 6761) and count as a site of its own: cookies ignore ports, so on
// 127.0.0.1 an app would share the site, and the cookies, of every other web app on the
// machine. The address mcpscope opens (URL) carries a one-time token: the first load
// exchanges it for the page's cookie (HttpOnly, SameSite=Strict, host-only), and the token
// opens nothing after, so the browser's command line, which other local users can read,
// holds a spent token. Every later request of the host page needs the cookie; the sandbox
// page needs a token of its own that only the host page is given. A request without them,
// or with a Host header other than the name, is refused. /post reads at most
// MaxConcurrentPosts messages at once (the page relays one at a time) and answers 429
// beyond. The sandbox page is served with the
// Content-Security-Policy built from the resource's declaration (apps.CSP.Policy, the
// spec's restrictive default when it declares none) less the sources CheckCSP refuses
// (loopback, private and link-local addresses and names, every origin: "*", a scheme
// alone, a port wildcard; each noted with app.csp-refused on the lane), with object-src
// 'none' and webrtc 'block' (CSP Level 3: WebRTC is not governed by CSP where a browser does
// not know the directive; WebRTCNote says so wherever the policy is shown). The view is
// loaded into it with srcdoc, so it inherits that policy. Config.CSP "reference" builds
// the policy as the ext-apps reference host does instead (csp_mode.go: eval, blob: and data:
// scripts, workers). What the policy blocks is heard by the sandbox page
// (securitypolicyviolation) and published on the lane with app.csp-violation (violation.go).
//
// The pages are plain JavaScript written for mcpscope (no SDK): the host page relays every
// postMessage of the sandbox to mcpscope with fetch, one at a time and in order, and posts
// what mcpscope sends it over an event stream. So the Go side decides every answer, and
// every message either way is published on the session's app lane (session.AppLane):
// paired by id, checked, recorded, traced and exported like a frame. A message from the
// view is the JSON.stringify of the object it posted (postMessage carries objects, not
// text); one to the view is the exact text mcpscope wrote, which the page parses.
//
// The host side of the protocol (dispatch.go): ui/initialize is answered with the host
// context (theme, display mode, container size, the tool's info) and capabilities; after
// ui/notifications/initialized the host sends the tool input and then the result (or
// tool-cancelled). The view's tools/call (refused when the tool's visibility leaves out
// "app") and resources/read go through the session, marked as the app's (session.FromApp).
// ui/open-link and ui/message are put to the user through Config.Ask and never acted on
// silently (a link that is not an absolute http(s) URL, browser.Check, is refused as an
// invalid URL without asking); the question's context ends with the host, or when the app cancels the request
// (notifications/cancelled, which then gets no answer: cancel.go). ui/update-model-context is shown through Config.Notice. Close sends
// ui/resource-teardown and waits, boundedly, for its answer.
//
// The page counts as gone when it says so (a beacon on pagehide) or when its event stream
// closes without a word (the browser exited, crashed or was killed): unless a page connects
// again within 2 s (a reload), Closed is closed, Why says which, and a row on the app lane
// (session.NoteAppEnded) says it in the timeline. A page that connects voids every earlier
// sign of going, so reloads less than 2 s apart keep the host.
//
// The package imports no UI: the command line (ui/cli, "mcpscope app") gives it the asker
// and the browser opener.
package apphost
