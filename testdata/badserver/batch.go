package main

import (
	"bytes"
	"encoding/json"
)

// handleBatch answers a JSON-RPC batch (a line that is an array) with one batch of
// responses, in reverse order so that a client must pair them by id: ping members get an
// empty result, other requests "method not found", notifications nothing. It reports
// whether line was a batch.
func handleBatch(line []byte) bool {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '[' {
		return false
	}
	var members []request
	if err := json.Unmarshal(line, &members); err != nil {
		write(errorFrame(json.RawMessage("null"), -32700, "parse error: "+err.Error()))
		return true
	}
	var answers [][]byte
	for i := len(members) - 1; i >= 0; i-- {
		m := members[i]
		if len(m.ID) == 0 || string(m.ID) == "null" {
			continue
		}
		if m.Method == "ping" {
			answers = append(answers, resultFrame(m.ID, map[string]any{}))
		} else {
			answers = append(answers, errorFrame(m.ID, -32601, "method not found: "+m.Method))
		}
	}
	if len(answers) > 0 {
		write(append(append([]byte{'['}, bytes.Join(answers, []byte{','})...), ']'))
	}
	return true
}
