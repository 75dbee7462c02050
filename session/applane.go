package session

import (
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/session/transport"
)

// LaneApp is Event.Lane for the messages an MCP App's view and the host exchange over
// postMessage (io.modelcontextprotocol/ui). They are frames of the session like the
// server's: exact bytes, paired by id with latency, checked against the extension.
const LaneApp = "app"

// AppDirection names a direction on the app lane: "app→host" for ServerToClient (the
// view speaks to the host, as a server speaks to mcpscope) and "host→app" for
// ClientToServer.
func AppDirection(d protocol.Direction) string {
	if d == protocol.ClientToServer {
		return "host→app"
	}
	return "app→host"
}

// AppLane is one app's postMessage conversation with the host: it decodes each message,
// pairs responses with requests by id and direction, raises the lane's findings and
// publishes the message as an event of the session. Safe for concurrent use.
type AppLane struct {
	s *Session
	// Guarded by s.mu.
	pending     map[string]appPending // by the request's direction and id
	initialize  bool                  // the view sent ui/initialize
	initialized bool                  // the view sent ui/notifications/initialized
}

type appPending struct {
	seq    uint64
	method string
	sent   time.Time
}

// AppLane opens an app lane on the session. Each hosted view has its own.
func (s *Session) AppLane() *AppLane {
	return &AppLane{s: s, pending: map[string]appPending{}}
}

// Record publishes one message of the lane: raw is its exact text, dir ServerToClient for
// app→host and ClientToServer for host→app. It returns the published event.
func (l *AppLane) Record(dir protocol.Direction, raw []byte) *Event {
	return l.RecordWith(dir, raw)
}

// RecordWith is Record with more findings on the message, such as the host's refusal.
func (l *AppLane) RecordWith(dir protocol.Direction, raw []byte, more ...protocol.Finding) *Event {
	f := protocol.Decode(raw)
	f.Findings = append(f.Findings, more...)
	s := l.s
	s.mu.Lock()
	defer s.mu.Unlock()
	ev := &Event{Kind: EvFrame, Dir: dir, Frame: f, Lane: LaneApp, Time: time.Now(),
		Recv: transport.RecvInfo{Via: "postMessage", Size: int64(len(raw))}}
	from := apps.FromView
	if dir == protocol.ClientToServer {
		from = apps.FromHost
	}
	key := func(reqDir protocol.Direction, id protocol.ID) string { return reqDir.String() + " " + id.Key() }
	switch {
	case f.Kind == protocol.KindRequest || f.Kind == protocol.KindNotification:
		_, ok := apps.LookupLane(f.Method, from)
		if !ok {
			f.Findings = append(f.Findings, protocol.NewFinding(protocol.FindAppUnknownMethod,
				"%s is not a method the %s sends in MCP Apps", f.Method, sideName(from)))
		}
		switch {
		case f.Method == apps.MethodInitialize:
			l.initialize = true
		case f.Method == apps.MethodInitialized:
			l.initialized = true
		case ok && apps.IsSandboxMessage(f.Method):
		case from == apps.FromView && !l.initialize && f.Kind == protocol.KindRequest && f.Method != "ping":
			f.Findings = append(f.Findings, protocol.NewFinding(protocol.FindAppBeforeInitialize,
				"the view sent %s before ui/initialize", f.Method))
		case from == apps.FromHost && !l.initialized && f.Method != "ping":
			f.Findings = append(f.Findings, protocol.NewFinding(protocol.FindAppBeforeInitialize,
				"the host sent %s before the view's ui/notifications/initialized", f.Method))
		}
	case f.Kind.IsResponse():
		reqDir := protocol.ClientToServer
		if dir == protocol.ClientToServer {
			reqDir = protocol.ServerToClient
		}
		k := key(reqDir, f.ID)
		if p, ok := l.pending[k]; ok && !f.ID.IsZero() {
			delete(l.pending, k)
			ev.Corr = Correlation{Method: p.method, RequestSeq: p.seq, Latency: ev.Time.Sub(p.sent)}
		} else {
			f.Findings = append(f.Findings, protocol.NewFinding(protocol.FindAppUnknownID,
				"response id %s answers no request on the app lane", f.ID.String()))
		}
	}
	s.emit(ev)
	if f.Kind == protocol.KindRequest && !f.ID.IsZero() {
		l.pending[key(dir, f.ID)] = appPending{seq: ev.Seq, method: f.Method, sent: ev.Time}
	}
	return ev
}

func sideName(s apps.Side) string {
	if s == apps.FromHost {
		return "host"
	}
	return "view"
}
