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

// TestRowLane: an app-lane frame has its own direction mark and says "app"; a server call
// made for the app says so; a plain frame is unchanged.
func TestRowLane(t *testing.T) {
	s := NewStyles(false)
	now := time.Now()
	ev := func(dir protocol.Direction, lane string, appSeq uint64, raw string) *traffic.Entry {
		return &traffic.Entry{Ev: &session.Event{Seq: 5, Time: now, Kind: session.EvFrame, Dir: dir, Lane: lane,
			Frame: protocol.Decode([]byte(raw)), Corr: session.Correlation{AppSeq: appSeq}}}
	}
	req := `{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{}}`
	call := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"view_dice_reroll"}}`
	for _, c := range []struct {
		e          *traffic.Entry
		arrow, has string
		not        string
	}{
		{ev(protocol.ServerToClient, session.LaneApp, 0, req), "⇠", "app ui/initialize", ""},
		{ev(protocol.ClientToServer, session.LaneApp, 0, `{"jsonrpc":"2.0","method":"ui/notifications/tool-input","params":{}}`), "⇢", "app ui/notifications/tool-input", ""},
		{ev(protocol.ClientToServer, "", 4, call), "→", "for app", "app tools/call"},
		{ev(protocol.ClientToServer, "", 0, call), "→", "tools/call", "app"},
	} {
		dir, _, label := frameColumns(s, nil, c.e)
		dir, label = ansi.Strip(dir), ansi.Strip(label)
		if dir != c.arrow || !strings.Contains(label, c.has) || (c.not != "" && strings.Contains(label, c.not)) {
			t.Errorf("%s: row %q %q, want the mark %q and %q (not %q)", c.e.Ev.Summary(), dir, label, c.arrow, c.has, c.not)
		}
		if row := ansi.Strip(rowText(s, c.e, 80, now, now)); !strings.Contains(row, c.arrow) {
			t.Errorf("row %q lacks %q", row, c.arrow)
		}
	}
}

// The time column keeps its width (and the gap after it) however long the session runs.
func TestRelTimeFitsItsColumn(t *testing.T) {
	start := time.Unix(0, 0)
	for _, c := range []struct {
		after time.Duration
		want  string
	}{
		{1500 * time.Millisecond, "+1.500"},
		{1234567 * time.Millisecond, "+1234.567"},
		{12345678 * time.Millisecond, "+12345.68"},
		{1234567890 * time.Millisecond, "+1234568"},
	} {
		got := relTime(start.Add(c.after), start)
		if got != c.want || len(got) > colTime {
			t.Errorf("relTime(%v) = %q, want %q within %d columns", c.after, got, c.want, colTime)
		}
	}
}
