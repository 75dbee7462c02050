package ui

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// Asker is the interactive view's session.Responder: what the server asks (sampling,
// elicitation, and the same requests inside 2026-07-28 input_required results) goes to the
// person at the terminal. Respond hands each request to the program and blocks until the
// user answers or the request's context ends (the server cancelled it, or the session
// closed). ping and roots/list need no person: they are answered at once, roots/list from
// the roots the user keeps in the roots editor.
//
// The program receives requests with WaitAskCmd, a one-shot command the model issues again
// after each AskMsg; nothing polls.
type Asker struct {
	ch    chan AskMsg
	appCh chan AppAskMsg // what an MCP App run from the explorer asks (ask_app.go)
	done  chan struct{}
	once  sync.Once
	ids   atomic.Uint64

	mu    sync.Mutex
	roots []session.Root
	cwd   string // relative root paths typed in the editor are taken from here
}

// NewAsker makes an Asker that answers roots/list with roots until the user edits them.
func NewAsker(roots []session.Root) *Asker {
	a := &Asker{ch: make(chan AskMsg), appCh: make(chan AppAskMsg), done: make(chan struct{}), roots: slices.Clone(roots)}
	if wd, err := filepath.Abs("."); err == nil {
		a.cwd = wd
	}
	return a
}

// Close ends every wait: requests still waiting are answered with an error and WaitAskCmd
// returns nil. The program calls it when it ends.
func (a *Asker) Close() { a.once.Do(func() { close(a.done) }) }

// Roots are the roots roots/list answers with now.
func (a *Asker) Roots() []session.Root {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.roots)
}

// SetRoots replaces the roots; the next roots/list answers with them.
func (a *Asker) SetRoots(roots []session.Root) {
	a.mu.Lock()
	a.roots = slices.Clone(roots)
	a.mu.Unlock()
}

// Ask is one request waiting for the user.
type Ask struct {
	ID      uint64 // tells asks apart in the program
	Req     *session.ServerRequest
	Arrived time.Time

	reply chan askReply
	once  sync.Once
}

type askReply struct {
	result json.RawMessage
	err    *session.RPCError
}

// answer delivers the user's answer (only the first one counts).
func (q *Ask) answer(result json.RawMessage, err *session.RPCError) {
	q.once.Do(func() { q.reply <- askReply{result, err} })
}

// AskMsg brings a request to the program, or (Withdrawn) says a request shown earlier no
// longer waits: the server cancelled it or its session ended.
type AskMsg struct {
	Ask       *Ask
	Withdrawn bool
}

// WaitAskCmd waits for the next AskMsg; the model issues it again after each one. It yields
// nil once the Asker is closed.
func WaitAskCmd(a *Asker) tea.Cmd {
	return func() tea.Msg {
		select {
		case msg := <-a.ch:
			return msg
		case <-a.done:
			return nil
		}
	}
}

// answerCmd hands the user's answer to the waiting Respond.
func answerCmd(q *Ask, result json.RawMessage, err *session.RPCError) tea.Cmd {
	return func() tea.Msg {
		q.answer(result, err)
		return nil
	}
}

// Methods the Asker puts to the user.
const (
	methodSampling = "sampling/createMessage"
	methodElicit   = "elicitation/create"
	methodRoots    = "roots/list"
)

// Respond implements session.Responder.
func (a *Asker) Respond(ctx context.Context, req *session.ServerRequest) (json.RawMessage, *session.RPCError) {
	switch req.Method {
	case "ping":
		return json.RawMessage(`{}`), nil
	case methodRoots:
		roots := a.Roots()
		if roots == nil {
			roots = []session.Root{}
		}
		b, _ := protocol.Marshal(map[string]any{"roots": roots}) // strings only: cannot fail
		return b, nil
	case methodSampling, methodElicit:
	default:
		return nil, &session.RPCError{Code: protocol.MethodNotFound, Message: "mcpscope does not handle " + req.Method}
	}
	q := &Ask{ID: a.ids.Add(1), Req: req, Arrived: time.Now(), reply: make(chan askReply, 1)}
	select {
	case a.ch <- AskMsg{Ask: q}:
	case <-ctx.Done():
		return nil, cancelledErr(ctx)
	case <-a.done:
		return nil, closedErr()
	}
	select {
	case r := <-q.reply:
		return r.result, r.err
	case <-ctx.Done():
		select {
		case a.ch <- AskMsg{Ask: q, Withdrawn: true}:
		case <-a.done:
		}
		return nil, cancelledErr(ctx)
	case <-a.done:
		return nil, closedErr()
	}
}

func cancelledErr(ctx context.Context) *session.RPCError {
	return &session.RPCError{Code: -32800, Message: "request cancelled before the user answered: " + context.Cause(ctx).Error()}
}

func closedErr() *session.RPCError {
	return &session.RPCError{Code: -1, Message: "mcpscope closed before the user answered"}
}

// absPath makes a path typed in the roots editor absolute, from the directory mcpscope
// started in.
func (a *Asker) absPath(p string) string {
	if filepath.IsAbs(p) || a.cwd == "" {
		return filepath.Clean(p)
	}
	return filepath.Join(a.cwd, p)
}
