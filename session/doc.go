// Package session is a live conversation with one MCP server. It runs the handshake of
// either protocol era (initialize, or the stateless server/discover with per-request _meta),
// matches requests to responses, tracks progress, cancellation and timeouts, answers
// server→client requests (and 2026-07-28 input_required results) through a Responder, and
// publishes one ordered stream of events: every frame both ways with its exact bytes, stderr
// lines, HTTP exchanges, transport notes, state changes and errors.
//
// The session imports no UI. The headless CLI, the TUI and the recorder are consumers of the
// same API: Subscribe for events, Call / Notify / SendRaw to act.
//
// # Events
//
// Subscribe returns a Subscription; Next(ctx, max) returns every event queued since the
// last call. An Event is immutable once published. It has a Seq (the total order), a
// wall-clock Time with a monotonic reading, and a Kind:
//
//   - EvFrame: a frame either way. Frame.Raw is the exact bytes; Frame holds the parsed view
//     and its Findings. Recv says how it arrived (stdout, HTTP body, SSE event id). A frame
//     of Lane "app" is a message between an MCP App's view and mcpscope as its host
//     (applane.go, AppLane): in is app→host, out host→app; it is paired and checked on its
//     own lane. Corr.AppSeq marks a server request made for such an app's request.
//   - EvStderr, EvHTTP, EvTransport (spawn, stream open and end, reconnect, fallback,
//     stdout-closed), EvExit, EvState (connecting, handshaking, ready, closed, and each
//     handshake step), EvError (timeouts, send failures), EvLists (a list refreshed after
//     list_changed).
//   - EvGap is not a session event. A consumer's queue makes it in place of the events the
//     consumer lost (Gap{FirstSeq, LastSeq, Events, Bytes}, Seq 0; see NewGapEvent).
//
// # Pairing
//
// Pairing is decided here, once, as frames arrive (receive.go, matchResponseLocked).
// Event.Corr carries the result: a response has RequestSeq, Method and Latency; a progress
// notification has its request's RequestSeq and Progress; a retry of an input_required
// chain has ChainSeq, the first request's Seq. The pending table is keyed by id. Unknown,
// duplicate and late responses are flagged there.
//
// # Queues and back-pressure
//
// Each subscription has its own Queue, bounded by count (DefaultSubscriptionBound) and by
// bytes (DefaultSubscriptionBytes, of Event.Size). SubscribeWith sets them per
// subscription; Config.EventBytes per session (--event-buffer).
//
// A lossy subscription (the TUI's pump, --trace) never slows publishing. Past a bound it
// drops its oldest undelivered events, and Next returns one EvGap for them first.
//
// A lossless subscription (every recorder) never drops. Publishing still does not block,
// since events are published under the session's lock. Instead, each transport report
// through the session's sink ends in bus.waitRoom. Holding no lock, it waits while a
// lossless queue is full, until the consumer takes events, it closes, or the session
// closes. The transport's reader is what waits: the server is slowed, nothing is lost.
// Events published from other goroutines (requests sent, answers) do not wait, so a
// lossless queue may pass its bound by those few.
//
// # Requests from the server
//
// Server→client requests never cost a goroutine each (serverreq.go). admitLocked decides,
// under the session lock and before the request's event is published, whether the request
// is answered now (up to Config.ServerRequestWorkers workers), queued (bounded by
// Config.ServerRequestQueueBytes, size plus ServerRequestOverhead each) or refused with
// -32000. The first refusal of a flood carries session.request-flood. Refusals are written
// by one writer from a 1 MiB queue. When the queue has drained, an EvError sums the flood
// up (FloodSummary); ServerRequests gives live counts.
//
// # Era detection and the HTTP session
//
// --protocol auto follows the 2026-07-28 versioning page. server/discover is sent as the
// era probe (Correlation.Probe). A valid DiscoverResult or a recognised modern error keeps
// the modern era; anything else falls back to initialize. EraCache (one file per server
// configuration, named by a hash of ServerSpec.EraKey) lets the next session skip the
// probe. It also remembers a URL that spoke HTTP+SSE: the session then calls
// AutoHTTP.PreferLegacy, so the first initialize goes to the event stream's GET at once.
//
// After initialize, notifications/initialized goes out with Outgoing.NoWait: the Streamable
// HTTP transport returns once the POST is written, and handles its 202 in the background.
// The session then opens the standalone GET stream and waits for the server's answer (at
// most listenBound, 2 s) before its first request, unless Config.NoListen. A 404 for the
// session id (HTTPStatusError.SessionEnded) starts a new session in the background
// (renewSessionLocked). A response with another Mcp-Session-Id carries
// RecvInfo.SessionChanged, which becomes session.id-changed.
//
// HandshakeInfo is the one function that turns a handshake's answer, of either era, into
// ServerInfo. The session, the mock and the views of a recording or a tap all call it.
//
// # Tool headers and skills
//
// The session owns SEP-2243 headers, so the CLI and the TUI behave alike. When a tools
// list arrives, learnToolHeadersLocked keeps each annotated tool's header parameters or
// problems. A tools/call in 2026-07-28 over Streamable HTTP lists tools first if it never
// has, refuses an excluded tool with *ToolExcludedError, and puts the values in
// Outgoing.Params. The tools/list response gets an mcp.tool-header finding per invalid tool
// (contentFindingsLocked).
//
// Skills is List(ListSkills) parsed. LoadSkill and ReadSkillFile send resources/read with
// a check that runs before the response is published, so the verification findings sit on
// the frame the timeline shows; a mismatch returns *SkillVerifyError.
//
// # Tasks
//
// tasks.go and task_await.go follow tasks in either era: WithTask asks for one,
// CreatedTask reads a CreateTaskResult, AwaitTask polls at the server's pollInterval, takes
// status notifications as polls, and answers input through the Responder (tasks/result in
// 2025-11-25, tasks/update in 2026-07-28). A task that ends cancelled gives
// ErrTaskCancelled, also when the server answers its tasks/result with an error (a cancelled
// task has no result); that error stays in the event stream as the server sent it.
//
// # Goroutines
//
// The transport owns its readers. The session owns the server-request workers and the
// refusal writer; they end when it closes. Close cancels the session's context before it
// closes the transport, so a reader waiting in bus.waitRoom never deadlocks the close.
//
// # Files
//
// session.go the session and its lifecycle; config.go, spec.go how to reach a server
// (ServerSpec); hostconfig.go the hosts' config files; handshake.go, handshake_info.go,
// renew.go, eracache.go the handshake, what it learnt, and the era; requests.go outgoing
// requests; queue.go the bounded Queue of every consumer; receive.go incoming frames and pairing; serverreq.go, responder.go
// server→client requests; event.go, eventjson.go, eventmask.go, bus.go, gap.go the event
// stream and its subscribers; lists.go, meta.go, skills.go, tasks.go, task_await.go,
// toolheaders.go feature helpers; redirect.go redirect findings; applane.go an MCP App's
// postMessage lane.
package session
