package cli

import (
	"net/http"
	"strings"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/auth"
	"github.com/mcpscope/mcpscope/session/secret"
)

// createRecording starts the --record file for a session on sp.
func (f *ServerFlags) createRecording(sp session.ServerSpec) (*recordings.Writer, error) {
	h, o := f.recordingSetup(sp)
	w, err := recordings.Create(f.Record, h, o)
	if err != nil {
		return nil, usageError{err}
	}
	return w, nil
}

// recordingSetup is the header and the masking of a recording of a session on sp.
func (f *ServerFlags) recordingSetup(sp session.ServerSpec) (recordings.Header, recordings.Options) {
	tr := sp.Transport
	switch {
	case tr != "":
	case len(sp.Command) > 0:
		tr = "stdio"
	default:
		tr = "auto"
	}
	h := recordings.Header{Server: sp.Describe(), Name: sp.Name, Transport: tr, Protocol: f.Protocol}
	return h, recordings.Options{NoRedact: f.NoRedact, Secrets: specSecrets(sp)}
}

// specSecrets are the values no output may contain: the bearer token, -e values, the
// values of every -H header whose name looks secret, and the URL's password and secret
// query parameters.
func specSecrets(sp session.ServerSpec) []string {
	var out []string
	if sp.Bearer != "" {
		out = append(out, sp.Bearer)
	}
	for _, kv := range sp.Env {
		if _, v, ok := strings.Cut(kv, "="); ok {
			out = append(out, v)
		}
	}
	for name, vs := range sp.Headers {
		for _, v := range vs {
			if secret.IsSecretHeader(name) {
				out = append(out, v, strings.TrimSpace(strings.TrimPrefix(v, "Bearer ")))
			}
		}
	}
	if sp.Auth != nil && sp.Auth.ClientSecret != "" {
		out = append(out, sp.Auth.ClientSecret)
	}
	if sp.Auth != nil {
		if g, ok := sp.Auth.Grant.(*auth.ExtGrant); ok {
			out = append(out, g.Secrets()...)
		}
	}
	return append(out, secret.URLValues(sp.URL)...)
}

// screenMasker masks what mcpscope prints for a person (the final error line, the
// interactive view's screen, title and --debug log): the secrets the flags name and
// secret shapes, whatever --no-redact says (that flag is about files).
func (f *ServerFlags) screenMasker(command []string) *secret.Masker {
	sp, err := f.spec(command)
	if err != nil { // a bad command line: still mask what it gave
		sp = session.ServerSpec{URL: f.URL, Bearer: f.Bearer, Env: f.Env, Headers: http.Header{}}
		for _, h := range f.Header {
			if name, v, err := session.ParseHeader(h); err == nil {
				sp.Headers.Add(name, v)
			}
		}
	}
	return secret.New(specSecrets(sp), false)
}
