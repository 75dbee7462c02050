package form

import "testing"

// Bounds show as written: a whole number in full, however large.
func TestBoundText(t *testing.T) {
	for v, want := range map[float64]string{9007199254740991: "9007199254740991", -1000: "-1000", 0.5: "0.5", 1e-7: "1e-07", 1e300: "1e+300"} {
		if got := boundText(v); got != want {
			t.Errorf("boundText(%v) = %q, want %q", v, got, want)
		}
	}
}

// A problem with a number's bound writes the bound as the schema does and the value as
// the arguments do, digit for digit.
func TestBoundProblemsAsWritten(t *testing.T) {
	s := mustParse(t, `{"properties":{"n":{"type":"integer","maximum":9007199254740991},"x":{"type":"number","minimum":-1000,"multipleOf":0.01},
		"e":{"type":"number","exclusiveMaximum":0.5}}}`)
	for args, want := range map[string]string{
		`{"n":9007199254740993}`: "/n: got 9007199254740993, want ≤ 9007199254740991",
		`{"x":-2000}`:            "/x: got -2000, want ≥ -1000",
		`{"x":1.005}`:            "/x: got 1.005, want a multiple of 0.01",
		`{"e":0.5}`:              "/e: got 0.5, want < 0.5",
	} {
		m := New(s, Options{Initial: []byte(args)})
		if ps := m.Validate(); len(ps) != 1 || ps[0].String() != want {
			t.Errorf("%s: problems %v, want %q", args, ps, want)
		}
	}
}
