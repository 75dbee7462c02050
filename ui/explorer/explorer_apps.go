package explorer

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/apphost"
	"github.com/mcpscope/mcpscope/ui/internal/common"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// MCP Apps in the explorer: a tool's link to its ui:// resource (the UI mark, app-only tools
// set apart at the end of the list), a UI resource's metadata, and the key that jumps
// between a tool and its resource. The reading is package protocol/apps's.

// exApp is what an item says of the MCP Apps extension, read once with the item.
type exApp struct {
	link     apps.ToolLink // a tool's _meta.ui (or the deprecated flat key)
	linked   bool          // the tool has _meta.ui or the flat key
	meta     apps.ResourceMeta
	hasMeta  bool   // a resource's listing carries _meta.ui
	metaErr  string // why a resource's _meta.ui does not decode
	unlisted string // a ui:// resource resources/list does not name: the tool that links to it
}

// parseApp reads the item's MCP Apps metadata.
func (it *exItem) parseApp() {
	switch it.kind {
	case session.ListTools:
		it.app.link, it.app.linked = apps.ToolLinkOf(protocol.RawMeta(it.raw))
	case session.ListResources:
		m, ok, err := apps.ResourceMetaOf(protocol.RawMeta(it.raw))
		it.app.meta, it.app.hasMeta = m, ok && err == nil
		if err != nil {
			it.app.metaErr = err.Error()
		}
	}
}

// isAppResource reports whether the item is a UI resource: a ui:// URI or the extension's
// MIME type.
func (it *exItem) isAppResource() bool {
	return it.kind == session.ListResources && (strings.HasPrefix(it.uri, apps.Scheme) || protocol.IsAppMIMEType(it.mimeType))
}

// appBadges are the MCP Apps marks of a list row: UI on a tool with an app (✗UI when the
// link is the deprecated flat key or not ui://), app-only on a tool the model may not call,
// app on a UI resource.
func (x *Explorer) appBadges(it *exItem) []badge {
	s := x.c.Styles
	var out []badge
	switch it.kind {
	case session.ListTools:
		l := it.app.link
		switch {
		case !l.HasApp():
		case l.Flat || !strings.HasPrefix(l.ResourceURI, apps.Scheme):
			out = append(out, badge{"✗UI", s.BadgeError})
		default:
			out = append(out, badge{"UI", s.Badge})
		}
		switch {
		case l.VisibilityBad || len(l.UnknownVisibility()) > 0:
			out = append(out, badge{"✗visibility", s.BadgeError})
		case l.AppOnly():
			out = append(out, badge{"app-only", s.Notification})
		}
	case session.ListResources:
		if it.isAppResource() {
			out = append(out, badge{"app", s.Badge})
		}
		if it.app.unlisted != "" {
			out = append(out, badge{"unlisted", s.Muted})
		}
	}
	return out
}

// setApartAppOnly moves the tools only an app may call after the others, keeping each
// group's order: the model's tools first, as a host lists them.
func setApartAppOnly(t *exTab) {
	if t.kind != session.ListTools {
		return
	}
	slices.SortStableFunc(t.hits, func(a, b exHit) int {
		ao, bo := a.it.app.link.AppOnly(), b.it.app.link.AppOnly()
		switch {
		case ao == bo:
			return 0
		case ao:
			return 1
		}
		return -1
	})
}

// appLines is the "MCP App" section of an item's detail: a tool's resource and visibility,
// a UI resource's metadata (CSP per directive, permissions, domain, border).
func appLines(s *Styles, it *exItem, w int) []string {
	const pad = "  "
	var out []string
	field := func(k, v string) {
		out = append(out, textfmt.Hanging(s.Text, pad+s.Muted.Render(fieldLabel(k)), v, w)...)
	}
	warn := func(text string) { out = append(out, textfmt.WrapProse(s.Finding, "⚠ "+text, pad, w)...) }
	switch {
	case it.kind == session.ListTools && it.app.linked:
		l := it.app.link
		if l.HasApp() {
			field("resourceUri", escapeText(l.ResourceURI))
		}
		vis := "model, app (the default)"
		if l.Visibility != nil {
			vis = escapeText(strings.Join(l.Visibility, ", "))
			if len(l.Visibility) == 0 {
				vis = "none"
			}
		}
		if l.AppOnly() {
			vis += " — only its app may call it; a host hides it from the model"
		}
		field("visibility", vis)
		if l.Flat {
			warn("the link is the deprecated flat _meta[\"ui/resourceUri\"]; " + protocol.Explain(protocol.FindAppFlatKey))
		}
		if l.HasApp() && !strings.HasPrefix(l.ResourceURI, apps.Scheme) {
			warn("resourceUri is not a ui:// URI: " + protocol.Explain(protocol.FindAppScheme))
		}
		if l.VisibilityBad {
			warn("visibility is not an array of strings")
		} else if u := l.UnknownVisibility(); len(u) > 0 {
			warn(fmt.Sprintf("unknown visibility %s: the extension knows only \"model\" and \"app\"", escapeText(strings.Join(u, ", "))))
		}
	case it.isAppResource():
		if it.app.unlisted != "" {
			out = append(out, textfmt.WrapProse(s.Muted, "not in resources/list (the spec allows it): reached from tool "+
				escapeText(it.app.unlisted)+"'s resourceUri", pad, w)...)
		}
		if !protocol.IsAppMIMEType(it.mimeType) && it.mimeType != "" {
			warn(fmt.Sprintf("listed as %s, not %s", escapeText(it.mimeType), apps.MIMEType))
		}
		if it.app.metaErr != "" {
			warn("_meta.ui does not decode: " + escapeText(it.app.metaErr))
		}
		if it.app.hasMeta {
			out = append(out, metaLines(s, it.app.meta, pad, w)...)
		} else if it.app.metaErr == "" {
			out = append(out, textfmt.WrapProse(s.Muted, "the listing has no _meta.ui (the content read may carry it)", pad, w)...)
		}
	default:
		return nil
	}
	return out
}

// metaLines shows a UI resource's _meta.ui: the CSP per directive (with the restrictive
// default when there is none), permissions, domain and border preference.
func metaLines(s *Styles, m apps.ResourceMeta, pad string, w int) []string {
	var out []string
	field := func(k, v string) {
		out = append(out, textfmt.Hanging(s.Text, pad+s.Muted.Render(fieldLabel(k)), v, w)...)
	}
	list := func(v []string, none string) string {
		if len(v) == 0 {
			return none
		}
		return escapeText(strings.Join(v, " "))
	}
	if m.CSP == nil {
		field("csp", "none declared: the restrictive default, no external origin")
	} else {
		field("connect", list(m.CSP.ConnectDomains, "none (connect-src 'none')"))
		field("resources", list(m.CSP.ResourceDomains, "none (self and inline only)"))
		field("frames", list(m.CSP.FrameDomains, "none (frame-src 'none')"))
		field("base-uri", list(m.CSP.BaseURIDomains, "self"))
		if _, refused := apphost.CheckCSP(m.CSP); len(refused) > 0 {
			var rs []string
			for _, r := range refused {
				rs = append(rs, r.String())
			}
			field("refused", s.Error.Render("mcpscope app leaves out ")+escapeText(strings.Join(rs, "; ")))
		}
	}
	field("webrtc", apphost.WebRTCNote)
	field("permissions", list(m.Permissions, "none"))
	if m.Domain != "" {
		field("domain", escapeText(m.Domain))
	}
	border := "host decides"
	if m.PrefersBorder != nil {
		border = map[bool]string{true: "border and background", false: "no border"}[*m.PrefersBorder]
	}
	field("border", border)
	return out
}

// appCycle is where the app key is in the tools that use one UI resource: U on a tool goes
// to its resource, U on the resource to the next of its tools (the one the user came from
// first), so pressing U again and again visits every tool of the app.
type appCycle struct {
	uri     string  // the resource the cycle goes through
	next    int     // the index, in the resource's tools, of the tool U goes to next
	last    *exItem // the tool U last went to from the resource
	status  string  // the status line the last jump showed, cleared by the next
	readRun int     // the run of the resource's read the jump started, 0 for none
}

// appJump goes from a tool with an app to its ui:// resource (selected on the resources tab,
// added there when resources/list does not name it, and read when it has not been), and from
// a UI resource to the tools that link to it, one per press.
func (x *Explorer) appJump() tea.Cmd {
	it := x.selected()
	switch {
	case it == nil:
		return nil
	case it.kind == session.ListTools && it.app.link.HasApp():
		return x.jumpToResource(it)
	case it.kind == session.ListResources:
		return x.jumpToTool(it)
	}
	// Through appStatus, so that the next jump takes it off the status line.
	return x.appStatus("no MCP App here: U goes from a tool with an app to its ui:// resource")
}

// appUsers are the tools that link to uri, in the order of the tools tab.
func (x *Explorer) appUsers(uri string) (tab int, users []*exItem) {
	for i, t := range x.tabs {
		if t.kind != session.ListTools {
			continue
		}
		for _, it := range t.items {
			if it.app.link.ResourceURI == uri && uri != "" {
				users = append(users, it)
			}
		}
		return i, users
	}
	return -1, nil
}

// appStatus shows text in the status line in place of the last jump's.
func (x *Explorer) appStatus(text string) tea.Cmd {
	var cmds []tea.Cmd
	if x.appCycle.status != "" {
		cmds = append(cmds, common.StatusDoneCmd(x.appCycle.status))
	}
	x.appCycle.status = text
	if text != "" {
		cmds = append(cmds, statusCmd(text, false))
	}
	if len(cmds) < 2 {
		return tea.Batch(cmds...)
	}
	return tea.Sequence(cmds...)
}

func (x *Explorer) jumpToResource(tool *exItem) tea.Cmd {
	uri := tool.app.link.ResourceURI
	for i, t := range x.tabs {
		if t.kind != session.ListResources {
			continue
		}
		idx := slices.IndexFunc(t.items, func(r *exItem) bool { return r.uri == uri })
		if idx < 0 {
			raw, _ := json.Marshal(map[string]string{"uri": uri, "name": tool.name + " (app)"})
			r := parseItem(session.ListResources, raw)
			r.app.unlisted = tool.name
			t.items = append(t.items, r)
			idx = len(t.items) - 1
		}
		if x.query != "" {
			x.setQuery("")
		}
		x.refilter(t)
		x.cur, x.dOff = i, 0
		t.sel = slices.IndexFunc(t.hits, func(h exHit) bool { return h.it == t.items[idx] })
		x.clampList(t)
		r := t.items[idx]
		// Back from the tool the cycle went to: the cycle goes on. From another tool: a
		// new cycle, starting with that tool.
		if c := &x.appCycle; c.uri != uri || c.last != tool {
			_, users := x.appUsers(uri)
			*c = appCycle{uri: uri, next: max(0, slices.Index(users, tool)), status: c.status}
		}
		if x.runs[runKey(r)] == nil && x.sess != nil {
			read := x.send(r, methodResourcesRead, uri, "", map[string]any{"uri": uri})
			x.appCycle.readRun = x.runSeq
			return tea.Batch(read, x.appStatus("reading "+uri))
		}
		return x.appStatus("")
	}
	return statusCmd("the server offers no resources list to show "+uri+" in", true)
}

func (x *Explorer) jumpToTool(res *exItem) tea.Cmd {
	i, users := x.appUsers(res.uri)
	if i < 0 {
		return nil
	}
	if len(users) == 0 {
		return statusCmd("no tool links to "+res.uri, true)
	}
	c := &x.appCycle
	if c.uri != res.uri {
		*c = appCycle{uri: res.uri, status: c.status}
	}
	n := c.next % len(users)
	next := users[n]
	c.next, c.last = n+1, next
	t := x.tabs[i]
	if x.query != "" {
		x.setQuery("")
	}
	x.cur, x.dOff = i, 0
	t.sel = slices.IndexFunc(t.hits, func(h exHit) bool { return h.it == next })
	x.clampList(t)
	if len(users) > 1 {
		return x.appStatus(fmt.Sprintf("tool %d of %d that use %s", n+1, len(users), res.uri))
	}
	return x.appStatus("")
}

// appReadDone clears the "reading" status of the read a jump started, once it is answered.
func (x *Explorer) appReadDone(msg CallDoneMsg) tea.Cmd {
	c := &x.appCycle
	if c.readRun == 0 || msg.Run != c.readRun || msg.Gen != x.gen {
		return nil
	}
	c.readRun = 0
	return x.appStatus("")
}

// appJumpHelp is the app key's help for the item on screen.
func appJumpHelp(it *exItem) string {
	if it != nil && it.kind == session.ListResources {
		return "tools of this app"
	}
	return "app resource"
}

// AppsTally is what the lists say of MCP Apps, for the server page.
type AppsTally struct {
	Listed  bool     // the tools list is in
	Apps    int      // distinct ui:// resources the tools link to
	UITools int      // tools with an app
	AppOnly []string // tools only an app may call
	Flat    int      // tools linked with the deprecated flat key
	Client  string   // whether mcpscope declares the extension, in words; "": not its session
}

// AppsTally counts the tools with an app, the app-only ones and the resources they link to.
func (x *Explorer) AppsTally() AppsTally {
	var a AppsTally
	res := map[string]bool{}
	for _, t := range x.tabs {
		if t.kind != session.ListTools {
			continue
		}
		a.Listed = t.fetched
		for _, it := range t.items {
			l := it.app.link
			if l.HasApp() {
				a.UITools++
				if strings.HasPrefix(l.ResourceURI, apps.Scheme) {
					res[l.ResourceURI] = true
				}
			}
			if l.Flat {
				a.Flat++
			}
			if l.AppOnly() {
				a.AppOnly = append(a.AppOnly, it.name)
			}
		}
	}
	a.Apps = len(res)
	return a
}
