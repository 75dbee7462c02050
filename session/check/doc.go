// Package check exercises an MCP server and reports what it does wrong: the handshake,
// every list to its last page, each definition (tools, prompts, resources, templates), the
// calls that are safe to make, the server's error behaviour, cancellation and latency. Each
// finding has a severity, the section of the negotiated revision's specification it rests
// on and the frames that show it. The rules that look at one definition or one answer live
// in package protocol; this package drives a session and collects the evidence.
package check
