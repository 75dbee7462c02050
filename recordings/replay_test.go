package recordings

import (
	"fmt"
	"testing"

	"github.com/mcpscope/mcpscope/session"
)

// TestNotSentNamesItsMethod: once the session ended (seen by a tools/list), a later
// request's error names its own method and the cause, not the tools/list.
func TestNotSentNamesItsMethod(t *testing.T) {
	ended := fmt.Errorf("tools/list: %w", fmt.Errorf("%w: exit status 3", session.ErrServerExited))
	if got, want := notSent("prompts/get", ended), "prompts/get: not sent, the session had ended (server exited: exit status 3)"; got != want {
		t.Errorf("notSent = %q, want %q", got, want)
	}
	if got, want := rowError("prompts/get", session.ErrClosed), "prompts/get: session closed"; got != want {
		t.Errorf("rowError = %q, want %q", got, want)
	}
}
