package sessiontest

import (
	"testing"

	"github.com/mcpscope/mcpscope/session"
)

// CheckWhole fails the test unless events are a whole stream: seq 1, 2, 3, … with no gap
// event. It returns how many are frames of method (0 when method is "").
func CheckWhole(t testing.TB, events []*session.Event, method string) int {
	t.Helper()
	n := 0
	for i, e := range events {
		if e.Kind == session.EvGap || e.Seq != uint64(i+1) {
			t.Fatalf("event %d: %s (seq %d): the stream must hold every seq", i, e.Summary(), e.Seq)
		}
		if f := e.Frame; method != "" && f != nil && f.Method == method {
			n++
		}
	}
	return n
}
