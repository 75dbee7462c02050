package ui

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestFloodStatus: a server that floods requests and stops reading its stdin shows in the
// interactive view as one flagged timeline row per flood episode and a status bar count of
// the refused requests that goes up as they come, through the real pump.
func TestFloodStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns the bad server")
	}
	tr := transport.NewStdio(transport.StdioOptions{Command: sessiontest.BuildBadServer(t), Grace: 100 * time.Millisecond})
	s := session.New(session.Config{Transport: tr, Protocol: "2025-11-25", ServerRequestWorkers: 2, ServerRequestQueueBytes: 8 << 10})
	sub := s.Subscribe(0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	go s.Call(ctx, "tools/call", map[string]any{"name": "pingflood", "arguments": map[string]any{"count": 3000, "deaf": true}})

	m := newTimelineModel(t, Options{}, 160, 30)
	var last time.Time
	for m.requests.Received < 3000 {
		if ctx.Err() != nil {
			t.Fatalf("the flood did not arrive: %+v", m.requests)
		}
		msg := PumpCmd(1, s, sub, last)()
		last = time.Now()
		m.Update(msg)
	}
	status := strings.Split(plainScreen(m), "\n")[0]
	if m.requests.Refused == 0 || !strings.Contains(status, "server request flood: ") ||
		!strings.Contains(status, " refused") {
		t.Errorf("status bar %q, counts %+v", status, m.requests)
	}
	flagged := 0
	for i := range m.hist.Len() {
		if e := m.hist.At(i); e.Ev.Kind == session.EvFrame && slices.ContainsFunc(e.Ev.Frame.Findings, func(f protocol.Finding) bool { return f.Code == protocol.FindRequestFlood }) {
			flagged++
		}
	}
	// One finding per flood episode, not one per refused request. While the server's stdin
	// pipe still takes answers the workers may drain the queue between bursts, which ends an
	// episode, so a run can hold more than one.
	if flagged == 0 || uint64(flagged) != uint64(m.requests.Floods) || uint64(flagged) >= m.requests.Refused {
		t.Errorf("%d rows carry the flood finding; %d floods, %d refused", flagged, m.requests.Floods, m.requests.Refused)
	}
}
