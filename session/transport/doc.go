// Package transport moves MCP frames between mcpscope and a server without hiding anything:
// stdio (a spawned child process), Streamable HTTP, and the older HTTP+SSE transport. Every
// received frame is reported with its exact bytes; stderr lines, HTTP exchanges, stream notes
// and process exit are reported too. Transports never parse JSON-RPC meaning; that is the
// session's job.
//
// # The transports
//
//   - Stdio (stdio*.go): a child spawned through StartProcess, its stdout and stderr cut
//     into lines by the lines subpackage (stdio_read.go), which the tap uses too; the last
//     StderrKeep stderr lines in the exit status. Close is stdin, grace, SIGTERM, grace,
//     SIGKILL, on the process group and, on Linux, on every descendant.
//   - StreamableHTTP (streamable*.go): POST with JSON or SSE bodies, the session id and
//     protocol headers, the standalone GET stream, resumption with Last-Event-ID, DELETE on
//     close, and the 2026-07-28 Mcp-Method and Mcp-Name headers. Over HTTP/1.1 a POST
//     waits for a notification's 202, or for a stream that already delivered its
//     response to end, and takes that connection; never past reuseWait after the latest
//     such exchange began (streamable_reuse.go).
//   - LegacySSE (legacysse.go): HTTP+SSE, 2024-11-05.
//   - AutoHTTP (auto.go): Streamable HTTP, falling back to HTTP+SSE when the initialize
//     POST gets a 4xx.
//
// Each reports to a Sink: frames with their bytes, stderr lines, HTTP exchanges (secrets
// masked at the source), notes, exit. The sse subpackage parses event streams.
//
// # Spawned processes
//
// StartProcess is the one way a stdio server is spawned, for sessions and for the tap.
// Nothing the server starts may outlive mcpscope, on any exit path, kill -9 included. On
// Linux the server runs under a supervisor: mcpscope's own executable run again through
// /proc/self/exe (see package supervise). The supervisor reaps every child itself, so
// mcpscope never reaps processes it did not start. A subreaper inside mcpscope would race
// os/exec's own waits for the pager, the editor and other children.
//
// Why a process rather than pidfds or Pdeathsig alone: nothing in mcpscope runs after a
// SIGKILL, and Pdeathsig reaches only the direct child (npx, not node). Cleanup after
// kill -9 needs a process that outlives mcpscope and is an ancestor of everything to kill.
// Without /proc, and on other systems, the server is mcpscope's own child in its own group.
//
// # Redirects
//
// The HTTP transports follow redirects themselves (redirect.go): the client's
// CheckRedirect hands every 3xx back. Each hop is its own HTTPExchange with Hop and a
// Redirect (Location, cross-origin, followed, what was withheld or forwarded, why not
// followed). Credentials (-H headers, the bearer token, the Authorizer) are added per hop,
// only on the origin of the URL given, or everywhere with FollowRedirectsWithCredentials.
// The session turns a Redirect into findings on the EvHTTP event.
//
// # Reaching the server
//
// The HTTP transports also say what they know of reaching the server, in NoteLink notes:
// "reconnecting N/M" while an event stream waits to reconnect after a failure (M is
// HTTPOptions.ReconnectLimit, 5 by default), "unreachable" when a request got no answer at
// all or a stream gave up after failed reconnections, "reachable" when an answer came
// again. A request the session gave up on (Abandoner) keeps its stream until it ends, but
// the stream is not resumed.
//
// # Authorization
//
// An Authorizer (package auth's Flow) adds credentials to each request and is told of 401
// and 403 answers; the transport retries a request once after each. The transport hands
// it an AuthExchanger when it starts (AuthBinder). AuthExchange sends the flow's own
// requests through the transport's client: it follows redirects, bounds the time
// (AuthTimeout, 30 s) and the answer (1 MiB), and masks the body heads.
//
// # Goroutines
//
// A transport owns its reader goroutines (stdout and stderr, or the HTTP streams). They
// report to the Sink and end when the transport closes. A Sink may block a reader: that is
// how a full lossless queue slows the server down.
package transport
