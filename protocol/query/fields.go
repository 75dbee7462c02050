package query

import (
	"strings"
)

// Field is one field of the filter: its name and short aliases, how a term is written,
// what it matches and an example. The table Fields is the one description of the filter:
// the parser reads a term's field from it (a field not in it is unknown), and the help
// screen, the filter input's placeholder and README's filter table are made from it.
type Field struct {
	Name    string   // as typed before the colon; "" for a free word
	Aliases []string // shorter names for the same field
	Syntax  string   // how a term is written: "method:NAME"
	Values  []Value  // the values the field takes, when it takes a fixed set
	Meaning string   // what a term matches (Markdown: `code` for literal text)
	Help    string   // the same in a few words, for the help screen (a field of more than two values shows them instead)
	Example string   // a term to try

	parse func(value string) (Matcher, error) // set from parsers
}

// parsers parse each field's value into a matcher (set on Fields by init: the matchers'
// errors read the table).
var parsers = map[string]func(value string) (Matcher, error){
	"method": methodMatcher, "dir": dirMatcher, "kind": kindMatcher, "has": hasMatcher,
	"tool": toolMatcher, "id": idMatcher, "slow": slowMatcher, "lane": laneMatcher,
}

func init() {
	for i := range Fields {
		Fields[i].parse = parsers[Fields[i].Name]
	}
}

// Value is one of a field's fixed values, with a note when the name does not say it all.
type Value struct {
	Name string
	Note string
}

// Fields are the filter's terms, in the order help and README list them.
var Fields = []Field{
	{Syntax: "WORD", Meaning: "the method, the text of stderr and transport rows, and the raw frame, case-insensitively",
		Help: "in method, text or raw frame", Example: "zebra"},
	{Name: "method", Aliases: []string{"m"}, Syntax: "method:NAME",
		Meaning: "a method containing NAME; `method:=NAME` is exactly that method, `method:events/*` every method starting events/ (a response has its request's)",
		Help:    "method holds NAME; =NAME exact; NAME* prefix", Example: "method:=tools/list"},
	{Name: "dir", Aliases: []string{"d"}, Syntax: "dir:DIR", Values: []Value{{"in", "from the server"}, {"out", "to it"}},
		Meaning: "frames by direction", Help: "frames from the server, or to it", Example: "dir:in"},
	{Name: "kind", Aliases: []string{"k"}, Syntax: "kind:KIND", Values: []Value{
		{"request", ""}, {"notification", ""}, {"response", "a result or an error"}, {"result", ""},
		{"error", "a JSON-RPC error, a tool error or an error event"}, {"batch", ""}, {"invalid", "not JSON-RPC"},
		{"frame", "any frame"}, {"stderr", ""}, {"http", ""}, {"transport", ""}, {"state", ""}, {"exit", ""},
		{"gap", "where the view lost events"}},
		Meaning: "rows of one kind", Example: "kind:notification"},
	{Name: "has", Syntax: "has:WHAT", Values: []Value{{"finding", "rows with findings"}, {"error", "JSON-RPC or tool errors"},
		{"tool-error", "tool errors only"}, {"progress", "requests that got progress"}},
		Meaning: "rows that carry something", Example: "has:tool-error"},
	{Name: "tool", Syntax: "tool:NAME", Meaning: "a tool's calls and their responses; `tool:=NAME` is exact",
		Help: "a tool's calls and responses", Example: "tool:=echo"},
	{Name: "id", Syntax: "id:ID", Meaning: "frames with that JSON-RPC id: a request and its response",
		Help: "a request and its response", Example: "id:7"},
	{Name: "slow", Syntax: "slow:>DUR", Meaning: "responses (and their requests) slower than DUR; `slow:<DUR` faster; a bare number is milliseconds",
		Help: "by latency; slow:<DUR faster", Example: "slow:>500ms"},
	{Name: "lane", Syntax: "lane:LANE", Values: []Value{{"app", "an MCP App's messages with mcpscope, its host"},
		{"server", "the frames to and from the server"}, {"from-app", "the server calls made for an app"},
		{"webhook", "the POSTs mcpscope's Events webhook receiver got"}},
		Meaning: "frames by conversation", Example: "lane:app"},
}

// LookupField is the field named name (lower case) or one of its aliases, or nil.
func LookupField(name string) *Field {
	for i := range Fields {
		f := &Fields[i]
		if f.Name == "" {
			continue
		}
		if f.Name == name {
			return f
		}
		for _, a := range f.Aliases {
			if a == name {
				return f
			}
		}
	}
	return nil
}

// FieldNames are the names of the fields, in the table's order.
func FieldNames() []string {
	var names []string
	for _, f := range Fields {
		if f.Name != "" {
			names = append(names, f.Name)
		}
	}
	return names
}

// valueNames are a field's values joined by sep.
func (f Field) valueNames(sep string) string {
	names := make([]string, len(f.Values))
	for i, v := range f.Values {
		names[i] = v.Name
	}
	return strings.Join(names, sep)
}

// Placeholder is the filter input's placeholder: each field as it is typed, short enough
// for an 80-column footer.
func Placeholder() string {
	parts := []string{"filter: words"}
	for _, f := range Fields[1:] {
		if len(f.Values) == 2 {
			parts = append(parts, f.Name+":"+f.valueNames("|"))
			continue
		}
		parts = append(parts, f.Name+":")
	}
	return strings.Join(append(parts, "-term"), " ")
}

// HelpLine is one line of the filter's block on the help screen: a term and what it does;
// Term is empty on a line that continues a field's values.
type HelpLine struct{ Term, Desc string }

// HelpLines is the filter's block on the help screen, each description at most width
// cells: a field of two values shows them in its term (dir:in|out); a field of more lists
// them as its description, wrapping onto lines of their own.
func HelpLines(width int) []HelpLine {
	var out []HelpLine
	for _, f := range Fields {
		switch {
		case len(f.Values) == 2:
			out = append(out, HelpLine{Term: f.Name + ":" + f.valueNames("|"), Desc: f.Help})
		case len(f.Values) > 0:
			term, line := f.Syntax, ""
			for i, v := range f.Values {
				w := v.Name
				if i < len(f.Values)-1 {
					w += "|"
				}
				if line != "" && len(line)+len(w) > width {
					out = append(out, HelpLine{Term: term, Desc: line})
					term, line = "", ""
				}
				line += w
			}
			out = append(out, HelpLine{Term: term, Desc: line})
		default:
			out = append(out, HelpLine{Term: f.Syntax, Desc: f.Help})
		}
	}
	return append(out, HelpLine{Term: "-term", Desc: "excludes"})
}

// MarkdownTable is README's filter table, made from Fields.
func MarkdownTable() string {
	var b strings.Builder
	b.WriteString("| term | matches | example |\n|---|---|---|\n")
	for _, f := range Fields {
		term := "`" + f.Syntax + "`"
		if f.Name == "" {
			term = "a word"
		}
		if len(f.Aliases) > 0 {
			term += " (`" + strings.Join(f.Aliases, "`, `") + ":`)"
		}
		meaning := f.Meaning
		if len(f.Values) > 0 {
			vals := make([]string, len(f.Values))
			for i, v := range f.Values {
				vals[i] = "`" + v.Name + "`"
				if v.Note != "" {
					vals[i] += " (" + v.Note + ")"
				}
			}
			meaning += ": " + strings.Join(vals, ", ")
		}
		b.WriteString("| " + term + " | " + meaning + " | `" + f.Example + "` |\n")
	}
	b.WriteString("\nFor example `tool:=echo slow:>1s` shows the echo tool's calls that took over a second, and their responses.\n")
	return b.String()
}
