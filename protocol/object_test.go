package protocol

import "testing"

func TestObjectMembers(t *testing.T) {
	ms, ok := ObjectMembers([]byte(` {"b": [1, 2] ,"a\u00e9":{"x":"y"}, "c":null} `))
	if !ok || len(ms) != 3 || ms[0].Key != "b" || string(ms[0].Value) != "[1, 2]" || ms[1].Key != "aé" || string(ms[1].Value) != `{"x":"y"}` {
		t.Fatalf("got %+v, %v", ms, ok)
	}
	if got := string(EncodeObject(ms)); got != `{"b":[1, 2],"aé":{"x":"y"},"c":null}` {
		t.Errorf("EncodeObject: %s", got)
	}
	for _, bad := range []string{``, `[]`, `{"a":}`, `{"a":1} {}`, `{"a":1`, `"s"`} {
		if _, ok := ObjectMembers([]byte(bad)); ok {
			t.Errorf("%q accepted", bad)
		}
	}
	if ms, ok := ObjectMembers([]byte(`{}`)); !ok || len(ms) != 0 {
		t.Errorf("empty object: %v %v", ms, ok)
	}
}

func TestOrderedObject(t *testing.T) {
	keys, obj, err := OrderedObject([]byte(`{"z":1,"a":2,"z":3}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0] != "z" || keys[1] != "a" {
		t.Errorf("keys = %q, want [z a]: first place kept", keys)
	}
	if string(obj["z"]) != "3" || string(obj["a"]) != "2" {
		t.Errorf("obj = %s, want z=3 (last value) a=2", obj)
	}
	for _, bad := range []string{`[1]`, `{"a":1} x`, ``, `"s"`} {
		if _, _, err := OrderedObject([]byte(bad)); err == nil {
			t.Errorf("OrderedObject(%q): no error", bad)
		}
	}
}
