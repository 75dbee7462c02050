package ui

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Send sends a request without waiting: the returned function waits for its result (on
// the test's goroutine), failing the test when none comes within hostWait.
func (h *TapHost) Send(method string, params any) (result func() json.RawMessage) {
	h.t.Helper()
	id := h.nextID
	h.nextID++
	p, _ := json.Marshal(params)
	h.write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, p))
	return func() json.RawMessage {
		h.t.Helper()
		var res json.RawMessage
		ok := h.wait(func() bool {
			for _, l := range h.lines {
				var r struct {
					ID     json.RawMessage `json:"id"`
					Result json.RawMessage `json:"result"`
				}
				if json.Unmarshal([]byte(l), &r) == nil && string(r.ID) == fmt.Sprint(id) && r.Result != nil {
					res = r.Result
					return true
				}
			}
			return h.ended
		})
		if !ok || res == nil {
			h.t.Fatalf("%s #%d: no result within %s\nstdout:\n%s\nstderr:\n%s", method, id, hostWait, strings.Join(h.lines, "\n"), h.stderr())
		}
		return res
	}
}
