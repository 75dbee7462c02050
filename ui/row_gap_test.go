package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// Every row keeps a blank cell at its right end, the gap before the detail column: a
// restart marker's rule too, however long its text.
func TestRowsKeepTheirGap(t *testing.T) {
	s := NewStyles(false)
	now := time.Now()
	h := traffic.NewHistory(100)
	rows := []*traffic.Entry{
		h.AddMarker(2, "restart #1 of demo"),
		h.AddMarker(3, "restart #2 of "+strings.Repeat("a-very-long-server-command ", 8)),
		{Ev: &session.Event{Seq: 5, Time: now, Kind: session.EvStderr, Text: strings.Repeat("stderr ", 40)}},
		{Ev: &session.Event{Seq: 6, Time: now, Kind: session.EvFrame, Dir: protocol.ClientToServer,
			Frame: protocol.Decode([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + strings.Repeat("x", 200) + `"}}`))}},
	}
	for _, w := range []int{40, 80, 131} {
		for _, e := range rows {
			row := ansi.Strip(rowText(s, e, w, now, now))
			if ansi.StringWidth(row) != w || !strings.HasSuffix(row, " ") || strings.HasSuffix(row, "  ") && e.Marker != "" {
				t.Errorf("width %d: row %q is not %d cells ending in one blank", w, row, w)
			}
		}
	}
}
