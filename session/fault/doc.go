// Package fault breaks messages on the wire on purpose: one engine for mcpscope's own
// session (Transport, a transport.Transport around the real one), for the tap between a
// host and a server (Stream, over each direction's stdio bytes; the HTTP tap judges each
// POST body, JSON response body and event itself) and for replay.
//
// # Rules
//
// A rule is ACTION[=ARG] MATCH [p=PROB] [times=N] [after=N]; MATCH is a query of the
// timeline's own language (protocol/query: method:, tool:, dir:, id:, kind:, has:, free
// words, -term), empty for every message. ParseRule refuses a rule it does not understand
// with the column of the trouble; ParseRules reads --fault flags and --faults files (one
// rule a line, # comments) and names each rule by where it was written.
//
// The actions: delay=D passes the message on after D; drop never passes it on;
// error=CODE[:MESSAGE] answers a request in the other side's place (the answer goes back
// to the sender, the request goes no further) or replaces a response with that error;
// corrupt=KIND passes it on damaged (truncate, invalid-json, wrong-id, wrong-version,
// duplicate); reorder holds it until the next message the rule matches has passed (or
// the end: a session that closes forwards what it holds of its own and drops the server's,
// a note saying which);
// disconnect closes the stream instead (stdio: the server's stdin, or the host's stdout
// in a tap; HTTP: the connection); throttle=BYTES/s passes it on at that rate.
//
// # The engine
//
// Engine.Judge decides one message: the first rule that matches it and may act (its
// after= passed, its times= not spent, its action applies: an error needs an id, a
// wrong-id too) acts, if the draw of p= says so. A draw depends on the seed (--seed), the
// rule and the message's bytes, not on the order messages arrive (draw.go): a run can be
// repeated even against a server that answers concurrent requests in another order. The engine remembers requests (a
// bounded number) to give their responses a method, a tool and a latency, so tool: and
// slow: judge responses as the timeline does. A message no rule acts on is passed on as
// the very bytes it came as.
//
// Every fault applied is an Applied: the rule, the message as it came, what was passed on
// instead and any answer made. Describe makes the note the session and the tap publish
// (kind "fault"): the timeline shows it as a row beside the message, --trace and the
// recording keep it, and an answer made by mcpscope is a frame that came via "mcpscope".
//
// # Breakpoints
//
// Breakpoints are the user's queries (the same language): WrapBreaking puts them on a
// session's wire with the rules, judged first. A message an enabled breakpoint matches,
// either way, is held (Held) without holding what follows it, until Decide says what
// becomes of it: passed on as it came or edited, dropped, or answered in the other side's
// place; ContinueAll passes them all on. A breakpoint holds first; what is passed on is
// then judged by the rules (Engine.JudgeRules) as the bytes delivered, in the session and
// in the tap alike (an answer made at a breakpoint is not). An edit goes on as one frame
// (frame.go): JSON compacted; other bytes as they are, their line breaks made spaces on
// stdio, where a newline ends a frame. The session's own timeouts keep running. Notes of
// kind "hold" say what was held and what was decided, after how long. At most 1024
// messages or 64 MiB are held at once; past that a matching message passes on, and a note
// says so. A session that ends lets its held messages go. A tap holds with the same
// engine (Engine.SetBreakpoints, Engine.Hold; Stream for stdio), its breakpoints set by
// the viewer attached to it (recordings/tap_control.go); Control is what the view asks of
// either.
package fault
