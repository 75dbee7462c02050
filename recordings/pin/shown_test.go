package pin

import (
	"strings"
	"testing"
)

// TestShownCompacts: a value's layout is not shown as escaped newlines.
func TestShownCompacts(t *testing.T) {
	got := Shown([]byte("{\n  \"annotations\": {\n    \"readOnlyHint\": true\n  }\n}"), 200)
	if got != `{"annotations":{"readOnlyHint":true}}` {
		t.Errorf("Shown = %q", got)
	}
	if got := Shown([]byte("\"a\u202eb\""), 200); !strings.Contains(got, `\u202e`) {
		t.Errorf("an invisible character in a string is not escaped: %q", got)
	}
}
