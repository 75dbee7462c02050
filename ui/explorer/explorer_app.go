package explorer

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/apphost"
	"github.com/mcpscope/mcpscope/session/browser"
	"github.com/mcpscope/mcpscope/ui/form"
)

// appStartLimit bounds starting an app: the tool call and the resource read.
const appStartLimit = 2 * time.Minute

// appOf is the selected tool's app link when it has an app the model side may run.
func (x *Explorer) appOf(it *exItem) (apps.ToolLink, string) {
	if it == nil || it.kind != session.ListTools || it.invalid != "" {
		return apps.ToolLink{}, "select a tool with an app"
	}
	l, _ := apps.ToolLinkOf(it.obj["_meta"])
	switch {
	case !l.HasApp():
		return l, it.name + " has no app (_meta.ui.resourceUri)"
	case !l.ModelVisible():
		return l, it.name + " is app-only (visibility without \"model\"): only its app may call it"
	case x.sess == nil:
		return l, "no live session: nothing can be sent"
	}
	return l, ""
}

// runApp opens the selected tool's form and then hosts its MCP App in the browser with
// those arguments, as mcpscope app does; the app's messages join the timeline (lane:app).
func (x *Explorer) runApp() tea.Cmd {
	it := x.selected()
	if _, why := x.appOf(it); why != "" {
		return statusCmd(why, true)
	}
	if why := x.toolExcluded(it); why != "" {
		return statusCmd(why, true)
	}
	sch, err := form.Parse(it.obj["inputSchema"])
	if err != nil {
		return statusCmd(fmt.Sprintf("%s: cannot build a form from its inputSchema: %v", it.name, err), true)
	}
	sess, tool, name, ask, csp := x.sess, it.raw, it.name, x.appAsk, x.appCSP
	submit := func(args json.RawMessage) tea.Cmd { return hostAppCmd(sess, tool, name, args, ask, csp) }
	if sch.Empty() {
		return submit(json.RawMessage(`{}`))
	}
	return x.openForm(it, sch, "app "+it.name, nil, submit)
}

// SetAppCSP sets how the policy of the apps the explorer hosts is built: apphost.CSPStrict
// ("" too) or apphost.CSPReference.
func (x *Explorer) SetAppCSP(mode string) { x.appCSP = mode }

// AppAskFunc puts what a hosted app asks (ui/open-link, ui/message) to the user and
// blocks until they decide or ctx ends; app says which app asks. True accepts.
type AppAskFunc func(ctx context.Context, app string, q apphost.Question) bool

// SetAppAsk makes ask the way the apps the explorer runs put their questions to the user;
// without it they are refused, saying so.
func (x *Explorer) SetAppAsk(ask AppAskFunc) { x.appAsk = ask }

// hostAppCmd calls the tool, starts hosting its app and opens the browser. The host
// belongs to the session: it closes when the session does, or when its page is left.
// ui/open-link and ui/message go to ask (the view's dialog); an accepted link opens in
// the browser, as mcpscope app does. Without ask the host refuses them.
func hostAppCmd(sess *session.Session, tool json.RawMessage, name string, args json.RawMessage, ask AppAskFunc, csp string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), appStartLimit)
		defer cancel()
		tools, err := sess.List(ctx, session.ListTools)
		if err != nil {
			return StatusMsg{Text: "app " + name + ": tools/list: " + err.Error(), Error: true}
		}
		var a map[string]any
		if err := json.Unmarshal(args, &a); err != nil {
			return StatusMsg{Text: "app " + name + ": " + err.Error(), Error: true}
		}
		cfg := apphost.Config{Session: sess, Tool: tool, Tools: tools, Arguments: a, CSP: csp}
		if ask != nil {
			who := name + " (" + apphost.ToolLink(tool).ResourceURI + ")"
			cfg.Ask = func(ctx context.Context, q apphost.Question) bool { return ask(ctx, who, q) }
			cfg.OpenURL = browser.Open
		}
		h, err := apphost.Start(ctx, cfg)
		if err != nil {
			return StatusMsg{Text: "app " + name + ": " + err.Error(), Error: true}
		}
		go func() { // owned by the session: ends with it or with the page
			select {
			case <-sess.Done():
			case <-h.Closed():
			}
			h.Close(0)
		}()
		h.Announce()
		if err := browser.Open(h.URL()); err != nil {
			return StatusMsg{Text: fmt.Sprintf("app %s: no browser (%v) · its address is its app row: y copies it", name, err), Error: true}
		}
		return StatusMsg{Text: fmt.Sprintf("app %s opened in the browser · address on its app row (y copies) · lane:app", name)}
	}
}

// appOfOK reports whether the run-app key applies to it.
func (x *Explorer) appOfOK(it *exItem) bool {
	_, why := x.appOf(it)
	return why == ""
}
