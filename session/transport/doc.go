// Package transport moves MCP frames between mcpscope and a server without hiding anything:
// stdio (a spawned child process), Streamable HTTP, and the older HTTP+SSE transport. Every
// received frame is reported with its exact bytes; stderr lines, HTTP exchanges, stream notes
// and process exit are reported too. Transports never parse JSON-RPC meaning; that is the
// session's job.
//
// The HTTP transports also say what they know of reaching the server, in NoteLink notes:
// "reconnecting N/M" while an event stream waits to reconnect after a failure (M is
// HTTPOptions.ReconnectLimit, 5 by default), "unreachable" when a request got no answer at
// all or a stream gave up after failed reconnections, "reachable" when an answer came
// again. A request the session gave up on (Abandoner) keeps its stream until it ends, but
// the stream is not resumed.
package transport
