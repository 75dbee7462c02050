package auth

import (
	"context"
	"errors"
	"slices"
	"strconv"
)

// Error is an authorization failure; the CLI exits with its own code for it.
type Error struct {
	Err error
	// Step is the step the authorization ended at; "" when the failure is not one of the
	// flow's own steps (the MCP server refusing the tokens it was given).
	Step Step
}

func (e *Error) Error() string { return "authorization failed: " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Outcome is the failure as it is reported first: the step it ended at, then what
// happened ("[authorize] the authorization server answered access_denied ..."), without
// the request that needed the authorization.
func (e *Error) Outcome() string {
	if e.Step == "" {
		return e.Error()
	}
	return "[" + string(e.Step) + "] " + e.Err.Error()
}

// Outcome finds the authorization failure in err and says it as Error.Outcome does.
func Outcome(err error) (string, bool) {
	var ae *Error
	if errors.As(err, &ae) {
		return ae.Outcome(), true
	}
	return "", false
}

// stoppedError is the failure of an earlier authorization, given again to a request that
// would have started another: one command, one login attempt.
type stoppedError struct{ err error }

func (s stoppedError) Error() string {
	return s.err.Error() + " (not authorizing again in this session: log in again from the Auth page (l) or with mcpscope auth login)"
}
func (s stoppedError) Unwrap() error { return s.err }

// stops reports whether an authorization that failed with err ends the flow's attempts
// until Login: any outcome of the user or the servers does; a session closing, a wait cut
// short, or --auth finding no metadata (authorized when the server asks) does not.
func stops(err error) bool {
	return !errors.Is(err, ErrClosed) && !errors.Is(err, ErrNoMetadata) && !errors.Is(err, context.Canceled)
}

// quoteCode shows an OAuth error code as it is when it is one (letters, digits, _ . -),
// quoted otherwise, so that a hostile server's text cannot pass for mcpscope's.
func quoteCode(code string) string {
	if code == "" {
		return strconv.Quote(code)
	}
	for _, c := range code {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return strconv.Quote(code)
		}
	}
	return code
}

// NotGranted lists the scopes of requested that granted lacks; offline_access only when no
// refresh token came either (servers grant it without echoing it).
func NotGranted(requested, granted []string, refresh bool) []string {
	var out []string
	for _, s := range requested {
		if !slices.Contains(granted, s) && (s != "offline_access" || !refresh) {
			out = append(out, s)
		}
	}
	return out
}
