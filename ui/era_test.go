package ui

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// TestEraKeyRestartsInOtherEra runs the demo server with protocol auto, which negotiates
// the stateless era; the server page offers P, listed in its help line, and P restarts the
// server in 2025-11-25; a later R keeps that revision, and P offers the stateless one back.
func TestEraKeyRestartsInOtherEra(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	opts := demoOptions(t, nil)
	opts.NewSessionIn = func(rev string) (*session.Session, error) {
		return stdioOptions(t, "mcpscope demo", bin, []string{"demo"}, func(c *session.Config) { c.Protocol = rev }).NewSession()
	}
	m := NewModel(NewCommon(nil), opts)
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 160, Height: 40})
	d.run(m.Init())
	ready := func(gen int, rev protocol.Revision) func() bool {
		return func() bool { return m.gen == gen && m.state == session.StateReady && m.info.Revision == rev }
	}
	d.until(60*time.Second, "the first session in 2026-07-28", ready(1, protocol.Rev20260728))
	if !m.info.Auto {
		t.Fatalf("the first session was not negotiated by protocol auto: %+v", m.info)
	}
	// A JSON-RPC error of this session says which era auto chose and how to force the
	// other; a tool error (isError) does not.
	for _, tool := range []string{"fail", "crash_rpc"} {
		d.run(callCmd(m.gen, m.sess, "tools/call", json.RawMessage(`{"name":"`+tool+`","arguments":{}}`)))
	}
	d.until(60*time.Second, "both failures, the JSON-RPC error with the era hint", func() bool {
		hinted, toolErr := 0, 0
		for _, e := range m.hist.Entries() {
			if e.Ev == nil || e.Ev.Frame == nil || !e.IsError() {
				continue
			}
			if e.ToolErr {
				toolErr++
			}
			if strings.Contains(rowPlain(m, e), "(2026-07-28 via auto: try --protocol 2025-11-25)") {
				hinted++
				if e.ToolErr {
					t.Fatalf("the tool error has the era hint: %s", rowPlain(m, e))
				}
			}
		}
		return hinted == 1 && toolErr == 1
	})
	d.handle(keyPress("3"))
	scr := plainScreen(m)
	inHelpLine := slices.ContainsFunc(m.shortKeys(), func(b key.Binding) bool { return b.Enabled() && b.Help().Key == "P" })
	if !strings.Contains(scr, "P restarts the server with --protocol 2025-11-25") || !inHelpLine {
		t.Fatalf("the server page does not offer P:\n%s", scr)
	}
	d.handle(keyPress("P"))
	d.until(60*time.Second, "the second session in 2025-11-25", ready(2, protocol.Rev20251125))
	if m.info.Stateless || m.info.Auto {
		t.Errorf("after P the session is %+v, want a forced stateful one", m.info)
	}
	if scr := plainScreen(m); !strings.Contains(scr, "P restarts the server with --protocol 2026-07-28") {
		t.Errorf("the server page does not offer the stateless era back:\n%s", scr)
	}
	d.handle(keyPress("R"))
	d.until(60*time.Second, "the third session, still in 2025-11-25", ready(3, protocol.Rev20251125))
}

// TestEraKeyOff: on a recording the era key is off, says why, and help does not list it;
// a view without NewSessionIn has it off too.
func TestEraKeyOff(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.jsonl")
	writeRecording(t, path, goldenTraffic(t))
	m := openModel(t, path, 120, 30)
	pressKey(m, "3")
	cmd := pressKey(m, "P")
	if cmd == nil {
		t.Fatal("P on a recording's server page did nothing")
	}
	m.Update(cmd())
	if scr := plainScreen(m); !strings.Contains(scr, "P (restart in the other protocol era) is off: a recording is being browsed") {
		t.Errorf("no reason for P:\n%s", scr)
	}
	if m.gen != 0 || m.sess != nil {
		t.Errorf("P on a recording started a session")
	}
	if NewModel(NewCommon(nil), Options{}).c.Keys.Era.Enabled() {
		t.Errorf("the era key is on without NewSessionIn")
	}
}

// TestEraHintOnlyOnRPCError: after protocol auto chose the stateless era, a JSON-RPC error
// row carries the era hint and a tool error (isError, a successful JSON-RPC answer) does
// not: the tool said what went wrong, the protocol did not fail.
func TestEraHintOnlyOnRPCError(t *testing.T) {
	m := newTimelineModel(t, Options{}, 200, 30)
	wi := newEvWire()
	info := session.ServerInfo{Revision: protocol.Rev20260728, Stateless: true, Auto: true, Transport: "stdio"}
	m.Update(EventsMsg{Gen: 1, Events: []*session.Event{wi.state(session.StateReady, "")}, Info: &info})
	call := wi.req(dirOut, 1, "tools/call", `{"name":"create_thing","arguments":{}}`)
	res := wi.res(time.Millisecond, call, `{"content":[{"type":"text","text":"the thing exists"}],"isError":true}`)
	bad := wi.req(dirOut, 2, "tools/call", `{"name":"create_thing","arguments":{}}`)
	rpc := wi.rpcErr(time.Millisecond, bad, -32603, "Internal error")
	feedEvents(m, call, res, bad, rpc)
	var toolErr, rpcErr *traffic.Entry
	for _, x := range m.hist.Entries() {
		switch {
		case x.ToolErr:
			toolErr = x
		case x.Ev.Frame != nil && x.Ev.Frame.Kind == protocol.KindError:
			rpcErr = x
		}
	}
	if toolErr == nil || rpcErr == nil {
		t.Fatalf("tool error %v, JSON-RPC error %v", toolErr, rpcErr)
	}
	for _, w := range []int{200, 80} {
		if row := ansi.Strip(rowText(m.c.Styles, toolErr, w, m.hist.Start, wi.now)); strings.Contains(row, "via auto") {
			t.Errorf("tool error row at %d columns with the era hint: %q", w, row)
		}
	}
	if toolErr.Era != nil {
		t.Errorf("the tool error's detail has an era note: %+v", toolErr.Era)
	}
	if row := ansi.Strip(rowText(m.c.Styles, rpcErr, 200, m.hist.Start, wi.now)); !strings.Contains(row, "(2026-07-28 via auto: try --protocol 2025-11-25)") {
		t.Errorf("JSON-RPC error row without the era hint: %q", row)
	}
	// At 80 columns the row keeps the hint's short form, cutting the label instead.
	if row := ansi.Strip(rowText(m.c.Styles, rpcErr, 80, m.hist.Start, wi.now)); !strings.Contains(row, "(2026-07-28 via auto)") {
		t.Errorf("JSON-RPC error row at 80 columns without the short era hint: %q", row)
	}
}
