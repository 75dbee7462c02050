package protocol

import (
	"strings"
	"testing"
)

func TestScanMembers(t *testing.T) {
	tests := []struct {
		in   string
		want string // key=value|… as seen by fn
		ok   bool
	}{
		{`{}`, ``, true},
		{` { } `, ``, true},
		{`{"a":1,"b":"x"}`, `a=1|b="x"|`, true},
		{`{"a" : {"b":[1,"]}"],"c":{}} , "d":true}`, `a={"b":[1,"]}"],"c":{}}|d=true|`, true},
		{`{"k\"q":"v\\","n":null}`, `k\"q="v\\"|n=null|`, true},
		{`{"s":"a\\\"b"}`, `s="a\\\"b"|`, true},
		{`{"a":1,"b":`, `a=1|`, false},
		{`{"a":1 "b":2}`, `a=1|`, false},
		{`{"a":"unterminated}`, ``, false},
		{`{a:1}`, ``, false},
		{`[1,2]`, ``, false},
		{``, ``, false},
		{`{"a":1`, `a=1|`, false},
	}
	for _, tt := range tests {
		var got strings.Builder
		ok := ScanMembers([]byte(tt.in), func(k, v []byte) bool {
			got.WriteString(string(k) + "=" + string(v) + "|")
			return true
		})
		if ok != tt.ok || got.String() != tt.want {
			t.Errorf("ScanMembers(%s) = %v %q, want %v %q", tt.in, ok, got.String(), tt.ok, tt.want)
		}
	}
	// fn stops the walk: the object is still reported as walkable.
	n := 0
	if !ScanMembers([]byte(`{"a":1,"b":2,"c":3}`), func(k, v []byte) bool { n++; return string(k) != "b" }) || n != 2 {
		t.Errorf("stopping at b: ok false or %d members seen, want 2", n)
	}
}

func TestStringText(t *testing.T) {
	for in, want := range map[string]string{`"plain"`: "plain", `"a\"b\u00e9"`: `a"bé`, `12`: "", `"`: "", `""`: ""} {
		if got := StringText([]byte(in)); got != want {
			t.Errorf("StringText(%s) = %q, want %q", in, got, want)
		}
	}
}
