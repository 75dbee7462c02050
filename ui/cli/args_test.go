package cli

import "testing"

// What is typed is what is sent: numbers digit for digit, --args' member order kept, a
// dotted key filling the nested member the schema describes.
func TestBuildArgsExact(t *testing.T) {
	schema := []byte(`{"type":"object","additionalProperties":false,"properties":{
		"n":{"type":"integer"},"x":{"type":"number"},"s":{"type":"string"},"b":{"type":"boolean"},
		"shipping":{"type":"object","properties":{"method":{"type":"string"},"weight":{"type":"number"}}},
		"a.b":{"type":"string"}}}`)
	for _, c := range []struct {
		args  string
		words []string
		want  string
	}{
		{`{"z":1,"n":9007199254740993,"a":2}`, nil, `{"z":1,"n":9007199254740993,"a":2}`},
		{``, []string{"n=9007199254740993", "x=1.10", "s=007", "b=true"}, `{"n":9007199254740993,"x":1.10,"s":"007","b":true}`},
		{`{"z":1,"n":1}`, []string{"n=2"}, `{"z":1,"n":2}`},
		{``, []string{"shipping.method=pickup", "shipping.weight=2.5"}, `{"shipping":{"method":"pickup","weight":2.5}}`},
		{`{"shipping":{"method":"post","to":"DE"}}`, []string{"shipping.method=pickup"}, `{"shipping":{"method":"pickup","to":"DE"}}`},
		{``, []string{"a.b=kept"}, `{"a.b":"kept"}`},
		{``, []string{`s=<a & b>`}, `{"s":"<a & b>"}`},
		{``, []string{`free=hello world`, `j:=[1, 2]`}, `{"free":"hello world","j":[1, 2]}`},
	} {
		got, err := buildArgs(c.args, c.words, schema)
		if err != nil || string(got) != c.want {
			t.Errorf("buildArgs(%q, %q) = %s, %v; want %s", c.args, c.words, got, err, c.want)
		}
	}
	for _, bad := range [][]string{{"n=1.5"}, {"x=1e"}, {"b=yes"}} {
		if _, err := buildArgs("", bad, schema); err == nil {
			t.Errorf("buildArgs(%q) took a value its type refuses", bad)
		}
	}
	if _, err := buildArgs(`[1]`, nil, schema); err == nil {
		t.Error("--args [1] was taken as an object")
	}
}
