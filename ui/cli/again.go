package cli

import (
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/session"
)

// repeatable are the methods a headless command sends again, once, when the server ended
// the session before processing them (404 for the session id): they only read, so
// sending one twice changes nothing on the server.
var repeatable = map[string]bool{
	"tools/list": true, "resources/list": true, "resources/templates/list": true, "prompts/list": true,
	"resources/read": true, "prompts/get": true, "completion/complete": true, "ping": true,
}

// again runs send and, when it failed because the server ended the session, waits for
// the new session the session starts (the initialize the spec requires) and runs send
// once more there, saying so on stderr: when method may be repeated (repeatable, or
// retry, --retry-calls of call). Otherwise it still waits for the new session, so the
// initialize is sent before the command ends, and says how to send the request again.
func (r *runner) again(s *session.Session, method string, retry bool, send func() error) error {
	err := send()
	if !errors.Is(err, session.ErrSessionEnded) {
		return err
	}
	id, werr := s.AwaitNewSession(r.ctx)
	if werr != nil {
		return fmt.Errorf("%w; %w", err, werr)
	}
	if !repeatable[method] && !retry {
		fmt.Fprintf(r.stderr, "mcpscope: the server ended the session; new session %s is ready, but %s was not sent again (it may have effects): --retry-calls sends it again\n", id, method)
		return err
	}
	fmt.Fprintf(r.stderr, "mcpscope: the server ended the session before answering %s; sending it again in new session %s\n", method, id)
	return send()
}
