package ui

import (
	"bytes"
	"encoding/json"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// indentKeepOrder indents raw with two spaces, keeping the sender's key order. Text that is not
// JSON comes back unchanged.
func indentKeepOrder(raw []byte) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

// JSON token classes, indexes into jsonStyles.
const (
	jsText = iota
	jsPunct
	jsKey
	jsString
	jsNumber
	jsBool
	jsNull
)

func jsonStyles(s *Styles) []lipgloss.Style {
	return []lipgloss.Style{s.Text, s.JSONPunct, s.JSONKey, s.JSONString, s.JSONNumber, s.JSONBool, s.JSONNull}
}

// styledJSONLines renders raw as indented, coloured JSON lines no wider than w cells, each with
// prefix in front. Lines too long to fit continue on the next line, two cells further in.
func styledJSONLines(s *Styles, raw []byte, prefix string, w int) []string {
	text := indentKeepOrder(raw)
	styles := jsonStyles(s)
	avail := max(8, w-ansi.StringWidth(prefix))
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		runes := []rune(line)
		for _, l := range wrapStyled(runes, classifyJSON(runes), styles, avail) {
			out = append(out, prefix+l)
		}
	}
	return out
}

// classifyJSON gives each rune of one line of indented JSON its token class.
func classifyJSON(r []rune) []uint8 {
	cls := make([]uint8, len(r))
	for i := 0; i < len(r); {
		c := r[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(r) && r[j] != '"' {
				if r[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(r))
			k := j
			for k < len(r) && r[k] == ' ' {
				k++
			}
			class := uint8(jsString)
			if k < len(r) && r[k] == ':' {
				class = jsKey
			}
			fillClass(cls[i:j], class)
			i = j
		case c == '-' || (c >= '0' && c <= '9'):
			j := i
			for j < len(r) && strings.ContainsRune("+-.eE0123456789", r[j]) {
				j++
			}
			fillClass(cls[i:j], jsNumber)
			i = j
		case runesHasPrefix(r[i:], []rune("true")):
			fillClass(cls[i:i+4], jsBool)
			i += 4
		case runesHasPrefix(r[i:], []rune("false")):
			fillClass(cls[i:i+5], jsBool)
			i += 5
		case runesHasPrefix(r[i:], []rune("null")):
			fillClass(cls[i:i+4], jsNull)
			i += 4
		case strings.ContainsRune("{}[],:", c):
			cls[i] = jsPunct
			i++
		default:
			i++
		}
	}
	return cls
}

func fillClass(s []uint8, v uint8) {
	for i := range s {
		s[i] = v
	}
}

// wrapStyled lays out runes with a style class each into lines of at most w cells. It
// prefers to break after a space in the last third of a line; continuation lines are
// indented two cells past the line's own indentation.
func wrapStyled(r []rune, cls []uint8, styles []lipgloss.Style, w int) []string {
	indent := 0
	for indent < len(r) && r[indent] == ' ' {
		indent++
	}
	cont := min(indent+2, w/2)
	var out []string
	start, width := 0, w
	for first := true; ; first = false {
		lead := 0
		if !first {
			lead = cont
		}
		end, cells := start, lead
		for end < len(r) {
			cw := ansi.StringWidth(string(r[end]))
			if cells+cw > width && end > start {
				break
			}
			cells += cw
			end++
		}
		if end < len(r) {
			for b := end - 1; b > start+(end-start)*2/3; b-- {
				if r[b] == ' ' {
					end = b + 1
					break
				}
			}
		}
		out = append(out, strings.Repeat(" ", lead)+renderRuns(r[start:end], cls[start:end], styles))
		if end >= len(r) {
			return out
		}
		start = end
	}
}

// renderRuns styles each run of runes that share a class.
func renderRuns(r []rune, cls []uint8, styles []lipgloss.Style) string {
	var b strings.Builder
	for i := 0; i < len(r); {
		j := i
		for j < len(r) && cls[j] == cls[i] {
			j++
		}
		seg := string(r[i:j])
		if strings.TrimSpace(seg) == "" {
			b.WriteString(seg)
		} else {
			b.WriteString(styles[cls[i]].Render(seg))
		}
		i = j
	}
	return b.String()
}
