package check

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/session"
)

// maxAppReads bounds the ui:// resources one run reads.
const maxAppReads = 32

// AppsInfo is what a run saw of the MCP Apps extension.
type AppsInfo struct {
	Declared bool     `json:"declared"` // the server declared io.modelcontextprotocol/ui
	Apps     int      `json:"apps"`     // distinct ui:// resources tools link to
	UITools  []string `json:"uiTools,omitempty"`
	AppOnly  []string `json:"appOnly,omitempty"` // tools only the app may call
}

// ToolsContrast is the tool list of a second session that declared the MCP Apps extension
// the other way round: "some servers change their tool list on it".
type ToolsContrast struct {
	AppsDeclared bool     `json:"appsDeclared"` // what the second session declared
	Tools        []string `json:"tools"`
	UITools      []string `json:"uiTools,omitempty"`
	Err          string   `json:"error,omitempty"`
}

// appsStep checks every tool's link to its app and reads each ui:// resource a tool links to
// or resources/list names, checking the content (package protocol's rules).
func (r *runner) appsStep() {
	info := &AppsInfo{Declared: protocol.Declared(r.caps, "server:extensions."+apps.ExtensionID)}
	listing := map[string]json.RawMessage{}
	var uris []string
	users := map[string][]string{}
	for _, it := range r.pages[session.ListResources] {
		if strings.HasPrefix(it.key, apps.Scheme) {
			listing[it.key] = it.raw
			uris = append(uris, it.key)
			for _, f := range protocol.CheckAppListing(it.raw) {
				r.add(f, r.event(it.seq))
			}
		}
	}
	for _, it := range r.pages[session.ListTools] {
		src := r.event(it.seq)
		for _, f := range protocol.CheckAppTool(it.raw) {
			r.add(f, src)
		}
		l, ok := apps.ToolLinkOf(protocol.RawMeta(it.raw))
		if !ok {
			continue
		}
		if l.AppOnly() {
			info.AppOnly = append(info.AppOnly, it.key)
		}
		if !l.HasApp() {
			continue
		}
		info.UITools = append(info.UITools, it.key)
		if !strings.HasPrefix(l.ResourceURI, apps.Scheme) {
			continue // apps.scheme says it; there is no ui:// resource to read
		}
		if _, seen := users[l.ResourceURI]; !seen && listing[l.ResourceURI] == nil {
			uris = append(uris, l.ResourceURI)
		}
		users[l.ResourceURI] = append(users[l.ResourceURI], it.key)
	}
	info.Apps = len(users)
	if info.Declared || len(info.UITools) > 0 || len(listing) > 0 {
		r.run.Apps = info
	}
	if len(uris) > maxAppReads {
		r.note("%d of %d ui:// resources read", maxAppReads, len(uris))
		uris = uris[:maxAppReads]
	}
	for _, uri := range uris {
		mark := r.lastSeq()
		resp, err := r.s.Call(r.ctx, "resources/read", map[string]string{"uri": uri}, session.WithTimeout(errWait))
		if err != nil {
			who := "resources/list names it"
			if u := users[uri]; len(u) == 1 {
				who = "tool " + quoteList(u) + " links to it"
			} else if len(u) > 1 {
				who = "tools " + quoteList(u) + " link to it"
			}
			r.add(protocol.NewFinding(protocol.FindAppResource, "UI resource %s does not resolve with resources/read (%s): %v", uri, who, err),
				r.shown(resp, mark, "resources/read"))
			continue
		}
		_, fs := protocol.CheckAppRead(uri, resp.Result, listing[uri])
		for _, f := range fs {
			r.add(f, resp.Event)
		}
	}
}

// quoteList is names quoted and joined: "a", "b".
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// contrastApps lists the tools of a session that declares the MCP Apps extension the other
// way round from the first run's, when the first run saw the extension at all (or did not
// declare it), and notes where the two lists differ.
func contrastApps(ctx context.Context, newSession NewSession, first *Run) {
	if first.Apps == nil && first.AppsDeclared {
		return // not an apps server: nothing to contrast
	}
	c := &ToolsContrast{AppsDeclared: !first.AppsDeclared}
	first.AppsContrast = c
	s, done, err := newSession(string(first.Revision))
	if err != nil {
		c.Err = err.Error()
		return
	}
	defer done()
	if err := s.Connect(ctx); err != nil {
		c.Err = err.Error()
		return
	}
	items, err := s.List(ctx, session.ListTools)
	if err != nil {
		c.Err = err.Error()
		return
	}
	for _, raw := range items {
		var t struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(raw, &t)
		c.Tools = append(c.Tools, t.Name)
		if l, ok := apps.ToolLinkOf(protocol.RawMeta(raw)); ok && l.HasApp() {
			c.UITools = append(c.UITools, t.Name)
		}
	}
	var mine, mineUI []string
	for _, raw := range first.Definitions.Tools {
		var t struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(raw, &t)
		mine = append(mine, t.Name)
	}
	if first.Apps != nil {
		mineUI = first.Apps.UITools
	}
	first.Notes = append(first.Notes, contrastNote(first.AppsDeclared, mine, mineUI, c))
}

// contrastNote says in one line how the two tool lists differ.
func contrastNote(declared bool, mine, mineUI []string, c *ToolsContrast) string {
	with, without := "with", "without"
	if !declared {
		with, without = without, with
	}
	onlyFirst, onlySecond := minus(mine, c.Tools), minus(c.Tools, mine)
	if len(onlyFirst) == 0 && len(onlySecond) == 0 && slices.Equal(mineUI, c.UITools) {
		return fmt.Sprintf("MCP Apps: the server lists the same %s with and without the extension", plural(len(mine), "tool"))
	}
	parts := []string{fmt.Sprintf("MCP Apps: %s the extension the server lists %s (%d with an app); %s it, %d (%d with an app)",
		with, plural(len(mine), "tool"), len(mineUI), without, len(c.Tools), len(c.UITools))}
	if len(onlyFirst) > 0 {
		parts = append(parts, "only "+with+": "+strings.Join(onlyFirst, ", "))
	}
	if len(onlySecond) > 0 {
		parts = append(parts, "only "+without+": "+strings.Join(onlySecond, ", "))
	}
	return strings.Join(parts, "; ")
}

// plural is n and word, with an s unless n is 1: "1 tool", "2 tools" (the reports'
// textfmt.Plural, which this package cannot import).
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// minus is the names of a not in b, in a's order.
func minus(a, b []string) []string {
	var out []string
	for _, n := range a {
		if !slices.Contains(b, n) {
			out = append(out, n)
		}
	}
	return out
}
