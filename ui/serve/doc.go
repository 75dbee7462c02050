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
