package cli

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/auth"
	"github.com/mcpscope/mcpscope/session/transport"
)

// Exit codes, documented in README.
const (
	ExitOK        = 0 // success
	ExitRPCError  = 1 // the server answered with a JSON-RPC error
	ExitUsage     = 2 // bad command line
	ExitConnect   = 3 // could not connect, handshake failed, or the server went away
	ExitToolError = 4 // tools/call returned a result with isError: true
	ExitTimeout   = 5 // a request timed out
	ExitFailure   = 6 // anything else (malformed response, I/O error)
	ExitAuth      = 7 // authorization (OAuth) failed or was needed and not allowed
	// ExitFindings (8, check) is declared with the check command.
	ExitNotCompared = 9 // diff, check --pin: the definitions could not be read whole
)

// ExitCodes lists the exit codes with their meaning, for help and README.
var ExitCodes = []struct {
	Code    int
	Meaning string
}{
	{ExitOK, "success"},
	{ExitRPCError, "the server answered with a JSON-RPC error (diff, check --pin: the definitions differ)"},
	{ExitUsage, "usage error (bad flags or arguments)"},
	{ExitConnect, "connection or handshake failure, or the server exited"},
	{ExitToolError, "tools/call returned a tool error (isError: true)"},
	{ExitTimeout, "a request timed out"},
	{ExitFailure, "any other failure (malformed response, I/O error)"},
	{ExitAuth, "authorization (OAuth) failed, or was needed and --no-auth-prompt forbade it"},
	{ExitFindings, "check: a finding at or above --fail-on (default error)"},
	{ExitNotCompared, "diff, check --pin: could not compare (a side's definitions could not be read whole)"},
}

// usageError marks an error in what the user typed.
type usageError struct{ error }

func exitCode(err error) int {
	var rpc *session.RPCError
	var conn *session.ConnectError
	var usage usageError
	var authErr *auth.Error
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &usage):
		return ExitUsage
	case errors.As(err, &authErr):
		return ExitAuth
	case errors.As(err, &conn):
		if errors.Is(err, session.ErrTimeout) {
			return ExitTimeout
		}
		return ExitConnect
	case errors.As(err, &rpc):
		return ExitRPCError
	case errors.Is(err, errToolError):
		return ExitToolError
	case errors.Is(err, session.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return ExitTimeout
	case errors.Is(err, session.ErrServerExited), errors.Is(err, session.ErrClosed), errors.Is(err, session.ErrStdoutClosed):
		return ExitConnect
	}
	return ExitFailure
}

var errToolError = errors.New("the tool reported an error (isError: true)")

// errorText is err as the command's last word. An authorization failure comes first,
// with its step ("[authorize] the authorization server answered access_denied ..."),
// then, on a line of its own, the request that needed it and the status it had, without
// the server's 401 text around it.
func errorText(err error) string {
	outcome, ok := auth.Outcome(err)
	if !ok {
		return err.Error()
	}
	var hs *transport.HTTPStatusError
	if !errors.As(err, &hs) {
		return outcome
	}
	what, _, found := strings.Cut(err.Error(), ": "+hs.Error())
	if !found || what == "" {
		what = "the request"
	}
	return outcome + "\n  (" + what + ": HTTP " + strconv.Itoa(hs.Status) + " " + http.StatusText(hs.Status) + ")"
}
