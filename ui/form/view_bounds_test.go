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
