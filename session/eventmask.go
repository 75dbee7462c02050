package session

import (
	"encoding/base64"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/session/secret"
)

// Mask masks the secrets in the event's JSON form in place: every text, the frame's bytes,
// findings, progress messages, the HTTP exchange's URL, headers, bodies and error, and the exit's
// error and last stderr lines. Shared parts (the raw text, progress, HTTP, exit) are
// copied before they change, so the Event the form came from stays as it was. A frame
// whose bytes changed is marked Masked, its Size still the size on the wire.
func (j *EventJSON) Mask(m *secret.Masker) {
	if m.Off() {
		return
	}
	j.Text, j.Note = m.String(j.Text), m.String(j.Note)
	if j.Raw != nil {
		if s := m.String(*j.Raw); s != *j.Raw {
			j.masked(len(*j.Raw))
			masked := s // a copy, so that only a masked frame costs an allocation
			j.Raw = &masked
		}
	} else if j.RawBase64 != "" {
		if raw, err := base64.StdEncoding.DecodeString(j.RawBase64); err == nil {
			if b := m.Bytes(raw); &b[0] != &raw[0] || len(b) != len(raw) {
				j.masked(len(raw))
				if utf8.Valid(b) { // cannot happen for invalid input, but keep the form honest
					s := string(b)
					j.Raw, j.RawBase64 = &s, ""
				} else {
					j.RawBase64 = base64.StdEncoding.EncodeToString(b)
				}
			}
		}
	}
	for i := range j.Findings { // JSON made them for this form alone
		j.Findings[i].Message = m.String(j.Findings[i].Message)
	}
	if p := j.Progress; p != nil && p.Message != "" {
		c := *p
		c.Message = m.String(c.Message)
		j.Progress = &c
	}
	if h := j.HTTP; h != nil {
		c := *h
		c.URL, c.Err = m.String(secret.URL(c.URL)), m.String(c.Err)
		c.ReqBody, c.RespBody = m.String(c.ReqBody), m.String(c.RespBody)
		c.ReqHeaders, c.RespHeaders = m.Headers(c.ReqHeaders), m.Headers(c.RespHeaders)
		if r := c.Redirect; r != nil {
			rc := *r
			rc.Location = m.String(secret.URL(rc.Location))
			c.Redirect = &rc
		}
		j.HTTP = &c
	}
	if x := j.Exit; x != nil {
		c := *x
		c.Err = m.String(c.Err)
		if len(c.LastStderr) > 0 {
			c.LastStderr = make([]string, len(x.LastStderr))
			for i, l := range x.LastStderr {
				c.LastStderr[i] = m.String(l)
			}
		}
		j.Exit = &c
	}
}

// masked marks the frame masked; kept is the length of its bytes before: the size on the
// wire stays, and whether those bytes were only the frame's head.
func (j *EventJSON) masked(kept int) {
	if j.Masked {
		return // masked again: it said so the first time
	}
	if j.Size < int64(kept) {
		j.Size = int64(kept)
	}
	j.Masked, j.Truncated = true, j.Size > int64(kept)
}
