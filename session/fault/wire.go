package fault

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/query"
)

// wire is a message on the wire as the query language sees it: what its bytes say, and
// what the engine learnt of its request.
type wire struct {
	f       *protocol.Frame
	dir     protocol.Direction
	method  string
	tool    string
	latency time.Duration
	toolErr bool
	// answered is the request a response answers, as the engine remembered it: put back
	// when a breakpoint holds the response, for the rules to judge it when forwarded.
	answered *reqKey
	req      reqInfo
}

var _ query.Subject = (*wire)(nil)

func (w *wire) Frame() *protocol.Frame  { return w.f }
func (w *wire) Dir() protocol.Direction { return w.dir }
func (w *wire) Event() string           { return "frame" }
func (w *wire) Method() string          { return w.method }
func (w *wire) Tool() string            { return w.tool }
func (w *wire) Texts() [3]string        { return [3]string{} }
func (w *wire) Findings() bool          { return len(w.f.Findings) > 0 }
func (w *wire) Error() bool             { return w.f.Kind == protocol.KindError || w.toolErr }
func (w *wire) ToolError() bool         { return w.toolErr }
func (w *wire) Progress() bool          { return w.f.Method == "notifications/progress" }
func (w *wire) Latency() time.Duration  { return w.latency }
func (w *wire) Lane() string            { return "" } // the engine sits on the server's wire

// toolOf is the tool a tools/call request calls.
func toolOf(f *protocol.Frame) string {
	if f.Method != "tools/call" {
		return ""
	}
	return protocol.Target(f.Method, f.Params) // the exact key, as the server reads it
}

// isToolError reports a tools/call result with isError true.
func isToolError(result json.RawMessage) bool {
	if !bytes.Contains(result, []byte(`"isError"`)) {
		return false
	}
	var r struct {
		IsError bool `json:"isError"`
	}
	_ = json.Unmarshal(result, &r)
	return r.IsError
}

// opposite is the other direction.
func opposite(d protocol.Direction) protocol.Direction {
	if d == protocol.ClientToServer {
		return protocol.ServerToClient
	}
	return protocol.ClientToServer
}
