// Package demo is the MCP server that mcpscope runs when it is started
// without a target. It exists so that a newcomer has something real to
// inspect: every server feature of the Model Context Protocol is exercised,
// and the server speaks both protocol eras.
//
// The stateful era (revisions 2024-11-05 through 2025-11-25) starts with the
// initialize handshake; the server may then send requests of its own
// (elicitation/create, sampling/createMessage, roots/list) while handling a
// tool call. The stateless era (revision 2026-07-28) has no handshake: the
// client may call server/discover, every request carries its protocol
// version, client capabilities and client info in _meta, and a tool that
// needs input from the client answers with an input_required result whose
// inputRequests the client fulfils before retrying the call with
// inputResponses and the echoed requestState.
//
// The tools that need client input (ask_user, ask_url, summarize,
// list_roots) are written once, in the multi-round-trip style. For a
// stateful-era client the SDK turns their input requests into real
// server→client requests and re-invokes the handler with the answers; for a
// stateless-era client the input_required result goes on the wire as is.
// In a session of a revision that lacks what a tool sends (audio content
// before 2025-03-26, resource links and form elicitation before 2025-06-18,
// URL elicitation before 2025-11-25) the tool answers with a tool error.
//
// url_required (urlrequired.go) answers the 2025-11-25 error -32042, URL
// elicitation required, until the page named in error.data has been visited:
// the demo serves that page itself on 127.0.0.1 and sends
// notifications/elicitation/complete when it is opened, so a client's retry
// can be watched without a third party.
//
// The demo keeps the spec's promises where the SDK beneath it does not, so
// that mcpscope check finds nothing: on stdio no response follows a request
// the client cancelled; a missing resource gets -32002 before 2026-07-28; an
// unknown method on stateful Streamable HTTP gets -32601, not HTTP 400.
//
// Transports: [ServeStdio] serves newline-delimited JSON-RPC over a pair of
// streams, [ServeHTTP] serves Streamable HTTP at /mcp (stateful sessions for
// the older revisions, stateless requests for 2026-07-28, chosen by the
// MCP-Protocol-Version header) and the legacy HTTP+SSE transport at /sse.
// Each request handled writes one short human line to the stderr writer, so
// a debugger has a stderr pane worth looking at. Over HTTP the demo also serves
// its server card (card.go) at /mcp/server-card, the location the Server Cards
// extension reserves, and lists it in an AI Catalog at
// /.well-known/ai-catalog.json; the card names the demo's serverInfo, the
// revisions it speaks and the /mcp endpoint at the host the client asked.
//
// [ServeHTTPAuth] and [AuthHandler] serve the same endpoints as an OAuth 2.1
// protected resource with the demo's own authorization server (metadata,
// dynamic registration, Client ID Metadata Documents, PKCE, refresh tokens,
// a tool that needs more scope), so that a client's authorization can be
// watched and tested locally.
//
// # The authorization server
//
// demo --http --auth puts authServer in front of the demo's handler. authserver.go holds
// the options, routes and metadata documents; authserver_authorize.go the authorization
// endpoint and its pages; authserver_token.go the token endpoint (code with PKCE, refresh
// with rotation, client authentication) and token checks; authserver_clients.go dynamic
// registration and Client ID Metadata Documents; authserver_guard.go the resource guard
// and the whoami and admin_stats tools; authserver_store.go the bounded maps and secret
// hashes. Codes and tokens are looked up by a prefix of their SHA-256, and the whole hash
// is compared in constant time.
//
// The guard reads a POST body whole (at most 16 MiB) to see whether it calls admin_stats
// (batches included) before the SDK does. It then passes the token information through
// the SDK's auth.RequireBearerToken, so tools find it in CallToolRequest.Extra.TokenInfo.
// Some choices are strict on purpose, since the server exists to test clients: resource is
// required at /authorize, any failed redemption spends the code, and refresh tokens go
// only to clients that list the refresh_token grant.
package demo
