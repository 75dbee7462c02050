package protocol

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Finding codes of the text a server gives a model or a user: names, titles, descriptions,
// schemas, instructions, serverInfo. "content" names what the server wrote, not how it
// behaved. The rules behind them are in ContentRules; none is a claim of certainty, each
// says what the text holds or reads like.
const (
	FindContentEscape      = "content.terminal-escape"    // an ESC or C1 control: a terminal escape sequence
	FindContentControl     = "content.control"            // another C0 control character (tab, line feed and return allowed in prose)
	FindContentBidi        = "content.bidi"               // bidirectional overrides, embeddings, isolates or marks
	FindContentTags        = "content.tag-characters"     // Unicode tag characters U+E0000–U+E007F: invisible ASCII
	FindContentVariation   = "content.variation-selector" // variation selectors that select nothing visible: a carrier
	FindContentInvisible   = "content.invisible"          // zero-width and other format characters, separators, fillers
	FindContentConfusable  = "content.confusable"         // a name mixing scripts, or using look-alikes of ASCII letters
	FindContentInstruction = "content.model-instruction"  // text addressed to the model rather than describing the tool
	FindContentMarkup      = "content.model-markup"       // markup aimed at a model: <IMPORTANT>, <SYSTEM>, [INST]
	FindToolShadowed       = "content.shadowed-tool"      // two configured servers offer a tool of the same name
	FindToolCrossReference = "content.cross-reference"    // a description names a tool of another configured server
	FindContextCost        = "content.context-cost"       // definitions that cost more tokens than the threshold
)

// contentFindings are the codes of hidden content and of rules across servers, a part of
// the one finding table (findingTable, findings.go).
func contentFindings() map[string]findingInfo {
	return map[string]findingInfo{
		FindContentEscape: {SevError, "The text holds ESC (U+001B) or a C1 control (U+0080–U+009F): the start of a " +
			"terminal escape sequence. A host or log viewer that prints it raw lets the server clear the screen, " +
			"retitle the window, plant a hyperlink or write the clipboard (OSC 52). No name or description needs one."},
		FindContentControl: {SevWarning, "The text holds a C0 control character or DEL. A name has none; prose may " +
			"have tabs and line breaks, nothing else. Hosts show such characters differently, or not at all."},
		FindContentBidi: {SevError, "The text holds bidirectional controls (overrides U+202D/U+202E, embeddings, " +
			"isolates U+2066–U+2069, marks). They make text display in another order than a model reads it " +
			"(the \"Trojan Source\" technique): a user approves one thing and the model gets another."},
		FindContentTags: {SevError, "The text holds Unicode tag characters (U+E0000–U+E007F). They draw nothing, but " +
			"each stands for an ASCII character that many models read: hidden text a user never sees. mcpscope " +
			"spells out what they say."},
		FindContentVariation: {SevWarning, "The text holds variation selectors that select nothing visible (not the " +
			"emoji or text presentation after a symbol). Runs of them can carry hidden bytes that a model decodes."},
		FindContentInvisible: {SevWarning, "The text holds characters that draw nothing: zero-width spaces and " +
			"joiners, the byte order mark, soft hyphens, other format characters, line and paragraph separators, " +
			"fillers. They split or hide words, so what a user reads differs from what a model reads."},
		FindContentConfusable: {SevWarning, "The name mixes scripts (Latin with Cyrillic or Greek letters) or uses " +
			"letters that look like ASCII ones (Cyrillic е, fullwidth Ｒ). A user approving \"read_file\" may be " +
			"approving another tool; hosts match names byte by byte."},
		FindContentInstruction: {SevWarning, "The text reads like an instruction to the model rather than a " +
			"description for it: telling it to ignore earlier instructions, to keep something from the user, or to " +
			"read or send files and secrets. This is the shape of tool poisoning; mcpscope flags the phrase, it " +
			"cannot know the intent."},
		FindContentMarkup: {SevWarning, "The text holds markup aimed at a model (<IMPORTANT>, <SYSTEM>, [INST], " +
			"chat template tokens). Descriptions describe; markup like this is how poisoned descriptions try to " +
			"outrank the host's own instructions."},
		FindToolShadowed: {SevWarning, "Two configured servers offer a tool of the same name. A host that merges " +
			"their lists cannot tell them apart: one may shadow the other, and a model may call the wrong one."},
		FindToolCrossReference: {SevWarning, "A description of one server names a tool of another configured " +
			"server. A server has no business telling the model how to use another's tools; it is how one server " +
			"hijacks another's calls."},
		FindContextCost: {SevWarning, "Every conversation with this server carries its definitions in the model's " +
			"context: tool names, descriptions and schemas, prompts, instructions. Past the threshold they crowd " +
			"out the conversation itself and cost on every turn."},
	}
}

// ContentFinding is a finding about one string of a definition: where it is (a JSON pointer
// into the list or answer that carried it) and its message, which quotes the offending
// characters as the server sent them. A caller shows the message escaped (every report
// does), so the quote shows the characters visibly, never raw.
type ContentFinding struct {
	Finding
	Pointer string `json:"pointer"`
}

// CheckContent looks at every string of a definition (tool, prompt, resource, template, a
// handshake's serverInfo) and every member name, pointer the JSON pointer of raw: what
// each holds that a user cannot see or a model should not be told. The value of a member
// "name" and the property names under "properties" are names; everything else is prose,
// where tabs and line breaks are allowed. At most one finding per code and string.
func CheckContent(raw json.RawMessage, pointer string) []ContentFinding {
	var out []ContentFinding
	walkContent(raw, pointer, false, &out, 0)
	return out
}

// CheckContentText is CheckContent for one string (the instructions), name or prose.
func CheckContentText(s, pointer string, name bool) []ContentFinding {
	return scanText(s, pointer, name)
}

// maxContentDepth bounds the walk; deeper values are not looked at.
const maxContentDepth = 64

func walkContent(raw json.RawMessage, pointer string, names bool, out *[]ContentFinding, depth int) {
	if depth > maxContentDepth {
		return
	}
	switch JSONType(raw) {
	case "string":
		s, _ := stringValue(raw)
		*out = append(*out, scanText(s, pointer, false)...)
	case "object":
		members, _ := ObjectMembers(raw)
		for _, m := range members {
			p := pointer + "/" + PointerToken(m.Key)
			*out = append(*out, scanText(m.Key, p, names)...) // a member name is text too
			if s, ok := stringValue(m.Value); ok && m.Key == "name" {
				*out = append(*out, scanText(s, p, true)...)
				continue
			}
			walkContent(m.Value, p, m.Key == "properties", out, depth+1)
		}
	case "array":
		elems, _ := ArrayElements(raw)
		for i, e := range elems {
			walkContent(e, pointer+"/"+strconv.Itoa(i), false, out, depth+1)
		}
	}
}

// quoteLen bounds the quote of the text around what a finding found.
const quoteLen = 48

// quote cuts s to a bounded window around byte offset at, on character boundaries.
func quote(s string, at int) string {
	start, end := max(0, at-quoteLen/2), min(len(s), at+quoteLen)
	for start > 0 && !utf8.RuneStart(s[start]) {
		start--
	}
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end++
	}
	q := s[start:end]
	if start > 0 {
		q = "…" + q
	}
	if end < len(s) {
		q += "…"
	}
	return `"` + q + `"`
}

// hit is what one kind of character was found in a string.
type hit struct {
	at    int // the byte offset of the first
	count int
	first rune
	extra string // what the characters say (tags), or which sequence (escapes)
}

// scanText applies the character rules, and for names the confusable rule, and for every
// text the phrase rules, to s.
func scanText(s, pointer string, name bool) []ContentFinding {
	if s == "" {
		return nil
	}
	hits := map[string]*hit{}
	var tags strings.Builder
	note := func(code string, i int, r rune) *hit {
		h := hits[code]
		if h == nil {
			h = &hit{at: i, first: r}
			hits[code] = h
		}
		h.count++
		return h
	}
	prev := rune(0)
	for i, r := range s {
		if r >= 0x20 && r < 0x7f {
			prev = r
			continue
		}
		switch {
		case r == 0x1b || r >= 0x80 && r < 0xa0:
			h := note(FindContentEscape, i, r)
			if h.extra == "" {
				h.extra = escapeKind(s[i:])
			}
		case r == '\t' || r == '\n' || r == '\r':
			if name {
				note(FindContentControl, i, r)
			}
		case r < 0x20 || r == 0x7f:
			note(FindContentControl, i, r)
		case isBidi(r):
			note(FindContentBidi, i, r)
		case r >= 0xe0000 && r <= 0xe007f:
			note(FindContentTags, i, r)
			if r >= 0xe0020 && r < 0xe007f {
				tags.WriteRune(r - 0xe0000)
			}
		case unicode.Is(unicode.Variation_Selector, r):
			emoji := (r == 0xfe0e || r == 0xfe0f) &&
				(unicode.Is(unicode.So, prev) || prev >= '0' && prev <= '9' || prev == '#' || prev == '*')
			if !emoji {
				note(FindContentVariation, i, r)
			}
		case r == 0x200d:
			next, _ := utf8.DecodeRuneInString(s[i+3:])
			if !((unicode.Is(unicode.So, prev) || prev == 0xfe0f || prev >= 0x1f3fb && prev <= 0x1f3ff) && unicode.Is(unicode.So, next)) {
				note(FindContentInvisible, i, r)
			}
		case unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) || r == 0x034f || r == 0x115f || r == 0x1160 ||
			r == 0x3164 || r == 0xffa0 || r == 0xfffe || r == 0xffff:
			note(FindContentInvisible, i, r)
		}
		prev = r
	}
	if hits[FindContentEscape] != nil {
		delete(hits, FindContentControl) // a sequence's BEL or ST is part of it
	}
	if h := hits[FindContentTags]; h != nil && tags.Len() > 0 {
		h.extra = tags.String()
	}
	var out []ContentFinding
	add := func(code, format string, args ...any) {
		out = append(out, ContentFinding{Finding: NewFinding(code, format, args...), Pointer: pointer})
	}
	for _, code := range []string{FindContentEscape, FindContentControl, FindContentBidi, FindContentTags,
		FindContentVariation, FindContentInvisible} {
		h := hits[code]
		if h == nil {
			continue
		}
		what := map[string]string{
			FindContentEscape:    "terminal control",
			FindContentControl:   "control character",
			FindContentBidi:      "bidirectional control",
			FindContentTags:      "tag character",
			FindContentVariation: "variation selector",
			FindContentInvisible: "invisible character",
		}[code]
		msg := fmt.Sprintf("%s: %d %s (first U+%04X)", pointer, h.count, plural(h.count, what, what+"s"), h.first)
		switch {
		case code == FindContentEscape && h.extra != "":
			msg += ", " + h.extra
		case code == FindContentTags && h.extra != "":
			msg += fmt.Sprintf(", spelling %q", h.extra)
		}
		add(code, "%s in %s", msg, quote(s, h.at))
	}
	if name {
		if p := confusable(s); p != "" {
			add(FindContentConfusable, "%s: the name %s %s", pointer, quote(s, 0), p)
		}
	}
	seen := map[string]bool{}
	for _, m := range matchPhrases(s) {
		if seen[m.rule.Code] {
			continue // one finding per code; the first rule that matched words it
		}
		seen[m.rule.Code] = true
		add(m.rule.Code, "%s %s: %s", pointer, m.rule.What, quote(s, m.at))
	}
	return out
}

// isBidi reports whether r is a bidirectional control: marks, embeddings, overrides,
// isolates.
func isBidi(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// escapeKind names the escape sequence s starts with (ESC or a C1 control).
func escapeKind(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	intro := rune(0)
	rest := s[n:]
	switch r {
	case 0x1b:
		if rest == "" {
			return ""
		}
		intro = rune(rest[0])
		rest = rest[1:]
	case 0x9b:
		intro = '['
	case 0x9d:
		intro = ']'
	}
	switch intro {
	case '[':
		return "a CSI sequence (cursor, colours, clearing the screen)"
	case ']':
		num, _, _ := strings.Cut(rest, ";")
		switch num {
		case "52":
			return "an OSC 52 clipboard write"
		case "8":
			return "an OSC 8 hyperlink"
		case "0", "1", "2":
			return "an OSC title change"
		}
		return "an OSC sequence"
	case 'P':
		return "a DCS sequence"
	}
	return ""
}

// ContentSpec is the section a content finding at pointer rests on: the security
// considerations of the page that defines what carried the text (tools, prompts,
// resources), the tool naming rules for a confusable tool name, the handshake for
// instructions and serverInfo.
func ContentSpec(code, pointer string, rev Revision) SpecRef {
	if !rev.Known() {
		return SpecRef{}
	}
	if code == FindContextCost {
		return SpecRef{Revision: rev, Page: "server/tools", Section: "Tool"}
	}
	root, _, _ := strings.Cut(strings.TrimPrefix(pointer, "/"), "/")
	switch root {
	case "tools":
		if code == FindContentConfusable || code == FindToolShadowed {
			return SpecRef{Revision: rev, Page: "server/tools", Section: "Tool Names"}
		}
		return SpecRef{Revision: rev, Page: "server/tools", Section: "Security Considerations"}
	case "prompts":
		return SpecRef{Revision: rev, Page: "server/prompts", Section: "Security"}
	case "resources", "resourceTemplates":
		return SpecRef{Revision: rev, Page: "server/resources", Section: "Security Considerations"}
	}
	return SpecFor(FindHandshake, rev)
}
