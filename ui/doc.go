// Package ui is mcpscope's interactive inspector, a Bubble Tea program. It consumes one
// session's event stream (through a pump that re-issues a one-shot command after each batch)
// and calls session methods from commands; Update never does I/O. The rules the code
// keeps are in ARCHITECTURE.md ("UI rules"); rules_test.go checks the first two, and
// rules_payload_test.go that no work proportional to a payload is reached from Update or View.
//
// The screen: a status bar, the traffic timeline with a detail pane, the explorer (tools,
// resources, templates, prompts) and the server page, a help line. Everything visible is
// built from one Common (styles, keymap, size) and laid out by a pure function of the
// terminal size. The panes share one contract (Pane); the modal dialogs (confirmations,
// prompts, help, what the server asks, the composer) are a stack of Dialogs over the page,
// the top one first to get a key.
//
// # Data flow
//
// Model.Init starts a session through Options.NewSession. The pump is one outstanding
// command per session, PumpCmd (pump.go). It waits on Subscription.Next, coalesces events
// for at least 25 ms, attaches the snapshots the batch needs (server info after a state
// change, refreshed lists) and returns an EventsMsg. Update appends the batch to the
// History, lets the timeline take in the new rows, and issues the next PumpCmd.
//
// Everything that blocks (connect, list fetches, highlighting, saving, the pager) is a
// command. Its result comes back as a message tagged with the session generation or the
// entry it was for, so a stale result is dropped.
//
// A restart (R, restart.go) closes the old session first. The next one starts when the old
// one's pump has delivered its last batch (EventsMsg.Closed), so the history is ordered by
// generation, as the recording is. Options.NewSessionIn makes the next session force a
// revision (the server page's era key). A server switch from the picker (servers*.go) is a
// restart with another NewSession; switchPlan holds its marker and close reason.
//
// # The history
//
// The rows and the filter are the package traffic (ui/traffic): traffic.History holds the
// bounded rows, linked as the session's pairing says (Event.Corr); traffic.Query is the
// filter. This package draws them and feeds them.
//
// A frame larger than TruncateOver is held cut to its head (traffic.ClipEvent). To show
// such a frame whole, the detail pane's FullFrames (the recorder's index, an opened
// recording's Reader, or nothing, with the reason) is called in Update for a closure a
// command runs. Run sets the runtime's soft memory limit from the budget
// (traffic.MemoryLimit).
//
// # Rendering
//
// Rows: rowText (row.go) draws one row; the Timeline caches rows per width and draws only
// the visible window. The detail pane shows a bounded head at once, painted by the one-pass
// colouriser, and HighlightCmd (highlight.go) colours the rest in a command; the result
// arrives as a HighlightMsg. Bodies over 256 KiB are coloured from their first 256 KiB.
// Results by content type: explorer.RenderResult (ui/explorer), called by the detail pane
// (result_detail.go) and by the explorer for a call's result. The explorer lays out a
// result up to explorer.ResultInline on the UI goroutine, cached per width and styles, and
// a larger one in a command. JSON everywhere goes through package jsonview, in the palette
// Styles.JSON.
//
// # What the server asks
//
// Asker (ask*.go) is the sessions' Responder. Ping and roots/list are answered at once
// (roots from the roots editor). Sampling, elicitation and the input requests of a
// 2026-07-28 input_required result reach the program as AskMsg through WaitAskCmd, a
// one-shot command re-issued after each; they open one dialog, askQueue, in arrival order.
// The answer goes back through a command. A request the server withdraws closes its dialog.
// An MCP App run from the explorer asks the same way (ask_app.go): Asker.AskApp is the
// explorer's AppAskFunc, and its ui/open-link and ui/message reach the program as
// AppAskMsg through WaitAppAskCmd, in a dialog of their own, appAskQueue; a question
// whose app or session went away closes its dialog.
//
// # Recording
//
// Every session is recorded (Recorder, record.go, made by the CLI). The command that
// creates a session gives the recorder a lossless subscription of its own, written off the
// UI goroutine by recordings.Writer.RecordGen under the session's generation. Restarts
// append to one file, and rows the bounded history drops stay on disk.
//
// # Opened recordings and taps
//
// Options.Recording opens a recording read-only (open*.go). The History holds a window of
// the file's rows, read on demand through the Reader's index and replaced as the cursor
// nears its edge. A filter is a background search (open_search.go), one goroutine per
// filter feeding a channel that waitSearch reads, cancelled by the next filter. The query
// says what it can to the search: each term's literal text (traffic.Query.Prefilter), and
// for tool:, slow: and has:progress a first pass that learns which lines relate
// (traffic.Query.Relate).
//
// Options.Live watches a running tap (live*.go). A LiveFeed, owned by whoever made it (the
// attach command closes it), runs one goroutine that reads recordings.Live into a bounded
// session.Queue. liveNextCmd is the pump's twin. liveLists follows the host's list results
// for the explorer.
//
// # Goroutines
//
// Update and View run on Bubble Tea's goroutine and own the Model. Commands run on
// goroutines Bubble Tea starts; they capture what they need and change no state. Besides
// them: the recorder's writer (owned by the Recorder, ends with the subscription), a
// LiveFeed's reader (owned by its maker), one search per filter (cancelled by the next),
// and the task followers (followTaskCmd, one per unfinished task, feeding one bounded
// channel that waitTaskCmd drains; each ends with its task or its session).
//
// # Pages, panes and dialogs
//
// A pane implements Pane (pane.go: SetSize, Update, View drawing exactly that size, Keys).
// It is held by Model and sized in relayout; TestPaneContract checks what each draws. Each
// page is a row of the page table (pages.go): the key that shows it, its pane, what it
// draws, its footer keys, the focus cycle's stops on it. The body, the help line,
// focusedPane, the page keys and the tab cycle are lookups in it.
//
// The model's sessions go through one lifecycle (lifecycle.go): idle, starting, live,
// draining (disconnected, its last events still coming) and restarting (closing; the next
// starts when its pump ends). Model.step is the only change, through lifeSteps. A dialog implements Dialog
// (dialog.go): Update returns a command and a DialogResult (DialogStay, DialogDone,
// DialogCancel, or DialogPass to hand the message down), Draw paints the Screen, Keys is
// the help line while it is on top. Open one with Model.pushDialog; find one with dialogOf.
//
// Keys are data: every binding is a field of KeyMap (package common), listed in
// Groups. Help, the help line and README's key table (KeyMap.MarkdownTable) are generated
// from it. A global key is a row of globalKeys (keys_global.go); a pane's key is matched in
// its Update. Model.key tries the dialogs, the panes that capture keys, the recording, act,
// live and global handlers in turn, then the focused pane; TestKeyComplexity keeps it a
// list. A binding that does not apply is disabled; KeyMap.Disable records why, and
// KeyMap.DisabledKeyCmd shows the reason when it is pressed.
//
// # Files
//
//   - run.go starts the program; common.go ui's names for the shared base, package common
//     (ui/internal/common: Common, Styles and their painters, KeyMap, StatusMsg, Rect);
//     layout.go the layout; pages.go the page table; view.go the screen; status.go the
//     status bar.
//   - model.go the model, Update and key dispatch; model_cmds.go the session commands;
//     pump.go the event pump; lifecycle.go the sessions' lifecycle; restart.go restarting; keys_global.go the global keys; dialog.go the dialog stack; dialog_basic.go the quit, filter,
//     save and help dialogs; pane.go the pane contract.
//   - timeline.go, row.go, row_target.go the traffic list and its rows (the history and the
//     filter they show are the package traffic).
//   - detail*.go the detail pane (detail_pair.go the pair's layout, detail_full.go frames
//     read back, detail_actions.go pager, editor, save, copy); highlight.go its bodies;
//     clipboard.go copying; mask.go masking what is drawn; jsoncolor.go JSON for the
//     other views.
//   - the explorer, its calls, forms, results and remembered arguments are the package
//     explorer (ui/explorer); result_detail.go the detail pane's result section.
//   - serverpage*.go the server page; tasks*.go the tasks page; authpage*.go the auth page
//     and its dialog; servers*.go the server picker; stats.go the stats page.
//   - ask*.go answering the server; compose*.go new requests and re-send;
//     copycmd*.go copy as command; roots.go the roots editor; footer_wrap.go a form's help
//     line.
//   - open*.go browsing a recording; live*.go watching a tap; record.go recording sessions.
//
// # Server text
//
// Text the server sent (names, titles, descriptions, messages, uris, stderr) reaches the
// screen only escaped: escapeText for a field, escapeProse for text that keeps its line
// breaks, cleanText for a timeline row (tabs and line breaks folded to spaces), JSON through
// jsonview's colouriser. They all apply jsonview.EscapeRune, so a control or invisible
// character looks the same in every view (\x1b, \u200b), set apart in reverse video.
package ui
