// Package explorer is the inspector's explorer page: the server's tools, resources,
// resource templates, prompts and skills, one tab each, a fuzzy-filtered list and the
// selected item in full; the forms that call them; the calls and their results; the
// arguments each form last sent. Package ui hosts it as a pane and hands it its messages.
//
// # Files
//
//   - explorer.go the page, its tabs, keys and Update; explorer_view.go its screen;
//     explorer_item.go an item read from a list; explorer_detail.go, explorer_ext.go the
//     selected item in full (annotations, headers, skills); explorer_fuzzy.go the filter;
//     explorer_pin.go definitions compared with a pin.
//   - call.go calling an item and hosting its form (ui/form); call_template.go the forms of
//     prompts and templates; call_subscribe.go subscriptions, saving media, resource links.
//   - result.go RenderResult, a result by content type, also used by ui's detail pane;
//     explorer_result.go large results laid out in a command; explorer_hold.go the results
//     held within budget.
//   - explorer_task.go a call's task, read through TaskLookup; explorer_retry.go a call
//     refused with error -32042, followed through URLWait until it is sent again.
//   - lastargs.go the remembered arguments.
//   - explorer_host.go and state.go what the host (package ui) sets, asks and reads: methods,
//     never fields; common.go the shared base under the names these files use.
//
// # The host
//
// The model makes one Explorer, gives it the history (SetHistory), the session of each
// generation (SetSession), the lists (SetLists, UpdateLists), the Tasks page as its
// TaskLookup and the -32042 dialog's waits (URLWaitOpened, URLWaitStopped, URLWaitSent).
// It hands the explorer every ExplorerMsg and ExplorerTickMsg whichever page is on
// screen, and after every message batches RenderCmd, which asks for the layout a large
// result needs. ShowEntryMsg asks the model to show an entry in the timeline.
//
// # Results
//
// A result up to ResultInline bytes is laid out on the UI goroutine, where it is shown,
// and cached per width and styles. A larger one is laid out by a command while the pane
// shows its head as received; a layout shows at most resultShownBytes of texts and JSON
// and says how much more there is. The explorer holds whole results up to a quarter of
// the history's byte budget; past it the oldest are let go (the timeline keeps them).
//
// # Remembered arguments
//
// What a form last sent is kept per server in a 0600 file (SetLastArgs), read and written
// in commands; an argument that looks secret is never kept.
package explorer
