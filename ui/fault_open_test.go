package ui

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// TestOpenRecordingWithFaults records a session with the demo (Streamable HTTP) through
// fault rules of a few actions, opens the recording in the view and finds the rows the live
// view showed: the fault mark on each message a rule acted on (the call answered by
// mcpscope, the late answer, the dropped notification, which stays a row), a fault row
// after each, and the answer marked as made by mcpscope.
func TestOpenRecordingWithFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo server over HTTP")
	}
	mcpURL, _ := sessiontest.StartDemoHTTP(t)
	rules, err := fault.ParseRules([]string{"error=-32603 tool:=add", "delay=100ms tool:=echo dir:in",
		"drop method:=notifications/initialized"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := session.New(session.Config{Protocol: "2025-06-18", // a handshake with notifications/initialized Caps: session.DefaultCaps(), Responder: &session.Headless{},
		Transport: fault.Wrap(transport.NewStreamableHTTP(transport.HTTPOptions{URL: mcpURL}), fault.NewEngine(rules, 1))})
	path := filepath.Join(t.TempDir(), "faults.jsonl")
	w, err := recordings.Create(path, recordings.Header{Server: mcpURL, Transport: "http", Protocol: "auto"}, recordings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Record(s.SubscribeWith(session.SubscribeOptions{Lossless: true}))
	live := sessiontest.Record(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	var rpc *session.RPCError
	if _, err := s.Call(ctx, "tools/call", map[string]any{"name": "add", "arguments": map[string]any{"a": 1, "b": 2}}); !errors.As(err, &rpc) || rpc.Code != -32603 {
		t.Errorf("add through error=-32603: %v", err)
	}
	if _, err := s.Call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi"}}); err != nil {
		t.Errorf("echo: %v", err)
	}
	s.Close()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	live.Wait(10 * time.Second)

	lm := newTimelineModel(t, Options{}, 160, 40)
	feedEvents(lm, live.Events()...)
	om := openModel(t, path, 160, 40)

	marks := func(m *Model) (rows []string) {
		for _, e := range m.hist.Entries() {
			if mark := faultMark(e); mark != "" {
				rows = append(rows, e.Ev.Dir.String()+" "+e.Ev.Frame.Method+" "+e.Ev.Frame.ID.String()+" "+mark)
			}
			if faultNote(e.Ev) {
				_, label := faultRow(m.c.Styles.Rows(), e.Ev)
				rows = append(rows, "row "+ansi.Strip(label))
			}
		}
		return rows
	}
	want, got := marks(lm), marks(om)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the recording's fault rows and marks:\n%s\nthe live view's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	joined := strings.Join(got, "\n")
	for _, w := range []string{
		"⚡ error: answered by mcpscope (rule 1: error=-32603 tool:=add)",
		"row ⚡ error: answered by mcpscope (rule 1: error=-32603 tool:=add)",
		"⚡ made by mcpscope",
		"⚡ delay 100ms on the answer (rule 2: delay=100ms tool:=echo dir:in)",
		"row ⚡ delay 100ms (rule 2",
		"⚡ dropped (rule 3: drop method:=notifications/initialized)",
		"row ⚡ dropped (rule 3",
	} {
		if !strings.Contains(joined, w) {
			t.Errorf("the opened recording lacks %q in its fault rows:\n%s", w, joined)
		}
	}
	var made int
	for _, e := range om.hist.Entries() {
		if traffic.MadeByMcpscope(e) {
			made++
			if row := ansi.Strip(rowText(om.c.Styles, e, 160, om.hist.Start, time.Now())); !strings.Contains(row, "⚡ made by mcpscope") {
				t.Errorf("the answer made by mcpscope shows as %q", row)
			}
		}
	}
	if made != 1 {
		t.Errorf("%d answers made by mcpscope in the opened recording, want 1", made)
	}
}
