package recordings

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
)

// Mask replaces every secret in a recording.
const Mask = "****"

// minSecretLen is the shortest secret value searched for: shorter values (and numbers and
// JSON literals) occur in ordinary traffic, and masking them would mangle it.
const minSecretLen = 6

// pattern is a kind of secret recognised by its shape.
type pattern struct {
	hint string // a literal every match contains, checked before the regular expression
	re   *regexp.Regexp
	repl string
}

// patterns are the secret shapes masked in every recording (unless NoRedact).
var patterns = []pattern{
	{"Bearer ", regexp.MustCompile(`Bearer [A-Za-z0-9._~+/-]+=*`), "Bearer " + Mask},
	{"sk-", regexp.MustCompile(`sk-[A-Za-z0-9_-]{16,}`), Mask},
	{"_", regexp.MustCompile(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}`), Mask},
	{"xox", regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`), Mask},
	{"AKIA", regexp.MustCompile(`\bAKIA[0-9A-Z]{16}\b`), Mask},
	{"=", regexp.MustCompile(`(?i)\b((?:password|passwd|pwd|secret|client_secret|token|access_token|refresh_token|api_key|apikey)=)[^&\s"'\\]+`), "${1}" + Mask},
	{"@", regexp.MustCompile(`(://[^:/@\s"'\\]+:)[^@/\s"'\\]+@`), "${1}" + Mask + "@"},
}

// redactor masks secrets: the values it was given, anywhere, and the shapes in patterns.
type redactor struct {
	off     bool
	secrets []string // plain values
	escaped []string // their JSON-escaped forms, where different (they appear so inside frames)
}

func newRedactor(secrets []string, off bool) *redactor {
	r := &redactor{off: off}
	seen := map[string]bool{}
	for _, s := range secrets {
		if !worthMasking(s) || seen[s] {
			continue
		}
		seen[s] = true
		r.secrets = append(r.secrets, s)
		q, _ := json.Marshal(s)
		if e := string(q[1 : len(q)-1]); e != s {
			r.escaped = append(r.escaped, e)
		}
	}
	return r
}

// worthMasking reports whether a secret value is long and distinctive enough to search for.
func worthMasking(s string) bool {
	if len(s) < minSecretLen {
		return false
	}
	var v any
	if json.Unmarshal([]byte(s), &v) == nil {
		switch v.(type) {
		case float64, bool, nil:
			return false // a number or a JSON literal
		}
	}
	return true
}

// String masks the secrets in s.
func (r *redactor) String(s string) string {
	if r.off || s == "" {
		return s
	}
	for _, sec := range r.secrets {
		if strings.Contains(s, sec) {
			s = strings.ReplaceAll(s, sec, Mask)
		}
	}
	for _, sec := range r.escaped {
		if strings.Contains(s, sec) {
			s = strings.ReplaceAll(s, sec, Mask)
		}
	}
	for _, p := range patterns {
		if strings.Contains(s, p.hint) {
			s = p.re.ReplaceAllString(s, p.repl)
		}
	}
	return s
}

// bytes masks the secrets in b, which need not be UTF-8.
func (r *redactor) bytes(b []byte) []byte {
	if r.off || len(b) == 0 {
		return b
	}
	for _, list := range [][]string{r.secrets, r.escaped} {
		for _, sec := range list {
			if bytes.Contains(b, []byte(sec)) {
				b = bytes.ReplaceAll(b, []byte(sec), []byte(Mask))
			}
		}
	}
	for _, p := range patterns {
		if bytes.Contains(b, []byte(p.hint)) {
			b = p.re.ReplaceAll(b, []byte(p.repl))
		}
	}
	return b
}

// headers masks secret headers (again: the transport already did) and secret values.
func (r *redactor) headers(h http.Header) http.Header {
	if r.off || h == nil {
		return h
	}
	h = transport.MaskHeaders(h)
	for name, vs := range h {
		for i, v := range vs {
			vs[i] = r.String(v)
		}
		h[name] = vs
	}
	return h
}

// event masks the secrets in an event's JSON form, in place.
func (r *redactor) event(j *session.EventJSON) {
	if r.off {
		return
	}
	j.Text, j.Note = r.String(j.Text), r.String(j.Note)
	if j.Raw != nil {
		if s := r.String(*j.Raw); s != *j.Raw {
			masked := s // a copy, so that only a masked frame costs an allocation
			j.Raw = &masked
		}
	} else if j.RawBase64 != "" {
		if b, err := base64.StdEncoding.DecodeString(j.RawBase64); err == nil {
			b = r.bytes(b)
			if utf8.Valid(b) { // cannot happen for invalid input, but keep the form honest
				s := string(b)
				j.Raw, j.RawBase64 = &s, ""
			} else {
				j.RawBase64 = base64.StdEncoding.EncodeToString(b)
			}
		}
	}
	for i := range j.Findings {
		j.Findings[i].Message = r.String(j.Findings[i].Message)
	}
	if p := j.Progress; p != nil && p.Message != "" {
		c := *p
		c.Message = r.String(c.Message)
		j.Progress = &c
	}
	if h := j.HTTP; h != nil {
		c := *h
		c.URL, c.Err = r.String(c.URL), r.String(c.Err)
		c.ReqHeaders, c.RespHeaders = r.headers(c.ReqHeaders), r.headers(c.RespHeaders)
		j.HTTP = &c
	}
	if x := j.Exit; x != nil {
		c := *x
		c.Err = r.String(c.Err)
		if len(c.LastStderr) > 0 {
			c.LastStderr = make([]string, len(x.LastStderr))
			for i, l := range x.LastStderr {
				c.LastStderr[i] = r.String(l)
			}
		}
		j.Exit = &c
	}
}

// Redactor masks secrets in events exactly as a recording does (the given secrets anywhere,
// secret headers, and the shapes in patterns), for other outputs of events such as --trace.
type Redactor struct{ r *redactor }

// NewRedactor masks per o (o.NoRedact turns masking off).
func NewRedactor(o Options) *Redactor { return &Redactor{newRedactor(o.Secrets, o.NoRedact)} }

// Event masks the secrets in an event's JSON form, in place.
func (x *Redactor) Event(j *session.EventJSON) { x.r.event(j) }
