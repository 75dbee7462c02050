package traffic

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol/query"
)

// TestFieldsParse: the table is the parser's: every field's example, every value it lists
// and every alias parse without error, a field outside the table is unknown and the error
// names the table's fields, and a wrong value's error lists the table's values.
func TestFieldsParse(t *testing.T) {
	for _, f := range query.Fields {
		if q := ParseQuery(f.Example); q.Err != "" || q.Empty() {
			t.Errorf("%s: example %q: %q", f.Syntax, f.Example, q.Err)
		}
		if f.Name == "" {
			continue
		}
		for _, v := range f.Values {
			if q := ParseQuery(f.Name + ":" + v.Name); q.Err != "" {
				t.Errorf("%s:%s, a value the table lists: %s", f.Name, v.Name, q.Err)
			}
		}
		_, value, _ := strings.Cut(f.Example, ":")
		for _, a := range f.Aliases {
			q := ParseQuery(a + ":" + value)
			if q.Err != "" {
				t.Errorf("alias %s: %s", a, q.Err)
			}
			if got, want := q.Prefilter(), ParseQuery(f.Example).Prefilter(); !reflect.DeepEqual(got, want) {
				t.Errorf("alias %s: prefilter %q, want the field's %q", a, got.All, want.All)
			}
		}
		if len(f.Values) > 0 {
			err := ParseQuery(f.Name + ":nonsense").Err
			for _, v := range f.Values {
				if !strings.Contains(err, v.Name) {
					t.Errorf("%s:nonsense: the error %q does not list %s", f.Name, err, v.Name)
				}
			}
		}
	}
	err := ParseQuery("colour:red").Err
	for _, name := range query.FieldNames() {
		if !strings.Contains(err, name) {
			t.Errorf("unknown field: the error %q does not name %s", err, name)
		}
	}
}

// TestFieldsViews: the placeholder, the help lines and README's table, all made from the
// table, name every field, and help and README every value.
func TestFieldsViews(t *testing.T) {
	ph, md := query.Placeholder(), query.MarkdownTable()
	var help strings.Builder
	for _, l := range query.HelpLines(32) {
		if len(l.Desc) > 32 {
			t.Errorf("help line wider than 32: %q", l.Desc)
		}
		help.WriteString(l.Term + " " + l.Desc + "\n")
	}
	for _, f := range query.Fields[1:] {
		if !strings.Contains(ph, f.Name+":") {
			t.Errorf("the placeholder %q lacks %s:", ph, f.Name)
		}
		if !strings.Contains(help.String(), f.Name+":") || !strings.Contains(md, "`"+f.Syntax+"`") {
			t.Errorf("help or README lacks %s", f.Syntax)
		}
		for _, v := range f.Values {
			if !strings.Contains(help.String(), v.Name) || !strings.Contains(md, "`"+v.Name+"`") {
				t.Errorf("help or README lacks %s:%s", f.Name, v.Name)
			}
		}
	}
	if len(ph) > 72 {
		t.Errorf("the placeholder is %d bytes, too wide for an 80-column footer: %q", len(ph), ph)
	}
	for _, want := range []string{"tool:", "has:", "kind:"} {
		if !strings.Contains(ph, want) {
			t.Errorf("the placeholder %q lacks %s", ph, want)
		}
	}
}
