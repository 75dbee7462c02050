package protocol

import (
	"slices"
	"testing"
)

// A member mcpscope decides on is read by its exact key, never folded as encoding/json
// folds it, and keys a receiver may read as one member are found and flagged.
func TestExactKeys(t *testing.T) {
	params := []byte(`{"name":"model_only_admin","Name":"report","arguments":{}}`)
	if got, _ := MemberString(params, "name"); got != "model_only_admin" {
		t.Errorf(`MemberString(name) = %q, want "model_only_admin" (the exact key)`, got)
	}
	vals := MemberValues([]byte(`{"isError":true,"IsError":false,"task":{"a":1},"task":{"b":2}}`), "isError", "task", "resultType")
	if len(vals) != 3 || string(vals[0]) != "true" || string(vals[1]) != `{"b":2}` || vals[2] != nil {
		t.Errorf("MemberValues = %q, want [true {\"b\":2} nil] (exact keys, the last of a repeated one)", vals)
	}
	if vals := MemberValues([]byte(`[1]`), "a"); vals != nil {
		t.Errorf("MemberValues of an array = %q, want nil", vals)
	}
	if got := Target("tools/call", params); got != "model_only_admin" {
		t.Errorf("Target = %q", got)
	}
	if got := Target("resources/read", []byte(`{"URI":"file:///etc/passwd","uri":"file:///ok"}`)); got != "file:///ok" {
		t.Errorf("Target(resources/read) = %q", got)
	}
	if got := Target("tools/call", []byte(`{"Name":"report"}`)); got != "" {
		t.Errorf(`Target of {"Name":…} = %q, want "" (no member named exactly "name")`, got)
	}
	for _, c := range []struct {
		obj  string
		want []string
	}{
		{`{"name":"a","Name":"b"}`, []string{"name"}},
		{`{"name":"a","name":"b"}`, []string{"name"}},
		{`{"uri":"a","URI":"b","uRi":"c","x":1,"X":2}`, []string{"uri", "x"}},
		{`{"kelvin":1,"\u212aelvin":2}`, []string{"kelvin"}},
		{`{"name":"a","arguments":{"name":1,"Name":2}}`, nil}, // only this object's own keys
		{`{"a":1,"b":2}`, nil},
		{`[1,2]`, nil},
		{`{"a":`, nil},
	} {
		if got := AmbiguousKeys([]byte(c.obj)); !slices.Equal(got, c.want) {
			t.Errorf("AmbiguousKeys(%s) = %q, want %q", c.obj, got, c.want)
		}
	}
}

func TestDecodeFlagsAmbiguousKeys(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","Name":"b"}}`, true},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","name":"b"}}`, true},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","Method":"ping"}`, true},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"x":1,"X":2}}}`, false},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`, false},
	} {
		f := Decode([]byte(c.raw))
		got := slices.ContainsFunc(f.Findings, func(fd Finding) bool { return fd.Code == FindAmbiguousKey })
		if got != c.want {
			t.Errorf("%s: flagged %s = %v, want %v (%v)", c.raw, FindAmbiguousKey, got, c.want, f.Findings)
		}
	}
}
