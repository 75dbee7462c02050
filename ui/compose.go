package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/form"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// composer is the dialog that sends a request the user writes: a method and params JSON,
// or (raw mode) any text exactly as typed, valid JSON-RPC or not. Editing a recorded
// tools/call opens the tool's form instead, filled with the recorded arguments.
type composer struct {
	raw     bool
	field   int // fields mode: 0 method, 1 params
	method  textinput.Model
	params  textarea.Model
	rawText textarea.Model

	form *form.Model     // editing a tools/call: the tool's arguments
	tool string          // that tool
	base json.RawMessage // the recorded params whose arguments the form replaces

	title   string
	problem string

	methods []string          // the methods the method field completes
	rev     protocol.Revision // their revision ("" before the handshake)
	width   int               // the inputs' width
}

// sentMsg reports how a request sent from the composer, or re-sent, ended.
type sentMsg struct {
	Gen    int
	Method string
	Err    error
	Resp   *session.Response
}

// cancelledMsg reports whether the request of event Seq was still in flight when the user
// cancelled it.
type cancelledMsg struct {
	Gen int
	Seq uint64
	OK  bool
}

func newComposer() *composer {
	k := &composer{method: textinput.New(), params: textarea.New(), rawText: textarea.New()}
	k.method.Prompt = ""
	k.method.Placeholder = "tools/list"
	k.params.ShowLineNumbers = false
	k.params.Placeholder = paramsPlaceholder("")
	k.rawText.ShowLineNumbers = false
	k.rawText.Placeholder = rawFrame("", "") + " — or anything at all"
	return k
}

// openComposer opens the composer filled with method and params (pretty-printed).
func (m *Model) openComposer(method string, params json.RawMessage) tea.Cmd {
	c := newComposer()
	c.title = "New request"
	if method != "" {
		c.title = "Edit & re-send " + method
	}
	c.setMethodCompletion(m.info.Revision)
	c.method.SetValue(method)
	c.fitPlaceholder()
	if len(params) > 0 {
		var b bytes.Buffer
		if json.Indent(&b, params, "", "  ") == nil {
			c.params.SetValue(b.String())
		} else {
			c.params.SetValue(string(params))
		}
	}
	m.pushDialog(c)
	if method == "" {
		return c.focus(0)
	}
	return c.focus(1)
}

func (c *composer) focus(i int) tea.Cmd {
	c.field = i
	c.method.Blur()
	c.params.Blur()
	c.rawText.Blur()
	switch {
	case c.raw:
		return c.rawText.Focus()
	case i == 0:
		return c.method.Focus()
	}
	return c.params.Focus()
}

var _ Dialog = (*composer)(nil)

// SetSize implements Dialog.
func (c *composer) SetSize(l Layout) {
	iw, ih := bodyDialogSize(l)
	c.width = iw
	c.method.SetWidth(max(10, iw-10))
	c.params.SetWidth(iw)
	c.params.SetHeight(max(3, min(ih-7, 10)))
	c.rawText.SetWidth(iw)
	c.rawText.SetHeight(max(3, min(ih-5, 8)))
	if c.form != nil {
		c.form.SetSize(iw, max(3, min(ih-2, 18)))
	}
}

// Update implements Dialog: keys and pastes go to the composer's inputs (or its tool
// form, whose results it takes); other messages reach the inputs and pass on.
func (c *composer) Update(m *Model, msg tea.Msg) (tea.Cmd, DialogResult) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" {
			return nil, DialogPass
		}
		return c.key(m, msg)
	case tea.PasteMsg:
		return c.forward(msg), DialogStay
	case form.SubmitMsg:
		if c.form != nil {
			return m.composeSubmitted(c, msg.Args), DialogDone
		}
	case form.CancelMsg:
		if c.form != nil {
			return nil, DialogCancel
		}
	}
	return c.forward(msg), DialogPass
}

// key handles a key in the composer.
func (c *composer) key(m *Model, msg tea.KeyPressMsg) (tea.Cmd, DialogResult) {
	k := &m.c.Keys.Act
	if c.form != nil {
		return c.form.Update(msg), DialogStay
	}
	switch {
	case key.Matches(msg, k.Dismiss):
		return nil, DialogCancel
	case key.Matches(msg, k.Send):
		return m.composeSend(c)
	case key.Matches(msg, k.RawMode):
		c.raw = !c.raw
		c.problem = ""
		// Raw mode starts from what the user wrote in the fields; with nothing written, the
		// example frame is only a placeholder, so what the user types is all that is sent.
		if c.raw && strings.TrimSpace(c.rawText.Value()) == "" &&
			(strings.TrimSpace(c.method.Value()) != "" || strings.TrimSpace(c.params.Value()) != "") {
			c.rawText.SetValue(rawFrame(c.method.Value(), c.params.Value()))
		}
		return c.focus(c.field), DialogStay
	case key.Matches(msg, k.NextField) && c.completing():
		// Tab completes the method and moves on to the params, where JSON belongs.
		cmd := c.forward(msg)
		c.fitPlaceholder()
		return tea.Batch(cmd, c.focus(1)), DialogStay
	case !c.raw && key.Matches(msg, k.NextField, k.PrevField):
		c.fitPlaceholder()
		return c.focus(1 - c.field), DialogStay
	}
	cmd := c.forward(msg)
	c.fitPlaceholder()
	return cmd, DialogStay
}

// rawFrame is a request frame from a method and params text, for raw mode to start from;
// with neither, the example ping the raw text's placeholder shows.
func rawFrame(method, params string) string {
	method = strings.TrimSpace(method)
	if method == "" {
		method = "ping"
	}
	m, _ := json.Marshal(method) // a string: cannot fail
	s := `{"jsonrpc":"2.0","id":"mcpscope-raw-1","method":` + string(m)
	if p := strings.TrimSpace(params); p != "" {
		var b bytes.Buffer
		if json.Compact(&b, []byte(p)) == nil {
			p = b.String()
		}
		s += `,"params":` + p
	}
	return s + "}"
}

// forward hands other messages to the input in use.
func (c *composer) forward(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch {
	case c.form != nil:
		cmd = c.form.Update(msg)
	case c.raw:
		c.rawText, cmd = c.rawText.Update(msg)
	case c.field == 0:
		c.method, cmd = c.method.Update(msg)
	default:
		c.params, cmd = c.params.Update(msg)
	}
	return cmd
}

// composeSend sends what composer c holds (and it closes), or says why it cannot.
func (m *Model) composeSend(c *composer) (tea.Cmd, DialogResult) {
	if m.sess == nil {
		c.problem = "no session to send to (press R to restart the server)"
		return nil, DialogStay
	}
	if c.raw {
		text := c.rawText.Value()
		if strings.TrimSpace(text) == "" {
			c.problem = "nothing to send"
			return nil, DialogStay
		}
		return sendRawCmd(m.gen, m.sess, []byte(text)), DialogDone
	}
	method := strings.TrimSpace(c.method.Value())
	params := strings.TrimSpace(c.params.Value())
	switch {
	case method == "":
		c.problem = "the method is empty"
		return nil, DialogStay
	case c.oddMethod(method) != "" && c.problem != c.oddMethod(method):
		c.problem = c.oddMethod(method) // a second ctrl+s sends it as it is
		return nil, DialogStay
	case params != "" && !json.Valid([]byte(params)):
		var v any
		err := json.Unmarshal([]byte(params), &v)
		c.problem = fmt.Sprintf("the params are not JSON (%v): ctrl+t sends raw text as it is", err)
		return nil, DialogStay
	}
	var raw json.RawMessage
	if params != "" {
		raw = json.RawMessage(params)
	}
	return callCmd(m.gen, m.sess, method, raw), DialogDone
}

// composeSubmitted sends the tools/call composer c's form edited: the recorded params
// with the new arguments.
func (m *Model) composeSubmitted(c *composer, args json.RawMessage) tea.Cmd {
	if m.sess == nil {
		return statusCmd("no session to send to (press R to restart the server)", true)
	}
	var p map[string]json.RawMessage
	if json.Unmarshal(c.base, &p) != nil || p == nil {
		p = map[string]json.RawMessage{}
	}
	p["arguments"] = args
	params, _ := protocol.Marshal(p) // raw JSON members: cannot fail
	return callCmd(m.gen, m.sess, "tools/call", params)
}

// callCmd sends method with params exactly as given (no _meta added; a progressToken the
// params carry is tracked), a new id each time, and returns input_required results as
// they are.
func callCmd(gen int, s *session.Session, method string, params json.RawMessage) tea.Cmd {
	return func() tea.Msg {
		resp, err := s.Call(context.Background(), method, params, session.Exact(), session.NoChain(), session.WithProgress())
		return sentMsg{Gen: gen, Method: method, Err: err, Resp: resp}
	}
}

// sendRawCmd writes text to the server exactly.
func sendRawCmd(gen int, s *session.Session, text []byte) tea.Cmd {
	return func() tea.Msg {
		resp, err := s.SendRaw(context.Background(), text)
		method := protocol.Decode(text).Method
		if method == "" {
			method = "raw message"
		}
		return sentMsg{Gen: gen, Method: method, Err: err, Resp: resp}
	}
}

// sent says how a sent request ended (the timeline shows the traffic itself).
func (m *Model) sent(msg sentMsg) tea.Cmd {
	var rpcErr *session.RPCError
	switch {
	case errors.As(msg.Err, &rpcErr):
		return statusCmd(msg.Method+": "+rpcErr.Error(), true)
	case errors.Is(msg.Err, context.Canceled):
		return statusCmd(msg.Method+": cancelled", false)
	case msg.Err != nil:
		return statusCmd(msg.Method+": "+msg.Err.Error(), true)
	case msg.Resp == nil:
		return statusCmd(msg.Method+": sent", false)
	}
	return statusCmd(fmt.Sprintf("%s answered in %s", msg.Method, textfmt.Duration(msg.Resp.Latency)), false)
}

// selectedRequest is the selected row when it is a request mcpscope sent in the current
// session, or nil with why not.
func (m *Model) selectedRequest(what string) (*traffic.Entry, tea.Cmd) {
	e := m.timeline.Selected()
	switch {
	case e == nil || !e.IsRequest() || e.Ev.Dir != protocol.ClientToServer:
		return nil, statusCmd("select a request mcpscope sent (→ req) to "+what, false)
	case e.Gen != m.gen || m.sess == nil:
		return nil, statusCmd("that request belongs to an earlier session", false)
	case e.Clipped > 0:
		return nil, statusCmd(fmt.Sprintf("that request (%s) is held truncated in memory: its parameters are not all here to %s", textfmt.Bytes(e.Clipped), what), true)
	}
	return e, nil
}

// resendSelected sends the selected request again as it was, with a new id.
func (m *Model) resendSelected() tea.Cmd {
	e, why := m.selectedRequest("re-send it")
	if e == nil {
		return why
	}
	f := e.Ev.Frame
	what := "re-sending " + f.Method + " with a new id"
	params, fresh := freshProgressToken(f.Params)
	if fresh {
		what += " and a new progressToken"
	}
	return tea.Batch(statusCmd(what, false), callCmd(m.gen, m.sess, f.Method, params))
}

// resendTokens numbers the progress tokens of re-sent requests.
var resendTokens atomic.Uint64

// freshProgressToken replaces the progressToken in params' _meta, when there is one, with
// a new one: a re-sent request must not share its token with the original, which may
// still be in flight (tokens are unique among active requests), or progress would land on
// the wrong row. Everything else stays as it was; changed reports whether there was a
// token to replace.
func freshProgressToken(params json.RawMessage) (out json.RawMessage, changed bool) {
	keys, obj, err := protocol.OrderedObject(params)
	if err != nil {
		return params, false
	}
	mkeys, meta, err := protocol.OrderedObject(obj["_meta"])
	if err != nil {
		return params, false
	}
	if _, ok := meta[protocol.MetaProgressToken]; !ok {
		return params, false
	}
	tok, _ := json.Marshal(fmt.Sprintf("mcpscope-resend-%d", resendTokens.Add(1))) // a string: cannot fail
	meta[protocol.MetaProgressToken] = tok
	obj["_meta"] = joinObject(mkeys, meta)
	return joinObject(keys, obj), true
}

// joinObject writes an object's members in the order of keys.
func joinObject(keys []string, obj map[string]json.RawMessage) json.RawMessage {
	ms := make([]protocol.Member, len(keys))
	for i, k := range keys {
		ms[i] = protocol.Member{Key: k, Value: obj[k]}
	}
	return protocol.EncodeObject(ms)
}

// editSelected opens the selected request for editing before it is sent again: a
// tools/call in its tool's form, anything else in the composer.
func (m *Model) editSelected() tea.Cmd {
	e, why := m.selectedRequest("edit and re-send it")
	if e == nil {
		return why
	}
	f := e.Ev.Frame
	params, _ := freshProgressToken(f.Params) // the original may still be in flight
	if f.Method == "tools/call" {
		var p struct {
			Name      string
			Arguments json.RawMessage
		}
		p.Name = protocol.Target(f.Method, f.Params)
		p.Arguments, _ = protocol.MemberValue(f.Params, "arguments")
		if schema := m.explorer.ToolSchema(p.Name); schema != nil {
			if sch, err := form.Parse(schema); err == nil {
				c := newComposer()
				c.title = "Edit & re-send tools/call " + p.Name
				c.tool, c.base = p.Name, params
				initial := p.Arguments
				if initial == nil {
					initial = json.RawMessage(`{}`)
				}
				c.form = form.New(sch, form.Options{Styles: m.c.Styles.Forms(), Initial: initial})
				m.pushDialog(c)
				return nil
			}
		}
	}
	return m.openComposer(f.Method, params)
}

// cancelled marks the cancelled request's row (when the revision sends no
// notifications/cancelled, nothing else would) and says what happened.
func (m *Model) cancelled(msg cancelledMsg) tea.Cmd {
	if !msg.OK {
		return statusCmd("the request was no longer in flight", false)
	}
	if e := m.hist.Lookup(msg.Gen, msg.Seq); e != nil {
		if e.Waiting() {
			m.hist.Fail(e, "cancelled by the user")
			traffic.Invalidate([]*traffic.Entry{e})
		}
		return statusCmd("cancelled request #"+e.Ev.Frame.ID.String()+"; a response that still comes is flagged late", false)
	}
	return statusCmd("cancelled", false)
}

// Draw implements Dialog: the composer over the body.
func (c *composer) Draw(m *Model, scr *Screen) {
	m.overlayDialog(scr, c.view(m))
}

// view is the composer's lines.
func (c *composer) view(m *Model) []string {
	s := m.c.Styles
	out := []string{s.Bold.Render(escapeText(c.title))}
	switch {
	case c.form != nil:
		out = append(out, strings.Split(c.form.View(), "\n")...)
		return out
	case c.raw:
		out[0] += s.Muted.Render("  raw: sent exactly as typed, valid JSON-RPC or not")
		out = append(out, strings.Split(c.rawText.View(), "\n")...)
	default:
		out[0] += s.Muted.Render("  a new id; params sent as written")
		label := func(i int, t string) string {
			if c.field == i {
				return s.PaneTitleFocused.Render(t)
			}
			return s.PaneTitle.Render(t)
		}
		out = append(out, label(0, "Method  ")+c.method.View())
		if l := c.completionLine(m, c.width); l != "" {
			out = append(out, l)
		}
		out = append(out, label(1, "Params (JSON)"))
		out = append(out, strings.Split(c.params.View(), "\n")...)
		if m.info.Stateless {
			out = append(out, s.Muted.Render("2026-07-28: nothing is added, not even _meta; write what the server needs"))
		}
	}
	if c.problem != "" {
		out = append(out, s.Error.Render(escapeText(c.problem)))
	}
	help := "ctrl+s send · tab next field · ctrl+t raw text · esc close"
	if c.raw {
		help = "ctrl+s send · ctrl+t method+params · esc close"
	}
	return append(out, s.HelpDesc.Render(help))
}

// Keys implements Dialog.
func (c *composer) Keys(m *Model) []key.Binding {
	k := &m.c.Keys.Act
	if c.form != nil {
		return c.form.KeyMap().ShortHelp()
	}
	if c.raw {
		return []key.Binding{k.Send, k.RawMode, k.Dismiss}
	}
	return []key.Binding{k.Send, k.NextField, k.RawMode, k.Dismiss}
}
