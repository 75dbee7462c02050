package serve

// addTools registers every tool. The annotations say what each does to the world:
// connect starts a process (or reaches a URL), the calls reach the server and may change
// its world, the reading tools change nothing.
func (s *Server) addTools() {
	add(s, tool{name: "connect", title: "Connect to an MCP server",
		description: "Start a recorded session on an MCP server: command (stdio) or url (HTTP), with env, headers, cwd, transport and protocol as on mcpscope's command line. Returns the session id, the handshake (server info, era, capabilities, instructions), how the server's own requests will be answered, and the recording's path. The command runs as the user.",
		openWorld:   true,
		enums: map[string][]any{"transport": {"stdio", "http", "sse"}, "elicit": {"ask", "decline", "cancel", "accept-defaults"}, "sampling": {"ask", "decline"},
			"protocol": {"auto", "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}},
	}, s.connect)
	add(s, tool{name: "sessions", title: "List sessions", description: "The open sessions: id, server, state, revision, recording, last event seq, findings.",
		readOnly: true, idempotent: true}, s.sessions)
	add(s, tool{name: "disconnect", title: "Disconnect", description: "Close a session (the server process ends) and finish its recording; returns the command that opens it.",
		destructive: true, idempotent: true}, s.disconnect)
	add(s, tool{name: "list", title: "List definitions", description: "One page of tools/list, resources/list, resources/templates/list or prompts/list; pass the result's nextCursor as cursor for the next. Returns the server's result and the exchange.",
		openWorld: true, enums: map[string][]any{"kind": {"tools", "resources", "templates", "prompts"}}}, s.list)
	add(s, tool{name: "call_tool", title: "Call a tool", description: "Call one of the server's tools with arguments. Returns the server's result (a tool error is isError in it) and the exchange: request/response seqs, latency, findings, or the JSON-RPC error.",
		destructive: true, openWorld: true, objects: []string{"arguments"}}, s.callTool)
	add(s, tool{name: "read_resource", title: "Read a resource", description: "resources/read of a URI. Returns the server's result and the exchange.",
		openWorld: true}, s.readResource)
	add(s, tool{name: "get_prompt", title: "Get a prompt", description: "prompts/get with string arguments. Returns the server's result and the exchange.",
		openWorld: true}, s.getPrompt)
	add(s, tool{name: "complete", title: "Complete an argument", description: "completion/complete for a prompt's or resource template's argument. Returns the server's result and the exchange.",
		openWorld: true, enums: map[string][]any{"ref": {"prompt", "resource"}}}, s.complete)
	add(s, tool{name: "send_raw", title: "Send raw text", description: "Send any text as one message (a JSON-RPC request, notification, batch, or malformed text) to test error handling. Returns the sent event's seq, the response and exchange for a request, what followed within wait_ms, and every finding.",
		destructive: true, openWorld: true}, s.sendRaw)
	add(s, tool{name: "timeline", title: "Read the timeline", description: "The session's events after a seq, filtered with mcpscope's query language, each frame's bytes cut to body_bytes; page with next_since.",
		readOnly: true, idempotent: true}, s.timeline)
	add(s, tool{name: "frame", title: "Read one frame", description: "The exact bytes of one event (as recorded, secrets masked), in parts of max_bytes from offset, with its findings and its request or response seq.",
		readOnly: true, idempotent: true}, s.frame)
	add(s, tool{name: "check", title: "Check the server", description: "Run mcpscope check on the session's server in sessions of its own: handshake, every list, definitions, read-only calls, error behaviour, cancellation, latency. Returns the counts and the report as mcpscope check --json prints it.",
		destructive: true, openWorld: true}, s.check)
	add(s, tool{name: "pin", title: "Pin definitions", description: "Save the server's tools, prompts, resources, templates, instructions and capabilities to a pin file, a SHA-256 of each.",
		openWorld: true}, s.pin)
	add(s, tool{name: "diff", title: "Diff definitions", description: "Compare the server's definitions now with a pin file, a recording or another session, item by item, with where each changed item differs.",
		readOnly: true, openWorld: true, idempotent: true}, s.diff)
	add(s, tool{name: "recording", title: "Recording path", description: "The session's recording file, to open with mcpscope open FILE.",
		readOnly: true, idempotent: true}, s.recording)
	add(s, tool{name: "pending", title: "Questions waiting", description: "What servers asked that waits for an answer (elicitation in form or URL mode, sampling), across sessions or of one: each question's id, kind, message, schema or URL, the event that carried it and when it expires (10 minutes); and the calls not yet read. wait_ms waits for a question to arrive.",
		readOnly: true, idempotent: true}, s.pending)
	add(s, tool{name: "answer", title: "Answer a question", description: "Answer a question a server asked: accept (a form with content checked against its schema; a URL once the user is done with the page; sampling with the model's reply as text), decline or cancel. The call that waited on it goes on: await_call gives its outcome.",
		destructive: true, openWorld: true, enums: map[string][]any{"action": {"accept", "decline", "cancel"}}, objects: []string{"content"}}, s.answer)
	add(s, tool{name: "await_call", title: "Await a call", description: "The outcome of a call that returned still running (with pending questions, or after wait_ms): the server's result and the exchange, as the call would have returned them; or, when the server asks something more, the call id again with what is pending.",
		readOnly: true}, s.awaitCall)
	add(s, tool{name: "tasks", title: "Follow tasks", description: "The server's tasks: list (tasks/list), get (tasks/get: status), result (tasks/result: waits until the task ends, answering what it asks through pending) or cancel (tasks/cancel). Start one with call_tool and task. Returns the server's result and the exchange.",
		destructive: true, openWorld: true, enums: map[string][]any{"action": {"list", "get", "result", "cancel"}}}, s.tasks)
	add(s, tool{name: "roots", title: "List or set roots", description: "The roots the session offers the server: list them, or set them (the server is told notifications/roots/list_changed and may ask roots/list again). Roots must be declared at connect (give roots).",
		openWorld: true, idempotent: true, enums: map[string][]any{"action": {"list", "set"}}}, s.roots)
	add(s, tool{name: "log_level", title: "Set the log level", description: "The least severe log level the server sends: logging/setLevel (earlier revisions) or the level every later request carries (2026-07-28).",
		openWorld: true, idempotent: true, enums: map[string][]any{"level": logLevels}}, s.logLevel)
	add(s, tool{name: "log_tail", title: "Tail the server's log", description: "The server's log entries (notifications/message) after a seq: level, logger and data, each cut to data_bytes; page with next_since.",
		readOnly: true, idempotent: true}, s.logTail)
	add(s, tool{name: "subscribe", title: "Subscribe to a resource", description: "Subscribe to a resource's updates, or unsubscribe: resources/subscribe (earlier revisions) or a subscriptions/listen stream (2026-07-28). Updates appear in the timeline (query method:notifications/resources/updated).",
		openWorld: true, idempotent: true}, s.subscribe)
	add(s, tool{name: "skills", title: "Read the server's skills", description: "The server's skills (Skills extension): list the entries, get one (skills/get, then its SKILL.md read and checked against the entry's size and digest) or read one listed file of it, checked the same way.",
		readOnly: true, openWorld: true, enums: map[string][]any{"action": {"list", "get", "file"}}}, s.skills)
	add(s, tool{name: "events_list", title: "List event types", description: "The server's event types (Events extension, events/list, every page): name, delivery modes (poll, push, webhook), the arguments a subscription takes and the payload each occurrence carries.",
		readOnly: true, openWorld: true, idempotent: true}, s.eventsList)
	add(s, tool{name: "events_poll", title: "Poll events", description: "One events/poll of an event type with arguments, after cursor (none: from now). Returns the events, the cursor for the next poll, truncated (events lost before the first), and the exchange, whose findings check each payload against the type's schema.",
		readOnly: true, openWorld: true}, s.eventsPoll)
	add(s, tool{name: "events_stream", title: "Read a push stream", description: "Open events/stream on an event type, after cursor (none: from now), and read it until max_events events arrived or wait_ms passed (at most 100 and 30000), then close it. Returns the events, the cursor to resume from, heartbeats, errors and findings; every notification is in the timeline.",
		readOnly: true, openWorld: true}, s.eventsStream)
	add(s, tool{name: "await_auth", title: "Await a login", description: "Wait for the login connect returned as pending_auth: once the user logged in (the token is stored as mcpscope auth login stores it), the session's handshake as connect returns it; still waiting, pending_auth again.",
		readOnly: true, openWorld: true}, s.awaitAuth)
}
