package explorer

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// itemDetail renders an item in full for a pane w cells wide: its identity, description,
// annotations, schemas or arguments, and every other field the server sent.
func itemDetail(s *Styles, it *exItem, w int) []string {
	const pad = " "
	var out []string
	if it.invalid != "" {
		out = append(out, pad+s.Error.Render("this item is "+it.invalid))
		return append(out, StyledJSONLines(s, it.raw, pad, w)...)
	}
	out = append(out, pad+s.Bold.Render(escapeText(it.rawLabel())))
	if it.title != "" && it.name != "" {
		out = append(out, pad+s.Subtle.Render(escapeText(it.title)))
	}
	out = append(out, pinLines(s, it, w)...)
	shown := map[string]bool{"name": true, "title": true, "description": true}

	var fields [][2]string
	field := func(k, v string) {
		if v != "" {
			fields = append(fields, [2]string{k, escapeText(v)})
		}
		shown[k] = true
	}
	switch it.kind {
	case session.ListResources:
		field("uri", it.uri)
		field("mimeType", it.mimeType)
		if it.hasSize {
			field("size", fmt.Sprintf("%s (%d bytes)", textfmt.Size(it.size), it.size))
		}
	case session.ListTemplates:
		field("uriTemplate", it.uriTemplate)
		field("mimeType", it.mimeType)
	}
	if len(fields) > 0 {
		out = append(out, "")
		for _, f := range fields {
			out = append(out, textfmt.Hanging(s.Text, pad+s.Muted.Render(fieldLabel(f[0])), f[1], w)...)
		}
	}
	if it.desc != "" {
		out = append(out, "")
		out = append(out, textfmt.WrapProse(s.Text, escapeProse(it.desc), pad, w)...)
	}
	section := func(title string) {
		out = append(out, "", pad+s.PaneTitle.Render(title))
	}
	if app := appLines(s, it, w); len(app) > 0 {
		section("MCP App")
		out = append(out, app...)
	}
	if it.kind == session.ListTools {
		section("Annotations")
		out = append(out, hintLines(s, it.hints, pad+pad)...)
		if v, ok := it.obj["annotations"]; ok {
			if extra := otherFields(v, "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"); extra != nil {
				out = append(out, StyledJSONLines(s, extra, pad+pad, w)...)
			}
		}
		shown["annotations"] = true
		if len(it.headers) > 0 || len(it.headerProblems) > 0 {
			section("HTTP headers (x-mcp-header)")
			out = append(out, headerLines(s, it, pad+pad, w)...)
		}
		for _, sc := range []struct{ key, title string }{{"inputSchema", "Input schema"}, {"outputSchema", "Output schema"}} {
			if v, ok := it.obj[sc.key]; ok {
				section(sc.title)
				out = append(out, StyledJSONLines(s, v, pad+pad, w)...)
				shown[sc.key] = true
			}
		}
	}
	if it.kind == session.ListSkills && it.skill != nil {
		section("Files")
		out = append(out, skillLines(s, it.skill, pad+pad, w)...)
		shown["uri"], shown["resources"] = true, true
	}
	if it.kind == session.ListEvents && it.event != nil {
		section("Delivery")
		out = append(out, eventLines(s, it.event, pad+pad, w)...)
		shown["delivery"] = true
		for _, sc := range []struct{ key, title string }{{"inputSchema", "Input schema"}, {"payloadSchema", "Payload schema"}} {
			if v, ok := it.obj[sc.key]; ok {
				section(sc.title)
				out = append(out, StyledJSONLines(s, v, pad+pad, w)...)
				shown[sc.key] = true
			}
		}
	}
	if it.kind == session.ListPrompts {
		section("Arguments")
		out = append(out, argLines(s, it.args, pad+pad, w)...)
		shown["arguments"] = true
	}
	if v, ok := it.obj["annotations"]; ok && !shown["annotations"] {
		section("Annotations")
		out = append(out, StyledJSONLines(s, v, pad+pad, w)...)
		shown["annotations"] = true
	}
	var rest []string
	for _, k := range it.fields {
		if !shown[k] {
			rest = append(rest, k)
		}
	}
	if len(rest) > 0 {
		section("Other fields")
		out = append(out, StyledJSONLines(s, subObject(it.fields, it.obj, rest), pad+pad, w)...)
	}
	return out
}

// fieldLabel pads a field label to a column.
func fieldLabel(s string) string { return fmt.Sprintf("%-12s", s) }

// hintLines lists a tool's four behaviour hints, with the spec's default for those the
// server left out.
func hintLines(s *Styles, h toolHints, prefix string) []string {
	rows := []struct {
		name string
		v    *bool
		def  bool
	}{
		{"readOnlyHint", h.ReadOnly, false},
		{"destructiveHint", h.Destructive, true},
		{"idempotentHint", h.Idempotent, false},
		{"openWorldHint", h.OpenWorld, true},
	}
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		val := s.Muted.Render(fmt.Sprintf("not set (default %v)", r.def))
		if r.v != nil {
			st := s.JSONBool
			if r.name == "destructiveHint" && *r.v {
				st = s.Error
			}
			val = st.Render(fmt.Sprint(*r.v))
		}
		out = append(out, prefix+s.Muted.Render(fmt.Sprintf("%-17s", r.name))+val)
	}
	return out
}

// argLines lists a prompt's arguments: name, required or optional, and description.
func argLines(s *Styles, args []promptArg, prefix string, w int) []string {
	if len(args) == 0 {
		return []string{prefix + s.Muted.Render("none")}
	}
	nameW := 0
	for _, a := range args {
		nameW = max(nameW, ansi.StringWidth(escapeText(a.Name)))
	}
	var out []string
	for _, a := range args {
		req := s.Muted.Render("optional")
		if a.Required {
			req = s.Accent.Render("required")
		}
		head := prefix + s.JSONKey.Render(textfmt.Pad(escapeText(a.Name), nameW)) + "  " + req + "  "
		desc := a.Description
		if a.Title != "" && a.Title != a.Name {
			desc = strings.TrimSpace(a.Title + ". " + desc)
		}
		desc = escapeProse(desc)
		if desc == "" {
			out = append(out, head)
			continue
		}
		out = append(out, textfmt.Hanging(s.Text, head, desc, w)...)
	}
	return out
}

// otherFields returns the members of a JSON object other than skip, in their order, or nil
// when there are none.
func otherFields(raw json.RawMessage, skip ...string) json.RawMessage {
	keys, obj, err := protocol.OrderedObject(raw)
	if err != nil {
		return nil
	}
	var rest []string
	for _, k := range keys {
		if !slices.Contains(skip, k) {
			rest = append(rest, k)
		}
	}
	if len(rest) == 0 {
		return nil
	}
	return subObject(keys, obj, rest)
}

// subObject builds a JSON object of some members of obj, in the order of keys.
func subObject(keys []string, obj map[string]json.RawMessage, want []string) json.RawMessage {
	var b strings.Builder
	b.WriteByte('{')
	n := 0
	for _, k := range keys {
		if !slices.Contains(want, k) {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		kj, _ := json.Marshal(k)
		b.Write(kj)
		b.WriteByte(':')
		b.Write(obj[k])
		n++
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}
