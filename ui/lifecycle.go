package ui

import "fmt"

// life is where the model is in the life of its sessions. It is changed only by step, with
// the transitions in lifeSteps; session.State (m.state) is apart: it is what the current
// session says of itself (connecting, ready, closed), shown in the status line.
type life int

const (
	// lifeIdle: no session's events are coming: none was started, it could not be made,
	// or its event stream ended.
	lifeIdle life = iota
	// lifeStarting: the next session is being made; its SessionStartedMsg has not come.
	lifeStarting
	// lifeLive: the current session's events are being pumped.
	lifeLive
	// lifeDraining: the user disconnected; the closed session's last events may still come.
	lifeDraining
	// lifeRestarting: the current session is closing; the next starts when its pump ends.
	lifeRestarting
)

var lifeNames = [...]string{"idle", "starting", "live", "draining", "restarting"}

func (l life) String() string {
	if l < 0 || int(l) >= len(lifeNames) {
		return fmt.Sprintf("life(%d)", int(l))
	}
	return lifeNames[l]
}

// changing reports whether a session is being replaced: a restart, a switch or a connect
// is then refused (one is under way).
func (l life) changing() bool { return l == lifeStarting || l == lifeRestarting }

// lifeEvent is what moves the lifecycle.
type lifeEvent int

const (
	lifeStart      lifeEvent = iota // a session is being made (startSessionCmd)
	lifeStarted                     // it exists and its events are pumped (SessionStartedMsg)
	lifeFailed                      // it could not be made (SessionStartedMsg with Err)
	lifeRestart                     // the current session closes; the next starts after its pump
	lifeDisconnect                  // the user closed the current session
	lifePumpEnded                   // the current session's event stream ended
)

var lifeEventNames = [...]string{"start", "started", "failed", "restart", "disconnect", "pump ended"}

func (e lifeEvent) String() string {
	if e < 0 || int(e) >= len(lifeEventNames) {
		return fmt.Sprintf("lifeEvent(%d)", int(e))
	}
	return lifeEventNames[e]
}

// lifeSteps are the lifecycle's transitions: from a state, on an event, to a state. An
// event a state has no row for is a bug; step logs it and stays.
var lifeSteps = map[life]map[lifeEvent]life{
	// A session started without the model's asking (Init's first session, a test) is live too.
	lifeIdle:     {lifeStart: lifeStarting, lifeStarted: lifeLive, lifeFailed: lifeIdle, lifeDisconnect: lifeIdle},
	lifeStarting: {lifeStarted: lifeLive, lifeFailed: lifeIdle},
	lifeLive:     {lifeRestart: lifeRestarting, lifeDisconnect: lifeDraining, lifePumpEnded: lifeIdle},
	lifeDraining: {lifeRestart: lifeRestarting, lifePumpEnded: lifeIdle},
	// The pump of the closing session ended: startNext starts the next one (lifeStart).
	lifeRestarting: {lifePumpEnded: lifeIdle},
}

// next is the state l goes to on e; ok is false when l has no transition on e.
func (l life) next(e lifeEvent) (life, bool) {
	to, ok := lifeSteps[l][e]
	return to, ok
}

// step moves the model's lifecycle on e and returns the state it left.
func (m *Model) step(e lifeEvent) life {
	from := m.life
	to, ok := from.next(e)
	if !ok {
		m.c.Log.Printf("lifecycle: no step from %s on %s", from, e)
		return from
	}
	m.life = to
	return from
}
