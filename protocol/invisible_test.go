package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

// --trace and other NDJSON meant for a terminal escape what a terminal would act on or not
// show, and the line still decodes to the same value.
func TestEscapeInvisibleJSON(t *testing.T) {
	v := map[string]string{"t": "a\u009b31mb\u202eevil\u200bzw\u2066iso\ufeff\U000E0041tag é ✓"}
	enc, _ := json.Marshal(v)
	got := EscapeInvisibleJSON(enc)
	for _, bad := range []string{"\u009b", "\u202e", "\u200b", "\u2066", "\ufeff", "\U000E0041"} {
		if strings.Contains(string(got), bad) {
			t.Errorf("%q still holds %U", got, []rune(bad)[0])
		}
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil || back["t"] != v["t"] {
		t.Errorf("escaped %s decodes to %q (%v), want %q", got, back["t"], err, v["t"])
	}
	plain := []byte(`{"a":"é ✓ plain"}`)
	if out := EscapeInvisibleJSON(plain); &out[0] != &plain[0] {
		t.Error("a line with nothing to escape was copied")
	}
}
