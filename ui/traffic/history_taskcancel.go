package traffic

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/protocol"
)

// A task mcpscope asked to cancel (it sent tasks/cancel) ends without a result, and a
// server may answer the tasks/result that waits for it, or follows the cancel, with an
// error (server-everything: -32603 "Task … has no result stored"). That error is shown in
// the timeline as the server sent it, but it is not a failure of the user's call: the
// status line does not count it.

// taskKey names a task of one session.
type taskKey struct {
	gen int
	id  string
}

// MaxTaskParams bounds the params read for a taskId.
const MaxTaskParams = 4 << 10

// The tasks/* requests whose answers History judges.
const (
	methodTasksResult = "tasks/result"
	methodTasksCancel = "tasks/cancel"
)

// ParamsTaskID is the taskId of a tasks/* request's params, or "" (also for params larger
// than MaxTaskParams, which are not read).
func ParamsTaskID(params json.RawMessage) string {
	if len(params) > MaxTaskParams {
		return ""
	}
	var p struct {
		TaskID string `json:"taskId"`
	}
	_ = json.Unmarshal(params, &p)
	return p.TaskID
}

// afterTaskCancel notes a tasks/cancel mcpscope sent, and reports whether e is the
// server's error to a tasks/result (req) of a task mcpscope asked to cancel.
func (h *History) afterTaskCancel(gen int, e, req *Entry) bool {
	f := e.Ev.Frame
	switch {
	case f.Kind == protocol.KindRequest && f.Method == methodTasksCancel && e.Ev.Dir == protocol.ClientToServer:
		if id := ParamsTaskID(f.Params); id != "" {
			if h.cancelledTasks == nil {
				h.cancelledTasks = map[taskKey]bool{}
			}
			h.cancelledTasks[taskKey{gen, id}] = true
		}
	case f.Kind == protocol.KindError && e.Ev.Dir == protocol.ServerToClient && req != nil && req.Ev != nil && req.Ev.Frame != nil &&
		req.Ev.Frame.Method == methodTasksResult:
		return h.cancelledTasks[taskKey{gen, ParamsTaskID(req.Ev.Frame.Params)}]
	}
	return false
}
