package session

import "testing"

// TestExpandVars: ${NAME} and ${env:NAME} in a configuration file's server entry are the
// environment's values; anything else is left as written.
func TestExpandVars(t *testing.T) {
	t.Setenv("MCPSCOPE_TEST_VAR", "v")
	for in, want := range map[string]string{
		"a ${MCPSCOPE_TEST_VAR} b":     "a v b",
		"${env:MCPSCOPE_TEST_VAR}/x":   "v/x",
		"${MCPSCOPE_TEST_UNSET_VAR}":   "",
		"$MCPSCOPE_TEST_VAR ${1X} ${}": "$MCPSCOPE_TEST_VAR ${1X} ${}",
	} {
		if got := expandVars(in); got != want {
			t.Errorf("expandVars(%q) = %q, want %q", in, got, want)
		}
	}
}
