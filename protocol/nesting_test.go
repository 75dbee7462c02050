package protocol

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

func nested(depth int) string { return strings.Repeat("[", depth) + strings.Repeat("]", depth) }

// TestNestingFinding flags frames nested beyond MaxNesting and keeps them whole.
func TestNestingFinding(t *testing.T) {
	cases := []struct {
		name string
		raw  string
		deep bool
	}{
		{"shallow", `{"jsonrpc":"2.0","id":1,"result":{"a":[{"b":[]}]}}`, false},
		{"at the limit", `{"jsonrpc":"2.0","id":1,"result":{"x":` + nested(MaxNesting-2) + `}}`, false},
		{"one past", `{"jsonrpc":"2.0","id":1,"result":{"x":` + nested(MaxNesting-1) + `}}`, true},
		{"100k in params", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"x":` + nested(100000) + `}}`, true},
		{"empty object deep", `{"jsonrpc":"2.0","id":1,"result":{"x":` + strings.Repeat(`[`, MaxNesting-2) + `{}` + strings.Repeat(`]`, MaxNesting-2) + `}}`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Decode([]byte(c.raw))
			got := slices.ContainsFunc(f.Findings, func(fd Finding) bool { return fd.Code == FindTooDeep })
			if got != c.deep {
				t.Errorf("too-deep finding %v, want %v: %v", got, c.deep, f.Findings)
			}
			if string(f.Raw) != c.raw || f.Kind == KindInvalid {
				t.Errorf("frame not kept: kind %s", f.Kind)
			}
			// The limit is encoding/json's: what it refuses is exactly what is flagged.
			var v any
			if err := json.Unmarshal([]byte(c.raw), &v); (err != nil) != c.deep {
				t.Errorf("encoding/json error %v, finding %v", err, c.deep)
			} else if err != nil && !errors.Is(DescribeJSONError(err), ErrTooDeep) {
				t.Errorf("DescribeJSONError(%v) does not say it is too deep", err)
			}
		})
	}
}

func TestArrayElements(t *testing.T) {
	deep := nested(20000)
	els, ok := ArrayElements([]byte(` [1, "a,b" , {"k":[2]}, ` + deep + `] `))
	if !ok || len(els) != 4 || string(els[1]) != `"a,b"` || string(els[2]) != `{"k":[2]}` || string(els[3]) != deep {
		t.Errorf("elements %d ok %v", len(els), ok)
	}
	for _, bad := range []string{``, `{}`, `[1,]`, `[1] 2`, `[`} {
		if _, ok := ArrayElements([]byte(bad)); ok {
			t.Errorf("%q accepted", bad)
		}
	}
	if els, ok := ArrayElements([]byte(`[]`)); !ok || len(els) != 0 || els == nil {
		t.Errorf("empty array: %v %v", els, ok)
	}
}
