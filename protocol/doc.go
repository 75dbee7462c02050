// Package protocol holds the bytes and the meaning of MCP traffic: a lenient JSON-RPC 2.0
// frame decoder that keeps the exact raw text, findings (spec violations as data), and a
// catalog of the MCP revisions (which methods exist, in which direction, behind which
// capability). It does no I/O and starts no goroutines.
package protocol
