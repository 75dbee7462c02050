package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestWriteIndentedAgreesWithIndent: for every valid document, the streamed layout is
// byte-identical to json.Indent's; for an invalid one nothing is written.
func TestWriteIndentedAgreesWithIndent(t *testing.T) {
	docs := []string{
		`{}`, `[]`, `[ ]`, `{ }`, `0`, `"x"`, ` {"a" : [ 1 , 2 ,{}, [] ,{"b":null}] , "c":"q\"\\\u0041"}  `,
		`[[[[]]]]`, `{"":{"":""}}`, "\t[true,false,null,-1.5e+3]\n", `"\u2028 \ud83d\ude00"`,
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		docs = append(docs, randomJSON(rng, 0))
	}
	for _, d := range docs {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(d), "", "  "); err != nil {
			t.Fatalf("json.Indent(%q): %v", d, err)
		}
		var got bytes.Buffer
		if err := WriteIndented(&got, []byte(d), "  ", nil); err != nil {
			t.Fatalf("WriteIndented(%q): %v", d, err)
		}
		if got.String() != want.String() {
			t.Fatalf("WriteIndented(%q) =\n%s\nwant\n%s", d, got.String(), want.String())
		}
	}
	for _, bad := range []string{``, `{`, `[1,]`, `{"a"}`, `"x`, `1 2`, `{"a":1}x`, "\"\x01\""} {
		var got bytes.Buffer
		if err := WriteIndented(&got, []byte(bad), "  ", nil); err == nil || got.Len() > 0 {
			t.Errorf("WriteIndented(%q) = %v, wrote %q; want an error and nothing written", bad, err, got.String())
		}
	}
	deep := strings.Repeat("[", MaxNesting+1) + strings.Repeat("]", MaxNesting+1)
	var got bytes.Buffer
	if err := WriteIndented(&got, []byte(deep), "  ", nil); !errors.Is(err, ErrTooDeep) || got.Len() > 0 {
		t.Errorf("JSON nested %d levels: %v, wrote %d bytes; want ErrTooDeep and nothing", MaxNesting+1, err, got.Len())
	}
}

// randomJSON returns a random JSON document with random insignificant space.
func randomJSON(rng *rand.Rand, depth int) string {
	sp := func() string { return []string{"", "", " ", "\n\t", "\r\n  "}[rng.IntN(5)] }
	k := rng.IntN(8)
	if depth > 4 {
		k = rng.IntN(4)
	}
	switch k {
	case 0:
		return []string{"true", "false", "null"}[rng.IntN(3)]
	case 1:
		return []string{"0", "-12", "3.25", "1e9", "-0.5E-2"}[rng.IntN(5)]
	case 2, 3:
		return []string{`""`, `"abc"`, `"a\"b"`, `"\\"`, `"é\t\n"`, `"[{,:}]"`, `"\ud800"`}[rng.IntN(7)]
	case 4, 5:
		var b strings.Builder
		b.WriteString("[" + sp())
		for i := range rng.IntN(4) {
			if i > 0 {
				b.WriteString(sp() + "," + sp())
			}
			b.WriteString(randomJSON(rng, depth+1))
		}
		b.WriteString(sp() + "]")
		return b.String()
	default:
		var b strings.Builder
		b.WriteString("{" + sp())
		for i := range rng.IntN(4) {
			if i > 0 {
				b.WriteString(sp() + "," + sp())
			}
			b.WriteString(`"k` + string(rune('a'+i)) + `"` + sp() + ":" + sp() + randomJSON(rng, depth+1))
		}
		b.WriteString(sp() + "}")
		return b.String()
	}
}
