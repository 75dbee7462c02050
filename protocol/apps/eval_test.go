package apps

import (
	"strings"
	"testing"
)

// TestEvalUses: a call of eval and Function, with new or without, is found; a member or a
// longer name is not; the examples are bounded.
func TestEvalUses(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want []string
		more bool
	}{
		{`x=eval("1+1")`, []string{`eval("1+1")…`}, false},
		{`const f = new Function("a", "return a");`, []string{`new Function("a", "return a");…`}, false},
		{`var g=Function("return this")()`, []string{`Function("return this")()…`}, false},
		{`obj.eval(x); medieval(y); myFunction(z); function(a){}`, nil, false},
		{strings.Repeat(";eval(1)", 5), []string{"eval(1);eval(1);eval(1);eval(…", "eval(1);eval(1);eval(1);eval(…", "eval(1);eval(1);eval(1)…"}, true},
	} {
		got, more := EvalUses([]byte(c.doc))
		if strings.Join(got, "|") != strings.Join(c.want, "|") || more != c.more {
			t.Errorf("%q: %q more=%v, want %q more=%v", c.doc, got, more, c.want, c.more)
		}
	}
}
