package common

import (
	"encoding/json"
	"time"

	"github.com/mcpscope/mcpscope/session"
)

// TaskUpdateMsg: a followed task changed state, or its follower ended (Done) with the
// task's Result or Err. The Tasks page follows the tasks; the explorer takes the outcome of
// the ones its calls created.
type TaskUpdateMsg struct {
	Gen    int
	Task   session.Task
	At     time.Time
	Done   bool
	Result json.RawMessage
	Err    error
}
