package cli

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
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

// specSecrets are the values a recording must not contain: the bearer token, -e values,
// the values of secret-looking headers and a password in the URL.
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
			if transport.MaskHeaders(http.Header{name: {v}})[name][0] != v {
				out = append(out, v)
			}
		}
	}
	if u, err := url.Parse(sp.URL); err == nil && u.User != nil {
		if p, ok := u.User.Password(); ok {
			out = append(out, p)
		}
	}
	return out
}
