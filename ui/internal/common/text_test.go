package common

import (
	"testing"

	"github.com/mcpscope/mcpscope/session"
)

func TestProgressText(t *testing.T) {
	for _, tt := range []struct {
		p    session.Progress
		want string
	}{
		{session.Progress{Progress: 3}, "3"},
		{session.Progress{Progress: 3, Total: 4, Message: "step\nthree"}, "[██████░░] 3/4 step three"},
		{session.Progress{Progress: 9, Total: 4}, "[████████] 9/4"},
	} {
		if got := ProgressText(&tt.p); got != tt.want {
			t.Errorf("ProgressText(%+v) = %q, want %q", tt.p, got, tt.want)
		}
	}
}
