package recordings

import (
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/secret"
)

// Mask replaces every secret in a recording.
const Mask = secret.Mask

// redactor masks what a recording or a tap writes: the given secrets anywhere, secret
// headers and secret shapes (session/secret does the masking).
type redactor struct{ m *secret.Masker }

func newRedactor(secrets []string, off bool) *redactor {
	return &redactor{secret.New(secrets, off)}
}

// String masks the secrets in s.
func (r *redactor) String(s string) string { return r.m.String(s) }

// event masks the secrets in an event's JSON form, in place.
func (r *redactor) event(j *session.EventJSON) { j.Mask(r.m) }

// Redactor masks secrets in events exactly as a recording does (the given secrets anywhere,
// secret headers, and secret shapes), for other outputs of events such as --trace.
type Redactor struct{ r *redactor }

// NewRedactor masks per o (o.NoRedact turns masking off).
func NewRedactor(o Options) *Redactor { return &Redactor{newRedactor(o.Secrets, o.NoRedact)} }

// Event masks the secrets in an event's JSON form, in place.
func (x *Redactor) Event(j *session.EventJSON) { x.r.event(j) }

// Masker is the masking itself, for texts that are not events.
func (x *Redactor) Masker() *secret.Masker { return x.r.m }
