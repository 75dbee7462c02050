package explorer

import (
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/traffic"
)

// The explorer's surface for the model that hosts it: what the model sets, asks and
// hands in, besides Update, View and the ExplorerMsg messages.

// SetHistory makes h the history the explorer reads its requests' progress and entries from.
func (x *Explorer) SetHistory(h *traffic.History) { x.hist = h }

// SetLastArgs makes the explorer remember the arguments of the server target in the file at
// path (none when path is ""); LoadLastArgsCmd reads them.
func (x *Explorer) SetLastArgs(path, target string) { x.last = newLastArgs(path, target) }

// LoadLastArgsCmd reads the remembered arguments; Update takes them in.
func (x *Explorer) LoadLastArgsCmd() tea.Cmd { return x.last.loadCmd() }

// ToolSchema is the inputSchema of the tool called name, from the tools list, or nil.
func (x *Explorer) ToolSchema(name string) json.RawMessage {
	return x.toolMember(name, "inputSchema")
}

// ClearDrafts drops the arguments typed but not sent: they were another server's.
func (x *Explorer) ClearDrafts() { clear(x.drafts) }

// FormOpen reports whether a call's form is on screen.
func (x *Explorer) FormOpen() bool { return x.form != nil }

// CancelTarget is what cancelling the selected item's call means in session gen: the task
// it created while that runs, or its request while it awaits the answer. When there is
// nothing to cancel, why says so.
func (x *Explorer) CancelTarget(gen int) (task string, req *traffic.Entry, why string) {
	r := x.selectedRun()
	switch {
	case r == nil:
		return "", nil, "nothing was sent for this item"
	case r.gen != gen:
		return "", nil, "the call belongs to an earlier session"
	case r.taskRunning():
		if st, ok := x.taskState(r.task.id); ok && st.Task.Terminal() {
			return "", nil, "task " + r.task.id + " has ended (" + st.Task.Status + ")"
		}
		return r.task.id, nil, ""
	case r.done:
		return "", nil, "the call has ended"
	}
	if e := x.requestEntry(r); e != nil && e.Waiting() {
		return "", e, ""
	}
	return "", nil, "the request is not in the timeline yet"
}
