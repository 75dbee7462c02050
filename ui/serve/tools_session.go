package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// Answers says how the session answers the server's own requests: fixed by connect's
// arguments, since no person is there to answer.
type Answers struct {
	Sampling    string   `json:"sampling" jsonschema:"how sampling/createMessage is answered"`
	Elicitation string   `json:"elicitation" jsonschema:"how elicitation/create is answered"`
	Roots       string   `json:"roots" jsonschema:"how roots/list is answered"`
	RootList    []string `json:"root_list,omitempty" jsonschema:"the roots offered"`
}

// answersOf describes what t and the declared capabilities make of server requests.
func answersOf(t Target, caps session.ClientCaps) Answers {
	var a Answers
	switch {
	case !caps.Sampling:
		a.Sampling = "sampling not declared"
	case t.SamplingReply != "":
		a.Sampling = "answered with the fixed text given as sampling_reply"
	case t.Sampling == policyDecline:
		a.Sampling = "declined (sampling: ask to answer it yourself, or sampling_reply for a fixed text)"
	default:
		a.Sampling = "asked: the call returns the request as pending; answer it with the model's reply"
	}
	switch {
	case !caps.ElicitForm && !caps.ElicitURL:
		a.Elicitation = "elicitation not declared"
	case t.Elicit == "" || t.Elicit == policyAsk:
		a.Elicitation = "asked: the call returns the question as pending; answer it (accept with content, decline, cancel)"
	case t.Elicit == session.ElicitDecline:
		a.Elicitation = "declined (elicit: ask, cancel or accept-defaults to change)"
	default:
		a.Elicitation = t.Elicit
	}
	if caps.Roots {
		a.Roots = "answered with the roots given"
		a.RootList = t.Roots
	} else {
		a.Roots = "roots not declared (give roots to offer some)"
	}
	return a
}

// Handshake is what the server said about itself.
type Handshake struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Version      string          `json:"version"`
	Revision     string          `json:"revision" jsonschema:"the negotiated protocol revision"`
	Era          string          `json:"era" jsonschema:"stateful (initialize) or stateless (2026-07-28)"`
	Transport    string          `json:"transport"`
	Capabilities json.RawMessage `json:"capabilities,omitempty" jsonschema:"the server's capabilities, as declared"`
	Instructions string          `json:"instructions,omitempty"`
}

// handshakeOf is info as a result.
func handshakeOf(info session.ServerInfo) Handshake {
	era := "stateful"
	if info.Stateless {
		era = "stateless"
	}
	return Handshake{Name: info.Implementation.Name, Title: info.Implementation.Title, Version: info.Implementation.Version,
		Revision: string(info.Revision), Era: era, Transport: info.Transport, Capabilities: info.Capabilities,
		Instructions: info.Instructions}
}

// Connected is connect's result.
type Connected struct {
	Session   string    `json:"session" jsonschema:"the session id every other tool takes"`
	Server    string    `json:"server" jsonschema:"the server selected, secrets masked"`
	Handshake Handshake `json:"handshake"`
	Answers   Answers   `json:"server_requests" jsonschema:"how the server's own requests are answered"`
	Recording string    `json:"recording" jsonschema:"the session's recording: mcpscope open FILE"`
	Findings  []Finding `json:"findings,omitempty" jsonschema:"findings of the handshake"`
	// PendingAuth: the server needs a login first.
	PendingAuth *PendingAuth `json:"pending_auth,omitempty" jsonschema:"the server needs the user to log in (OAuth) before the handshake ends: show url to the user, then await_auth; handshake is empty until then"`
}

// SessionRef names a session.
type SessionRef struct {
	Session string `json:"session" jsonschema:"the session id connect returned"`
}

// SessionInfo is one row of sessions.
type SessionInfo struct {
	Session   string `json:"session"`
	Server    string `json:"server"`
	State     string `json:"state"`
	Revision  string `json:"revision,omitempty"`
	Recording string `json:"recording"`
	Events    uint64 `json:"last_seq" jsonschema:"the last event's seq"`
	Findings  int    `json:"findings"`
	Exit      string `json:"exit,omitempty" jsonschema:"how the server process ended, when it did"`
	// How reconnect stands.
	Reconnects    int    `json:"reconnects,omitempty" jsonschema:"how many times a new session replaced one that ended"`
	ReconnectFail string `json:"reconnect_failed,omitempty" jsonschema:"why the last reconnect failed"`
	Pending       int    `json:"pending,omitempty" jsonschema:"questions of the server waiting for an answer (pending lists them)"`
}

// SessionList is sessions' result.
type SessionList struct {
	Sessions []SessionInfo `json:"sessions"`
}

// Disconnected is disconnect's result.
type Disconnected struct {
	Session   string `json:"session"`
	Recording string `json:"recording"`
	Open      string `json:"open" jsonschema:"the command that opens the recording"`
	Exit      string `json:"exit,omitempty"`
}

// Recording is recording's result.
type Recording struct {
	Session string `json:"session"`
	Path    string `json:"path"`
	Bytes   int64  `json:"bytes"`
	Events  int    `json:"events" jsonschema:"events written so far"`
	Open    string `json:"open" jsonschema:"the command that opens it in mcpscope's view"`
	Live    bool   `json:"live" jsonschema:"the session is still open, so the file still grows"`
}

// connectWait bounds a handshake.
const connectWait = 60 * time.Second

func (s *Server) connect(ctx context.Context, t Target) (Connected, error) {
	if len(t.Command) == 0 && t.URL == "" && t.Config == "" {
		return Connected{}, fmt.Errorf("connect needs a server: command (e.g. [\"node\",\"server.js\"]) or url")
	}
	if len(t.Command) > 0 && t.URL != "" {
		return Connected{}, fmt.Errorf("connect takes command or url, not both")
	}
	if err := s.reg.room(); err != nil {
		return Connected{}, err
	}
	s.addSecrets(t.secrets()) // before Open: its error may quote what was mistyped
	if t.Elicit == "" {
		t.Elicit = s.opts.Elicit
	}
	if t.Sampling == "" && t.SamplingReply == "" {
		t.SamplingReply = s.opts.SamplingReply
	}
	ask := &asker{qs: s.questions, elicit: t.Elicit, sampling: t.Sampling}
	if ask.elicit == "" {
		ask.elicit = policyAsk
	}
	if ask.sampling == "" && t.SamplingReply == "" {
		ask.sampling = policyAsk
	}
	opened := t
	if opened.Elicit == policyAsk {
		opened.Elicit = "" // the session's own Responder answers only what is not asked
	}
	w := newLoginWait()
	opened.login = w.present
	o, err := s.opts.Open(opened)
	if err != nil {
		return Connected{}, err
	}
	s.addSecrets(o.Masking.Secrets)
	l, err := newLive(s.opts.RecordDir, t, o)
	if err != nil {
		return Connected{}, err
	}
	ask.inner = o.Session.Responder()
	l.ask = ask
	l.revive.on, l.revive.opened = reconnectDefault(t), opened
	o.Session.SetResponder(ask)
	l.answers = answersOf(t, o.Session.Caps())
	return s.handshake(ctx, l, w)
}

func (s *Server) sessions(context.Context, struct{}) (SessionList, error) {
	out := SessionList{Sessions: []SessionInfo{}}
	for _, l := range s.reg.list() {
		st, reconnects, failed := l.state()
		info := l.sess().Info()
		l.mu.Lock()
		last, findings := l.pumped, l.h.Findings
		l.mu.Unlock()
		qs, _, _ := s.questions.list(l.id, 0)
		out.Sessions = append(out.Sessions, SessionInfo{Session: l.id, Server: l.server, State: st,
			Revision: string(info.Revision), Recording: l.path, Events: last, Findings: findings, Exit: exitText(l.sess()),
			Reconnects: reconnects, ReconnectFail: failed, Pending: len(qs)})
	}
	return out, nil
}

func (s *Server) disconnect(_ context.Context, in SessionRef) (Disconnected, error) {
	l, err := s.reg.get(in.Session)
	if err != nil {
		return Disconnected{}, err
	}
	err = l.close()
	s.reg.remove(l.id)
	s.logf("session %s closed", l.id)
	out := Disconnected{Session: l.id, Recording: l.path, Open: openCommand(l.path), Exit: exitText(l.sess())}
	if err != nil {
		return out, fmt.Errorf("close the recording %s: %w", l.path, err)
	}
	return out, nil
}

func (s *Server) recording(_ context.Context, in SessionRef) (Recording, error) {
	l, err := s.reg.get(in.Session)
	if err != nil {
		return Recording{}, err
	}
	out := Recording{Session: l.id, Path: l.path, Events: l.rec.Events(), Open: openCommand(l.path), Live: true}
	if fi, err := os.Stat(l.path); err == nil {
		out.Bytes = fi.Size()
	}
	return out, nil
}

// openCommand is the shell command that opens a recording.
func openCommand(path string) string {
	if strings.ContainsAny(path, " '\"\\$`") {
		return "mcpscope open '" + strings.ReplaceAll(path, "'", `'\''`) + "'"
	}
	return "mcpscope open " + path
}

// exitText says how the session's server process ended, or "" while it runs.
func exitText(s *session.Session) string {
	x := s.Exit()
	switch {
	case x == nil:
		return ""
	case x.ByUs:
		return "closed by mcpscope"
	case x.Signal != "":
		return "killed by signal " + x.Signal
	case x.Err != "":
		return x.Err
	}
	return fmt.Sprintf("exited with code %d", x.Code)
}

// logf writes one line to Options.Logf, masked as results are.
func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf("%s", s.masker().String(fmt.Sprintf(format, args...)))
	}
}

// Finding is a finding on an event.
type Finding struct {
	Seq      uint64 `json:"seq" jsonschema:"the event it is on"`
	Code     string `json:"code"`
	Severity string `json:"severity" jsonschema:"error, warning or info"`
	Message  string `json:"message"`
}

// findingsOf is the findings of an event: a frame's (its batch members' too) or another
// event's.
func findingsOf(ev *session.Event) []Finding {
	if ev == nil {
		return nil
	}
	var fs []protocol.Finding
	if ev.Frame != nil {
		fs = session.AllFindings(ev.Frame)
	}
	fs = append(fs, ev.Findings...)
	out := make([]Finding, 0, len(fs))
	for _, f := range fs {
		out = append(out, Finding{Seq: ev.Seq, Code: f.Code, Severity: f.Severity.String(), Message: f.Message})
	}
	return out
}

// maxStderrShown bounds the server's last stderr lines a failed connect returns.
const maxStderrShown = 20

// stderrTail is what a server that failed to connect last wrote on stderr, as lines to
// append to the error: the session's tail when it ended (ConnectError), else the stderr
// events recorded so far; "" when it wrote nothing.
func stderrTail(err error, l *live) string {
	var lines []string
	var ce *session.ConnectError
	if errors.As(err, &ce) {
		lines = ce.Stderr
	}
	if len(lines) == 0 {
		l.mu.Lock()
		for _, e := range l.h.Entries() {
			if e.Ev != nil && e.Ev.Kind == session.EvStderr {
				lines = append(lines, e.Ev.Text)
			}
		}
		l.mu.Unlock()
	}
	if len(lines) == 0 {
		return ""
	}
	if len(lines) > maxStderrShown {
		lines = lines[len(lines)-maxStderrShown:]
	}
	return "\nlast lines the server wrote on stderr:\n  " + strings.Join(lines, "\n  ")
}
