package ui

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// evWire builds session events the way a session publishes them: real frames decoded by
// protocol.Decode, with the correlation the session would attach.
type evWire struct {
	seq uint64
	now time.Time
}

func newEvWire() *evWire {
	return &evWire{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

// ev advances the clock by d and stamps ev with it and the next sequence number.
func (w *evWire) ev(d time.Duration, ev *session.Event) *session.Event {
	w.seq++
	w.now = w.now.Add(d)
	ev.Seq, ev.Time = w.seq, w.now
	return ev
}

func (w *evWire) frame(d time.Duration, dir protocol.Direction, raw string, corr session.Correlation) *session.Event {
	return w.ev(d, &session.Event{Kind: session.EvFrame, Dir: dir, Frame: protocol.Decode([]byte(raw)), Corr: corr})
}

// req is a request from dir with an integer id.
func (w *evWire) req(dir protocol.Direction, id int, method, params string) *session.Event {
	return w.frame(time.Millisecond, dir, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params), session.Correlation{})
}

// res answers req after d with result.
func (w *evWire) res(d time.Duration, req *session.Event, result string) *session.Event {
	raw := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, req.Frame.ID, result)
	return w.answer(d, req, raw)
}

// rpcErr answers req after d with a JSON-RPC error.
func (w *evWire) rpcErr(d time.Duration, req *session.Event, code int, msg string) *session.Event {
	raw := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%q}}`, req.Frame.ID, code, msg)
	return w.answer(d, req, raw)
}

func (w *evWire) answer(d time.Duration, req *session.Event, raw string) *session.Event {
	corr := session.Correlation{Method: req.Frame.Method, RequestSeq: req.Seq}
	if req.Dir == protocol.ClientToServer {
		corr.Latency = d // the session measures latency of its own requests only
	}
	return w.frame(d, opposite(req.Dir), raw, corr)
}

// note is a notification from dir; corr links it when the session would.
func (w *evWire) note(dir protocol.Direction, method, params string, corr session.Correlation) *session.Event {
	return w.frame(time.Millisecond, dir, fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s}`, method, params), corr)
}

// progress is a notifications/progress for req.
func (w *evWire) progress(req *session.Event, done, total float64, msg string) *session.Event {
	p := &session.Progress{Token: "t", Progress: done, Total: total, Message: msg}
	return w.note(protocol.ServerToClient, "notifications/progress",
		fmt.Sprintf(`{"progressToken":"t","progress":%g,"total":%g,"message":%q}`, done, total, msg),
		session.Correlation{RequestSeq: req.Seq, Method: req.Frame.Method, Progress: p})
}

func (w *evWire) stderr(text string) *session.Event {
	return w.ev(time.Millisecond, &session.Event{Kind: session.EvStderr, Text: text})
}

func (w *evWire) http(status int, url string) *session.Event {
	return w.ev(time.Millisecond, &session.Event{Kind: session.EvHTTP, HTTP: &transport.HTTPExchange{
		Purpose: "post", Method: "POST", URL: url, Status: status, Started: w.now, Duration: 3 * time.Millisecond}})
}

func (w *evWire) transport(note, text string) *session.Event {
	return w.ev(time.Millisecond, &session.Event{Kind: session.EvTransport, Note: note, Text: text})
}

func (w *evWire) state(st session.State, text string) *session.Event {
	return w.ev(time.Millisecond, &session.Event{Kind: session.EvState, State: st, Text: text})
}

func opposite(d protocol.Direction) protocol.Direction {
	if d == protocol.ClientToServer {
		return protocol.ServerToClient
	}
	return protocol.ClientToServer
}

const (
	dirOut = protocol.ClientToServer
	dirIn  = protocol.ServerToClient
)

// traffic makes n events of realistic mixed traffic: tool calls with progress and log
// notifications, some errors, a frame with findings now and then, stderr lines and HTTP
// exchanges.
func mixedTraffic(w *evWire, n int) []*session.Event {
	evs := make([]*session.Event, 0, n+8)
	payload := strings.Repeat("x", 300)
	id := 0
	for len(evs) < n {
		id++
		r := w.req(dirOut, id, "tools/call", fmt.Sprintf(`{"name":"slow","arguments":{"steps":3,"note":%q},"_meta":{"progressToken":"t"}}`, payload))
		evs = append(evs, r)
		evs = append(evs, w.progress(r, 1, 3, "working"))
		evs = append(evs, w.note(dirIn, "notifications/message", `{"level":"info","data":"step one done"}`, session.Correlation{}))
		evs = append(evs, w.stderr(fmt.Sprintf("demo: call %d in progress", id)))
		switch id % 10 {
		case 3:
			evs = append(evs, w.rpcErr(40*time.Millisecond, r, -32602, "Invalid params: steps"))
		case 7:
			// A result with a wrong jsonrpc version: a finding.
			evs = append(evs, w.frame(12*time.Millisecond, dirIn,
				fmt.Sprintf(`{"jsonrpc":"1.0","id":%d,"result":{"content":[]}}`, id),
				session.Correlation{Method: "tools/call", RequestSeq: r.Seq, Latency: 12 * time.Millisecond}))
		default:
			evs = append(evs, w.res(time.Duration(id%900)*time.Millisecond, r,
				fmt.Sprintf(`{"content":[{"type":"text","text":%q}]}`, payload)))
		}
		if id%5 == 0 {
			evs = append(evs, w.http(200, "http://127.0.0.1:8080/mcp"))
		}
	}
	return evs[:n]
}

// newTimelineModel is a Model of w×h cells whose first session (generation 1) has started; its
// events are fed with feed.
func newTimelineModel(t testing.TB, opts Options, w, h int) *Model {
	t.Helper()
	if opts.NewSession == nil {
		opts.NewSession = func() (*session.Session, error) { return nil, fmt.Errorf("no server in this test") }
	}
	m := NewModel(NewCommon(nil), opts)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.Update(SessionStartedMsg{Gen: 1})
	return m
}

// feed delivers evs to m as one pump batch of session 1; the pump command it returns is
// not run (there is no subscription).
func feedEvents(m *Model, evs ...*session.Event) {
	m.Update(EventsMsg{Gen: 1, Events: evs})
}

// press sends one key press; keys are "up", "down", "enter", "esc" or a printable text.
func pressKey(m *Model, k string) tea.Cmd {
	var msg tea.KeyPressMsg
	switch k {
	case "up":
		msg = tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		msg = tea.KeyPressMsg{Code: tea.KeyDown}
	case "enter":
		msg = tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		msg = tea.KeyPressMsg{Code: tea.KeyEscape}
	case "backspace":
		msg = tea.KeyPressMsg{Code: tea.KeyBackspace}
	default:
		r := []rune(k)[0]
		msg = tea.KeyPressMsg{Code: r, Text: k}
	}
	_, cmd := m.Update(msg)
	return cmd
}

// typeKeys presses each character of s.
func typeKeys(m *Model, s string) {
	for _, r := range s {
		pressKey(m, string(r))
	}
}

// runCmdSync runs cmd and every command its messages lead to, in order, on this goroutine,
// handing each message to m. Commands that wait on a live session or a timer are not for
// this helper (see driver); quitting is reported.
func runCmdSync(t testing.TB, m *Model, cmd tea.Cmd) (quit bool) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		switch msg := msg.(type) {
		case nil:
		case tea.QuitMsg:
			quit = true
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			if cmds, ok := seqCmds(msg); ok {
				queue = append(queue, cmds...)
				continue
			}
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
	return quit
}

// sequence unpacks the message of tea.Sequence (a slice of commands of an unexported type).
func seqCmds(msg tea.Msg) ([]tea.Cmd, bool) {
	if _, batch := msg.(tea.BatchMsg); batch {
		return nil, false
	}
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeFor[tea.Cmd]() {
		return nil, false
	}
	cmds := make([]tea.Cmd, v.Len())
	for i := range cmds {
		cmds[i] = v.Index(i).Interface().(tea.Cmd)
	}
	return cmds, true
}

// statusOf runs cmd (one level of batch deep) and returns the status text it shows, if any.
func statusOf(cmd tea.Cmd) string {
	if cmd == nil {
		return ""
	}
	switch msg := cmd().(type) {
	case StatusMsg:
		return msg.Text
	case tea.BatchMsg:
		for _, c := range msg {
			if s := statusOf(c); s != "" {
				return s
			}
		}
	}
	return ""
}

// quits reports whether cmd quits the program.
func quits(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// screenRow is the rendered screen line that contains all of parts, or "".
func screenRow(screen string, parts ...string) string {
	for _, l := range strings.Split(screen, "\n") {
		ok := true
		for _, p := range parts {
			if !strings.Contains(l, p) {
				ok = false
				break
			}
		}
		if ok {
			return l
		}
	}
	return ""
}

// demoOptions are Options whose sessions run the built demo server over stdio; adjust, when
// given, changes each session's configuration. The sessions are closed when the test ends.
func demoOptions(t testing.TB, adjust func(*session.Config)) Options {
	t.Helper()
	return stdioOptions(t, "mcpscope demo", sessiontest.BuildMCPScope(t), []string{"demo"}, adjust)
}

// stdioOptions are Options whose sessions run command bin with args over stdio (target
// names it on screen); adjust, when given, changes each session's configuration. The
// sessions are closed when the test ends.
func stdioOptions(t testing.TB, target, bin string, args []string, adjust func(*session.Config)) Options {
	t.Helper()
	stdio := func() (transport.Transport, error) {
		return transport.NewStdio(transport.StdioOptions{Command: bin, Args: args}), nil
	}
	return Options{Target: target, TransportName: "stdio", NewSession: closingSessions(t, stdio, adjust)}
}

// closingSessions is a NewSession over the transports newTransport makes; adjust, when
// given, changes each session's configuration. Every session it made is closed when the
// test ends.
func closingSessions(t testing.TB, newTransport func() (transport.Transport, error), adjust func(*session.Config)) func() (*session.Session, error) {
	var mu sync.Mutex
	var sessions []*session.Session
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, s := range sessions {
			_ = s.Close()
		}
	})
	return func() (*session.Session, error) {
		tr, err := newTransport()
		if err != nil {
			return nil, err
		}
		cfg := session.Config{Transport: tr}
		if adjust != nil {
			adjust(&cfg)
		}
		s := session.New(cfg)
		mu.Lock()
		sessions = append(sessions, s)
		mu.Unlock()
		return s, nil
	}
}
