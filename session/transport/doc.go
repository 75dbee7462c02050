// Package transport moves MCP frames between mcpscope and a server without hiding anything:
// stdio (a spawned child process), Streamable HTTP, and the older HTTP+SSE transport. Every
// received frame is reported with its exact bytes; stderr lines, HTTP exchanges, stream notes
// and process exit are reported too. Transports never parse JSON-RPC meaning; that is the
// session's job.
package transport
