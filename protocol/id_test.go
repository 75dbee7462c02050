package protocol

import (
	"encoding/json"
	"testing"
)

func TestIDKindKeyString(t *testing.T) {
	tests := []struct {
		raw  string
		kind IDKind
		key  string
	}{
		{``, IDAbsent, ""},
		{`1`, IDInteger, "n:1"},
		{`-0`, IDInteger, "n:0"},
		{`0`, IDInteger, "n:0"},
		{`123456789012345678901234567890`, IDInteger, "n:123456789012345678901234567890"},
		{`1.0`, IDFractional, "f:1.0"},
		{`1e3`, IDFractional, "f:1e3"},
		{`"1"`, IDString, "s:1"},
		{`"\u0031"`, IDString, "s:1"},
		{`""`, IDString, "s:"},
		{`null`, IDNull, "null"},
		{`true`, IDOther, "x:true"},
		{`{"a":1}`, IDOther, `x:{"a":1}`},
		{`[1]`, IDOther, "x:[1]"},
	}
	for _, tt := range tests {
		id := ID{Raw: json.RawMessage(tt.raw)}
		if id.Kind() != tt.kind {
			t.Errorf("%s: kind %v, want %v", tt.raw, id.Kind(), tt.kind)
		}
		if id.Key() != tt.key {
			t.Errorf("%s: key %q, want %q", tt.raw, id.Key(), tt.key)
		}
		if id.String() != tt.raw {
			t.Errorf("%s: String %q", tt.raw, id.String())
		}
		if id.IsZero() != (tt.raw == "") {
			t.Errorf("%s: IsZero %v", tt.raw, id.IsZero())
		}
	}
	if IntID(1).Key() == StringID("1").Key() {
		t.Error(`1 and "1" must not match`)
	}
	if IntID(1).Key() == (ID{Raw: json.RawMessage("1.0")}).Key() {
		t.Error("1 and 1.0 are kept distinct")
	}
}

func TestIntStringID(t *testing.T) {
	if got := IntID(-42).String(); got != "-42" {
		t.Errorf("IntID = %s", got)
	}
	if n, ok := IntID(9007199254740993).Int(); !ok || n != 9007199254740993 {
		t.Errorf("Int = %d %v", n, ok)
	}
	if _, ok := StringID("7").Int(); ok {
		t.Error("string id is not an integer")
	}
	if _, ok := (ID{Raw: json.RawMessage("99999999999999999999")}).Int(); ok {
		t.Error("overflow must not convert")
	}
	s := StringID("a\"b<>")
	if s.Kind() != IDString || s.Key() != "s:a\"b<>" {
		t.Errorf("StringID = %s key %s", s, s.Key())
	}
	if StringID("").IsZero() {
		t.Error(`"" is a present id`)
	}
	if (ID{}).Kind().String() != "absent" || IDOther.String() == "" {
		t.Error("IDKind names")
	}
}
