package explorer

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/events"
	"github.com/mcpscope/mcpscope/protocol/skills"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// exItem is one tool, resource, template or prompt, parsed once from the server's JSON.
type exItem struct {
	kind              session.ListKind
	raw               json.RawMessage
	fields            []string                   // top-level keys in the server's order
	obj               map[string]json.RawMessage // top-level values
	name, title, desc string
	uri, uriTemplate  string
	mimeType          string
	size              int64
	hasSize           bool
	hints             toolHints
	args              []promptArg
	headers           []protocol.HeaderParam // tool parameters mirrored into Mcp-Param-* headers
	headerProblems    []string               // why the tool's x-mcp-header annotations are invalid
	skill             *skills.Skill          // a skill's entry, parsed
	event             *events.Type           // an event type, parsed (explorer_events.go)
	invalid           string                 // why the item is not a JSON object, if it is not
	pin               *pinMark               // how it differs from the pin; nil: the same, or no pin
	app               exApp                  // what it says of MCP Apps (explorer_apps.go)
	// shown holds the label, title, uri and uri template as the views show them, escaped
	// (jsonview.EscapeRune), with where the escapes are; shownDesc the description
	// escaped, for the filter.
	shown     struct{ label, title, uri, uriTemplate shownText }
	shownDesc string
	detailW   int // width detail was rendered at
	detailS   *Styles
	detail    []string
}

// toolHints are a tool's behaviour annotations; nil means the server left the hint out.
type toolHints struct {
	ReadOnly, Destructive, Idempotent, OpenWorld *bool
}

// promptArg is one argument of a prompt.
type promptArg struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
}

// key identifies the item across list refreshes: a resource by its uri, a template by its
// uriTemplate, anything else by its name.
func (it *exItem) key() string {
	switch it.kind {
	case session.ListResources, session.ListSkills:
		return it.uri
	case session.ListTemplates:
		return it.uriTemplate
	}
	return it.name
}

// rawLabel is what the list shows first, as the server sent it: the name, or the title
// when there is no name.
func (it *exItem) rawLabel() string {
	if it.name == "" {
		return it.title
	}
	return it.name
}

// label is rawLabel as the list shows it, escaped.
func (it *exItem) label() string { return it.shown.label.text }

// shownText is server text as a list row shows it: every character a terminal must not get
// raw as its escape (jsonview.EscapeRune), and the rune positions of the escapes, which the
// row sets apart.
type shownText struct {
	text string
	esc  []int
}

// showText escapes raw for a list row.
func showText(raw string) shownText {
	if !jsonview.NeedsEscape(raw) {
		return shownText{text: raw}
	}
	var b strings.Builder
	var esc []int
	n := 0
	for _, sp := range jsonview.AppendEscaped(nil, raw, "", "e") {
		c := utf8.RuneCountInString(sp.Text)
		if sp.SGR != "" {
			for i := range c {
				esc = append(esc, n+i)
			}
		}
		n += c
		b.WriteString(sp.Text)
	}
	return shownText{b.String(), esc}
}

// setShown works out the shown forms of the item's texts.
func (it *exItem) setShown() *exItem {
	it.shown.label, it.shown.title = showText(it.rawLabel()), showText(it.title)
	it.shown.uri, it.shown.uriTemplate = showText(it.uri), showText(it.uriTemplate)
	it.shownDesc = jsonview.EscapeText(it.desc)
	return it
}

// parseItem reads one list item. It never fails: an item that is not an object is kept
// (with why) so the list shows what the server sent.
func parseItem(kind session.ListKind, raw json.RawMessage) *exItem {
	it := &exItem{kind: kind, raw: raw}
	keys, obj, err := protocol.OrderedObject(raw)
	if err != nil {
		it.invalid = err.Error()
		it.name = strings.TrimSpace(string(raw))
		return it.setShown()
	}
	it.fields, it.obj = keys, obj
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(obj[k], &s)
		return s
	}
	it.name, it.title, it.desc = str("name"), str("title"), str("description")
	it.uri, it.uriTemplate, it.mimeType = str("uri"), str("uriTemplate"), str("mimeType")
	if v, ok := obj["size"]; ok && json.Unmarshal(v, &it.size) == nil {
		it.hasSize = true
	}
	if kind == session.ListTools {
		var a struct {
			Title       string `json:"title"`
			ReadOnly    *bool  `json:"readOnlyHint"`
			Destructive *bool  `json:"destructiveHint"`
			Idempotent  *bool  `json:"idempotentHint"`
			OpenWorld   *bool  `json:"openWorldHint"`
		}
		_ = json.Unmarshal(obj["annotations"], &a)
		it.hints = toolHints{a.ReadOnly, a.Destructive, a.Idempotent, a.OpenWorld}
		if it.title == "" {
			it.title = a.Title
		}
		it.headers, it.headerProblems = protocol.ToolHeaderParams(obj["inputSchema"])
	}
	if kind == session.ListSkills {
		sk := skills.Parse(raw)
		it.skill, it.name, it.desc = &sk, sk.Name, sk.Description
	}
	if kind == session.ListPrompts {
		_ = json.Unmarshal(obj["arguments"], &it.args)
	}
	if kind == session.ListEvents {
		t := events.ParseType(raw)
		it.event, it.name, it.desc = &t, t.Name, t.Description
	}
	it.parseApp()
	return it.setShown()
}

// parseItems reads a whole list.
func parseItems(kind session.ListKind, raws []json.RawMessage) []*exItem {
	out := make([]*exItem, len(raws))
	for i, r := range raws {
		out[i] = parseItem(kind, r)
	}
	return out
}

// badges are the short annotation marks of a tool's list row: only hints the server set
// to true, so the list stays quiet about defaults.
func (h toolHints) badges() []string {
	var out []string
	for _, b := range []struct {
		v    *bool
		name string
	}{{h.ReadOnly, "readOnly"}, {h.Destructive, "destructive"}, {h.Idempotent, "idempotent"}, {h.OpenWorld, "openWorld"}} {
		if b.v != nil && *b.v {
			out = append(out, b.name)
		}
	}
	return out
}

// exHit is an item that passed the filter, with where it matched.
type exHit struct {
	it       *exItem
	score    int
	namePos  []int // matched runes of label()
	titlePos []int // matched runes of the shown title
	inDesc   bool  // matched only in the description
}

// Field weights: a match in the name outranks one in the title, which outranks the
// description.
const (
	fuzzyNameBonus  = 30
	fuzzyTitleBonus = 15
)

// matchItem matches the filter pattern against an item's name, title and description.
func matchItem(pattern string, it *exItem) (exHit, bool) {
	h := exHit{it: it}
	if pattern == "" {
		return h, true
	}
	ok := false
	if r, m := fuzzyMatch(pattern, it.label()); m {
		h.score, h.namePos, ok = r.Score+fuzzyNameBonus, r.Pos, true
	}
	if it.title != "" && it.name != "" {
		if r, m := fuzzyMatch(pattern, it.shown.title.text); m {
			if !ok || r.Score+fuzzyTitleBonus > h.score {
				h.score = r.Score + fuzzyTitleBonus
			}
			h.titlePos, ok = r.Pos, true
		}
	}
	if !ok {
		// A long description holds almost any short pattern as a scattered subsequence, so
		// a description match counts only when it is at least half as good as a
		// contiguous one.
		if r, m := fuzzyMatch(pattern, it.shownDesc); m && r.Score >= fuzzyMatchPts*utf8.RuneCountInString(pattern)/2 {
			h.score, h.inDesc, ok = r.Score, true, true
		}
	}
	return h, ok
}

// kindTitle is how a list kind is named on screen.
func kindTitle(k session.ListKind) string {
	if k == session.ListTemplates {
		return "templates"
	}
	return string(k)
}

// kindNoun names one list in a sentence ("resource templates list changed").
func kindNoun(k session.ListKind) string {
	if k == session.ListTemplates {
		return "resource templates"
	}
	return string(k)
}

// kindCapability is the server capability that offers a list.
func kindCapability(k session.ListKind) string {
	switch k {
	case session.ListTemplates:
		return "resources"
	case session.ListSkills:
		return "extensions." + skills.Extension
	case session.ListEvents:
		return "extensions." + events.Extension
	}
	return string(k)
}
