// Package recordings is mcpscope's session file format and what is built on it.
//
// A recording is JSONL: a header line (Header) and then one line per session event in the
// EventJSON form used by --trace, plus "mono_ns", the event's time on the monotonic clock
// relative to the first recorded event. Frames keep their exact bytes ("raw", or
// "raw_base64" when they are not UTF-8), so malformed traffic survives a round trip.
//
//   - Writer appends events as they happen, one write per line, so a recording cut short
//     (kill -9) is valid up to its last whole line. Secrets are masked unless told otherwise.
//   - Reader indexes a recording without holding its lines in memory and decodes events on
//     demand; truncated and corrupt lines are reported, not fatal.
//   - Replay re-sends a recording's client requests to a live session, answers the server's
//     requests from the recording, and compares each response with the recorded one (Diff).
//   - Mock serves a recording as an MCP server, over stdio or Streamable HTTP.
//   - Tap sits between a real host and a server (stdio, or a Streamable HTTP reverse proxy),
//     forwarding the bytes unchanged while recording them and streaming the recording's lines
//     to viewers over a per-user unix socket (Dial, ListTaps).
package recordings
