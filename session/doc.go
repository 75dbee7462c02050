// Package session is a live conversation with one MCP server. It runs the handshake of
// either protocol era (initialize, or the stateless server/discover with per-request _meta),
// matches requests to responses, tracks progress, cancellation and timeouts, answers
// server→client requests (and 2026-07-28 input_required results) through a Responder, and
// publishes one ordered stream of events: every frame both ways with its exact bytes, stderr
// lines, HTTP exchanges, transport notes, state changes and errors.
//
// The session imports no UI. The headless CLI, the TUI and the recorder are consumers of the
// same API: Subscribe for events, Call / Notify / SendRaw to act.
package session
