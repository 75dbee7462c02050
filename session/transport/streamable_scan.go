package transport

import (
	"bytes"

	"github.com/mcpscope/mcpscope/protocol"
)

// answers reports whether data is the JSON-RPC response to the request whose id was
// written as id: a top-level object with an "id" member equal to id (as written, ignoring
// surrounding space) and a "result" or "error" member. It scans the top level only, without
// decoding values, so it stays cheap on large results; keys written with escapes are not
// recognised.
func answers(data, id []byte) bool {
	id = bytes.TrimSpace(id)
	if len(id) == 0 {
		return false
	}
	got, isResponse := topLevelID(data)
	return isResponse && bytes.Equal(got, id)
}

// topLevelID finds the top-level "id" member of a JSON object and whether the object has a
// top-level "result" or "error" member.
func topLevelID(data []byte) (id []byte, isResponse bool) {
	protocol.ScanMembers(data, func(key, val []byte) bool {
		switch string(key) {
		case "id":
			id = val
		case "result", "error":
			isResponse = true
		}
		return true
	})
	return id, isResponse
}
