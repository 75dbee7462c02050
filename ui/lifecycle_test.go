package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/session"
)

// TestLifeSteps pins the lifecycle's transitions: every one the model takes, and no other.
func TestLifeSteps(t *testing.T) {
	want := map[life]map[lifeEvent]life{
		lifeIdle:       {lifeStart: lifeStarting, lifeStarted: lifeLive, lifeFailed: lifeIdle, lifeDisconnect: lifeIdle},
		lifeStarting:   {lifeStarted: lifeLive, lifeFailed: lifeIdle},
		lifeLive:       {lifeRestart: lifeRestarting, lifeDisconnect: lifeDraining, lifePumpEnded: lifeIdle},
		lifeDraining:   {lifeRestart: lifeRestarting, lifePumpEnded: lifeIdle},
		lifeRestarting: {lifePumpEnded: lifeIdle},
	}
	for l := lifeIdle; l <= lifeRestarting; l++ {
		for e := lifeStart; e <= lifePumpEnded; e++ {
			to, ok := l.next(e)
			w, wok := want[l][e]
			if ok != wok || to != w {
				t.Errorf("%s on %s: (%s, %v), want (%s, %v)", l, e, to, ok, w, wok)
			}
		}
	}
	for _, l := range []life{lifeStarting, lifeRestarting} {
		if !l.changing() {
			t.Errorf("%s does not refuse a restart", l)
		}
	}
	for _, l := range []life{lifeIdle, lifeLive, lifeDraining} {
		if l.changing() {
			t.Errorf("%s refuses a restart", l)
		}
	}
}

// TestLifeStepRefusesUnknown checks that an event a state has no transition for leaves the
// state as it is.
func TestLifeStepRefusesUnknown(t *testing.T) {
	m := newTimelineModel(t, Options{}, 80, 24)
	m.life = lifeStarting
	if from := m.step(lifeRestart); from != lifeStarting || m.life != lifeStarting {
		t.Errorf("restart while starting: from %s to %s, want to stay starting", from, m.life)
	}
}

// TestLifecycleJourney drives the lifecycle through a real demo server: the first session
// starting (a restart then is refused: it used to start a second session of the same
// generation), live, restarted, disconnected and restarted while its last events drain,
// disconnected until its stream ends, then started again.
func TestLifecycleJourney(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo server")
	}
	m := NewModel(NewCommon(nil), demoOptions(t, nil))
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 120, Height: 30})
	d.run(m.Init())
	want := func(l life, when string) {
		t.Helper()
		if m.life != l {
			t.Fatalf("%s: lifecycle %s, want %s", when, m.life, l)
		}
	}
	want(lifeStarting, "after Init")
	d.handle(tea.KeyPressMsg{Code: 'R', Text: "R"})
	want(lifeStarting, "R while the first session is made")
	live := func(gen int) func() bool {
		return func() bool {
			return m.gen == gen && m.state == session.StateReady && screenRow(plainScreen(m), "res", "tools/list") != ""
		}
	}
	d.until(60*time.Second, "the first session's tools/list", live(1))
	want(lifeLive, "first session ready")
	if n := markers(m); n != 0 {
		t.Fatalf("%d restart markers after R during the first start, want none", n)
	}

	d.handle(tea.KeyPressMsg{Code: 'R', Text: "R"})
	want(lifeRestarting, "R on a live session")
	d.until(60*time.Second, "the second session's tools/list", live(2))
	want(lifeLive, "second session ready")

	d.handle(tea.KeyPressMsg{Code: '5', Text: "5"})
	d.handle(tea.KeyPressMsg{Code: 'd', Text: "d"})
	want(lifeDraining, "disconnected")
	d.handle(tea.KeyPressMsg{Code: 'R', Text: "R"})
	want(lifeRestarting, "R while the disconnected session drains")
	d.handle(tea.KeyPressMsg{Code: '1', Text: "1"})
	d.until(60*time.Second, "the third session's tools/list", live(3))
	want(lifeLive, "third session ready")

	d.handle(tea.KeyPressMsg{Code: '5', Text: "5"})
	d.handle(tea.KeyPressMsg{Code: 'd', Text: "d"})
	want(lifeDraining, "disconnected again")
	d.until(60*time.Second, "the disconnected session's stream to end", func() bool { return m.life == lifeIdle })
	d.handle(tea.KeyPressMsg{Code: 'R', Text: "R"})
	want(lifeStarting, "R after the stream ended")
	d.handle(tea.KeyPressMsg{Code: '1', Text: "1"})
	d.until(60*time.Second, "the fourth session's tools/list", live(4))
	want(lifeLive, "fourth session ready")
}

// markers counts the timeline's restart markers.
func markers(m *Model) int {
	n := 0
	for _, e := range m.hist.Entries() {
		if strings.HasPrefix(e.Marker, "restart #") {
			n++
		}
	}
	return n
}
