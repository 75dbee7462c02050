// Package serve is mcpscope as an MCP server: a front end over the session API, like the
// command line and the interactive view, that a coding agent drives with tools.
//
// An agent connects to the server under development (connect: the same selection as the
// command line), calls it (list, call_tool, read_resource, get_prompt, complete, send_raw),
// reads what went over the wire (timeline, filtered with the view's query language; frame,
// the exact bytes of one event), runs check, and pins and diffs definitions. Each answer
// that made a request carries the server's result and the exchange: the seqs of the request
// and response events, the latency and the findings on those frames.
//
// # Sessions
//
// Each session has an id (s1, s2 …) and is recorded, masked as every recording is, in a
// file of its own in the recordings directory, so the user can open it with mcpscope open
// afterwards. check's own sessions are recorded too. A session's timeline is a
// traffic.History fed by a lossy subscription, bounded in bytes; a frame that left memory
// or was held cut is read back from the recording.
//
// Sessions belong to the serve process, not to one client: over HTTP every client holding
// the token sees them. At most 16 are open at once; each timeline holds 32 MiB of frames.
//
// # Questions, logins, reconnects
//
// A session's Responder is an asker (asker.go): with policy ask (the default) elicitation
// and sampling are parked as questions, across sessions, until the agent answers them
// (pending, answer) or they expire. Every request runs on its own (calls.go): the tool
// returns its outcome, or, when a question of its session arrives (or wait_ms passes), the
// call's id, whose outcome await_call gives; a call's timeout does not run out while its
// server waits on the agent. A login presents its URL to the agent instead of a browser
// (login.go): connect returns pending_auth and the handshake goes on; await_auth waits for
// it. With reconnect (reconnect.go), a call on a session whose server ended starts a new
// session on the same target, its seqs numbered on, recorded in the same file as the next
// generation. tools_mcp.go, tools_skills.go and tools_events.go reach tasks, roots,
// logging, subscriptions, skills and events (a push stream is read for a bounded time and
// count, then closed; the cursor it returns resumes it).
//
// # What leaves
//
// Every result is masked twice: events as recordings mask them (recordings.Redactor, so a
// frame's bytes equal the recording's), and then the whole result with the secrets of every
// session opened (the bearer token, -e values, secret -H values) and secret shapes.
// Results are bounded: lists page with the server's cursor, the timeline with a seq, a
// frame with a byte offset, and a result larger than its bound is replaced by a pointer to
// the response frame.
//
// # Transports
//
// ServeStdio serves one client on a pair of streams. Handler serves Streamable HTTP: a
// request whose MCP-Protocol-Version is 2026-07-28 or later is served statelessly, any
// other belongs to a stateful session, as the demo server does. The command (ui/cli
// serve.go) listens on loopback unless told otherwise and puts Handler behind a bearer
// token (RequireToken).
//
// On stdio, a response to a request the client cancelled is not written (cancelled.go), as
// the spec asks and the SDK does not do by itself.
//
// The package imports no Bubble Tea code; it uses ui/traffic for the timeline's model and
// filter.
package serve
