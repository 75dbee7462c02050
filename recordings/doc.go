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
//
// # Crash safety
//
// Writer.WriteGen encodes one event into one line and writes it with a single write, with
// nothing buffered between events; a process killed mid-session leaves a file valid up to
// its last whole line. Writer.Record drains a lossless subscription on a goroutine of its
// own, so a server faster than the disk is slowed rather than recorded with holes.
// IndexFrames keeps where large frames' lines are; Locate and ReadAt read one back.
//
// # Searching
//
// scan.go: forChunks splits the indexed lines into chunks of about 4 MiB, works on them on
// one goroutine per CPU, and delivers results in file order on the caller's goroutine,
// stopping at once when cancelled. Reader.Search lowers each chunk's ASCII in place and
// looks for a Prefilter's strings with bytes.Index, decoding only the lines that hold them
// and pass its LineTerms. Lines is the same chunked pass, handing a function each line that
// holds a string. Reader.Stats (stats.go) reads each line's own members without decoding
// the event; Stats.AddEvent takes live events too.
//
// # Replay and mock
//
// Both stream the recording. Load makes a Transcript that holds the file's Reader (12
// bytes a line) and one fref per frame (24 bytes: Seq, line index, first response's
// index, method, generation, direction, kind), sorted by Seq. It reads each line once with
// a light decode that skips the frame's bytes, and pairs responses, input_required chains
// and cancels on the way (transcript_index.go). A frame is decoded from the file
// (Transcript.entry) only when it is sent, compared or served.
//
// Replay keeps per request only its Result (the responses up to ReplayOptions.KeepSame)
// and reports progress through ReplayOptions.Progress. The Responder matches the server's
// requests by --answer-match; strings that differ at ignored places are substituted into
// the recorded responses before they are compared (ReplayOptions.Substitute). The mock
// keeps per request a hash of its params key and the frames' indices.
//
// # The tap
//
// RunStdio (tap_stdio.go) copies the three streams chunk by chunk, and a lines.Splitter
// (the stdio transport's, with its bounds) cuts each direction into lines, recorded as
// frames before they pass on. HTTPProxy (tap_http.go) is
// a reverse proxy that records each body. Tap.correlate pairs responses with requests. The
// hub (tap_hub.go) broadcasts the recording's lines to viewers on a unix socket; each
// viewer has a session.Queue bounded by count and bytes (TapConfig.ViewerBytes), whose
// oldest lines are dropped for one gap line. Live (attach.go) reads them, and turns gap
// lines and any jump in seq into EvGap events. TapDirs lists every directory a tap may
// listen in. TapConfig.Observe hands events to an exporter without this package importing
// it.
package recordings
