package apphost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/browser"
)

// JSON-RPC error codes the host answers with.
const (
	codeDenied         = -32000 // implementation-defined: refused by policy or by the user
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternal       = -32603
)

// fromView takes one message the page relayed: it is recorded on the app lane first, then
// answered. Requests that wait (the server, the user) are answered in their own goroutine.
func (h *Host) fromView(raw []byte) {
	ev := h.lane.Record(protocol.ServerToClient, raw)
	f := ev.Frame
	switch {
	case f.Kind.IsResponse():
		h.mu.Lock()
		ch := h.waiting[f.ID.Key()]
		delete(h.waiting, f.ID.Key())
		h.mu.Unlock()
		if ch != nil {
			ch <- f
		}
		return
	case f.Kind == protocol.KindNotification:
		h.notification(f)
		return
	case f.Kind != protocol.KindRequest:
		return
	}
	switch f.Method {
	case apps.MethodInitialize:
		h.reply(f.ID, h.initializeResult())
	case "ping":
		h.reply(f.ID, json.RawMessage(`{}`))
	case apps.MethodRequestDisplayMode:
		h.reply(f.ID, map[string]any{"mode": "inline"})
	case apps.MethodUpdateModelContext:
		h.notice("the app updated the model context: " + clip(messageText(f.Params), 400))
		h.reply(f.ID, json.RawMessage(`{}`))
	case apps.MethodOpenLink, apps.MethodMessage:
		go h.ask(f)
	case "tools/call":
		go h.toolsCall(f, ev.Seq)
	case "resources/read":
		go h.forward(f, ev.Seq)
	default:
		h.replyError(f.ID, codeMethodNotFound, "method not found: "+f.Method)
	}
}

func (h *Host) notification(f *protocol.Frame) {
	switch f.Method {
	case apps.MethodSandboxProxyReady:
		params := map[string]any{"html": h.resource.html, "sandbox": viewSandbox}
		if h.csp != nil {
			params["csp"] = h.csp
		}
		if len(h.resource.permissions) > 0 {
			params["permissions"] = h.resource.permissions
		}
		var findings []protocol.Finding
		for _, r := range h.refused {
			findings = append(findings, protocol.NewFinding(protocol.FindAppCSPRefused, "left out of the view's policy: %s", r))
		}
		raw, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": apps.MethodSandboxResource, "params": params})
		if err == nil {
			h.send(raw, findings)
		}
	case "notifications/cancelled":
		h.cancelled(f.Params)
	case apps.MethodInitialized:
		// Each view that initializes gets the call (a reloaded page is a new view).
		h.mu.Lock()
		h.initDone = true
		h.mu.Unlock()
		args := h.cfg.Arguments
		if args == nil {
			args = map[string]any{}
		}
		h.notify(apps.MethodToolInput, map[string]any{"arguments": args})
		if h.callResult != nil {
			h.notify(apps.MethodToolResult, h.callResult)
		} else {
			h.notify(apps.MethodToolCancelled, map[string]any{"reason": h.callErr})
		}
	}
}

// viewSandbox is the inner iframe's sandbox: scripts and its own origin (the sandbox's),
// forms; no top navigation, no popups.
const viewSandbox = "allow-scripts allow-same-origin allow-forms"

func (h *Host) initializeResult() map[string]any {
	theme := h.cfg.Theme
	if theme != "dark" {
		theme = "light"
	}
	toolInfo := map[string]any{"tool": h.tool.raw}
	if len(h.callID) > 0 {
		toolInfo["id"] = h.callID
	}
	sandbox := map[string]any{}
	if h.csp != nil {
		sandbox["csp"] = h.csp
	}
	if len(h.resource.permissions) > 0 {
		sandbox["permissions"] = json.RawMessage(`{}`) // none granted: the page sets no allow attribute
	}
	return map[string]any{
		"protocolVersion": apps.ProtocolVersion,
		"hostInfo":        map[string]any{"name": "mcpscope", "version": session.Version()},
		"hostCapabilities": map[string]any{
			"openLinks":       map[string]any{},
			"serverTools":     map[string]any{},
			"serverResources": map[string]any{},
			"logging":         map[string]any{},
			"sandbox":         sandbox,
		},
		"hostContext": map[string]any{
			"toolInfo":              toolInfo,
			"theme":                 theme,
			"displayMode":           "inline",
			"availableDisplayModes": []string{"inline"},
			"containerDimensions":   map[string]any{"maxWidth": ContainerMaxWidth, "maxHeight": ContainerMaxHeight},
			"platform":              "web",
			"userAgent":             "mcpscope/" + session.Version(),
		},
	}
}

// The container the host page gives the view: the view sizes itself up to these, and
// reports its size with ui/notifications/size-changed.
const (
	ContainerMaxWidth  = 960
	ContainerMaxHeight = 2000
)

// toolsCall forwards the view's tools/call when the tool is one the server listed and its
// visibility includes "app". The name is read by its exact key, as the server reads it;
// params whose keys a receiver may read as one member ("name" and "Name", or a key sent
// twice) are refused, since the server might run a tool other than the one judged here.
func (h *Host) toolsCall(f *protocol.Frame, appSeq uint64) {
	if amb := protocol.AmbiguousKeys(f.Params); len(amb) > 0 {
		h.refuse(f.ID, fmt.Sprintf("tools/call params hold keys a server may read as one member (%s): refused", strings.Join(amb, ", ")))
		return
	}
	name, ok := protocol.MemberString(f.Params, "name")
	if !ok || name == "" {
		h.replyError(f.ID, codeInvalidParams, "tools/call needs params.name")
		return
	}
	listed := false
	for _, t := range h.cfg.Tools {
		if def, _ := protocol.MemberString(t, "name"); def != name {
			continue
		}
		listed = true
		if l := ToolLink(t); !l.AppVisible() {
			h.refuse(f.ID, fmt.Sprintf("tool %s is not visible to apps (its visibility is %v)", name, l.Visibility))
			return
		}
	}
	if !listed {
		h.refuse(f.ID, fmt.Sprintf("tool %s is not in the server's tools/list: refused", name))
		return
	}
	h.forward(f, appSeq)
}

// forward sends the view's request to the server and answers the view with the server's
// result or error.
func (h *Host) forward(f *protocol.Frame, appSeq uint64) {
	resp, err := h.s.Call(h.ctx, f.Method, f.Params, session.FromApp(appSeq))
	var rpcErr *session.RPCError
	switch {
	case err == nil:
		h.reply(f.ID, resp.Result)
	case errors.As(err, &rpcErr):
		e := map[string]any{"code": rpcErr.Code, "message": rpcErr.Message}
		if len(rpcErr.Data) > 0 {
			e["data"] = rpcErr.Data
		}
		h.sendError(f.ID, e, nil)
	default:
		h.replyError(f.ID, codeInternal, err.Error())
	}
}

// ask puts ui/open-link or ui/message to the user.
func (h *Host) ask(f *protocol.Frame) {
	var p struct {
		URL     string `json:"url"`
		Role    string `json:"role"`
		Content any    `json:"content"`
	}
	_ = json.Unmarshal(f.Params, &p)
	q := Question{Method: f.Method}
	if f.Method == apps.MethodOpenLink {
		// Only an http(s) URL is put to the user, so nothing else can reach the browser
		// opener (file:, javascript:, a flag, control bytes).
		if err := browser.Check(p.URL); err != nil {
			h.sendError(f.ID, map[string]any{"code": codeInvalidParams, "message": "Invalid URL: " + err.Error()},
				[]protocol.Finding{protocol.NewFinding(protocol.FindAppRefused, "ui/open-link refused: %v", err)})
			return
		}
		q.Text = p.URL
	} else {
		q.Text = clip(messageText(f.Params), 2000)
	}
	if h.cfg.Ask == nil {
		h.refuse(f.ID, "this host cannot ask the user (mcpscope app asks on the terminal)")
		return
	}
	ctx, done := h.askContext(f.ID)
	defer done()
	yes := h.cfg.Ask(ctx, q)
	switch {
	case !yes && appCancelled(ctx):
		return // the app cancelled it: no answer
	case !yes && f.Method == apps.MethodOpenLink:
		h.refuse(f.ID, "Link opening denied by user")
	case !yes:
		h.refuse(f.ID, "Message sending denied")
	case f.Method == apps.MethodOpenLink:
		if h.cfg.OpenURL == nil {
			h.refuse(f.ID, "Link opening denied by user")
			return
		}
		if err := h.cfg.OpenURL(p.URL); err != nil {
			h.replyError(f.ID, codeDenied, "open the link: "+err.Error())
			return
		}
		h.reply(f.ID, json.RawMessage(`{}`))
	default:
		h.reply(f.ID, json.RawMessage(`{}`))
	}
}

// messageText is a ui/message's text, or its params when it has none.
func messageText(params json.RawMessage) string {
	var p struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(params, &p)
	var one struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(p.Content, &one) == nil && one.Text != "" {
		return one.Text
	}
	var many []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(p.Content, &many) == nil && len(many) > 0 {
		s := ""
		for _, m := range many {
			s += m.Text
		}
		return s
	}
	return string(params)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func (h *Host) notice(text string) {
	if h.cfg.Notice != nil {
		h.cfg.Notice(text)
	}
}

// refuse answers a request with -32000 and the app.refused finding.
func (h *Host) refuse(id protocol.ID, msg string) {
	h.sendError(id, map[string]any{"code": codeDenied, "message": msg},
		[]protocol.Finding{protocol.NewFinding(protocol.FindAppRefused, "%s", msg)})
}

func (h *Host) replyError(id protocol.ID, code int, msg string) {
	h.sendError(id, map[string]any{"code": code, "message": msg}, nil)
}

func (h *Host) reply(id protocol.ID, result any) {
	raw, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id.Raw, "result": result})
	if err != nil {
		h.replyError(id, codeInternal, err.Error())
		return
	}
	h.send(raw, nil)
}

func (h *Host) sendError(id protocol.ID, e map[string]any, findings []protocol.Finding) {
	raw, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id.Raw, "error": e})
	h.send(raw, findings)
}

func (h *Host) notify(method string, params any) {
	raw, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	if err != nil {
		return
	}
	h.send(raw, nil)
}

// request sends a request to the view and waits for its answer.
func (h *Host) request(ctx context.Context, method string, params any) (*protocol.Frame, error) {
	h.mu.Lock()
	h.nextID++
	id := protocol.IntID(h.nextID)
	ch := make(chan *protocol.Frame, 1)
	h.waiting[id.Key()] = ch
	h.mu.Unlock()
	raw, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id.Raw, "method": method, "params": params})
	if err != nil {
		return nil, err
	}
	h.send(raw, nil)
	select {
	case f := <-ch:
		return f, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-h.closedCh:
		return nil, errors.New("the page was closed")
	}
}

// send records a host→view message and queues it for the page, in that order, under one
// lock, so the page receives messages in the order the lane shows them.
func (h *Host) send(raw []byte, findings []protocol.Finding) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lane.RecordWith(protocol.ClientToServer, raw, findings...)
	select {
	case h.queue <- raw:
	default:
		// The page stopped taking messages; the lane has the message, the view will not.
	}
}
