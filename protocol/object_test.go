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
