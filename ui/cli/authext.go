package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/auth"
)

// GrantFlags choose an authorization that needs no browser (the extension grants) and DPoP.
// The client is --client-id and --client-secret, as for the authorization code flow.
type GrantFlags struct {
	Grant            string `help:"Obtain the token without a browser: client-credentials (with --client-secret or --private-key), jwt-bearer (a workload identity JWT, --assertion) or enterprise (an ID token exchanged at your identity provider, --id-token and --idp-token-endpoint). Default: the authorization code flow." enum:"client-credentials,jwt-bearer,enterprise," default:"" placeholder:"GRANT" group:"Authorization"`
	PrivateKey       string `name:"private-key" help:"Authenticate the client with a JWT signed by this PEM private key (private_key_jwt) instead of a client secret; - reads it from stdin." placeholder:"FILE" group:"Authorization"`
	SigningAlgorithm string `name:"signing-algorithm" help:"JWS algorithm for --private-key (ES256, ES384, ES512, RS256, PS256, EdDSA ...); default: the key's usual one." placeholder:"ALG" group:"Authorization"`
	Assertion        string `help:"The workload identity JWT for --grant jwt-bearer, from a file (as a platform mounts it) or - for stdin." placeholder:"FILE" group:"Authorization"`
	IDToken          string `name:"id-token" help:"Your ID token from the identity provider for --grant enterprise, from a file or - for stdin." placeholder:"FILE" group:"Authorization"`
	IDPTokenEndpoint string `name:"idp-token-endpoint" help:"The identity provider's token endpoint, where --grant enterprise exchanges the ID token for an ID-JAG (RFC 8693)." placeholder:"URL" group:"Authorization"`
	IDPClientID      string `name:"idp-client-id" help:"mcpscope's client id at the identity provider (--grant enterprise)." placeholder:"ID" group:"Authorization"`
	IDPClientSecret  string `name:"idp-client-secret" help:"The client secret at the identity provider, if it has one (--grant enterprise)." env:"MCPSCOPE_IDP_CLIENT_SECRET" placeholder:"SECRET" group:"Authorization"`
	DPoP             string `name:"dpop" help:"Bind tokens to a key with DPoP (RFC 9449): auto (when the authorization server supports it), on, or off." enum:"auto,on,off" default:"auto" group:"Authorization"`

	built *builtGrant // the grant, built once (stdin is read once)
}

// builtGrant is the outcome of extGrant, kept: spec is built more than once.
type builtGrant struct {
	grant   *auth.ExtGrant
	secrets []string
	err     error
}

// apply gives the spec's authorization the grant and the DPoP mode.
func (g *GrantFlags) apply(sp *session.ServerSpec) error {
	if g.built == nil {
		eg, secrets, err := g.extGrant(os.Stdin)
		g.built = &builtGrant{grant: eg, secrets: secrets, err: err}
	}
	if g.built.err != nil {
		return g.built.err
	}
	if sp.Auth == nil {
		if g.Grant != "" && sp.URL != "" {
			return usageError{errors.New("--grant cannot be combined with --bearer or -H Authorization")}
		}
		return nil
	}
	sp.Auth.DPoP = g.DPoP
	if eg := g.built.grant; eg != nil {
		if err := eg.Check(sp.Auth.ClientID, sp.Auth.ClientSecret); err != nil {
			return usageError{err}
		}
		sp.Auth.Grant = eg
	}
	return nil
}

// extGrant builds the extension grant the flags ask for (nil for the authorization code
// flow), reading the files they name; stdin is read for the one flag given "-". It also
// returns the secrets read, for masking.
func (g *GrantFlags) extGrant(stdin io.Reader) (*auth.ExtGrant, []string, error) {
	files := []struct {
		flag string
		path string
		into *string
	}{{"--private-key", g.PrivateKey, new(string)}, {"--assertion", g.Assertion, new(string)}, {"--id-token", g.IDToken, new(string)}}
	usedStdin := ""
	for _, f := range files {
		if f.path == "-" {
			if usedStdin != "" {
				return nil, nil, usageError{fmt.Errorf("%s - and %s -: only one can read stdin", usedStdin, f.flag)}
			}
			usedStdin = f.flag
		}
	}
	var secrets []string
	for _, f := range files {
		if f.path == "" {
			continue
		}
		v, err := readCredential(f.path, stdin)
		if err != nil {
			return nil, nil, usageError{fmt.Errorf("%s: %w", f.flag, err)}
		}
		*f.into = v
		secrets = append(secrets, v)
	}
	keyPEM, assertion, idToken := *files[0].into, *files[1].into, *files[2].into
	if g.IDPClientSecret != "" {
		secrets = append(secrets, g.IDPClientSecret)
	}
	if g.Grant == "" {
		switch {
		case assertion != "" || idToken != "" || g.IDPTokenEndpoint != "":
			return nil, secrets, usageError{errors.New("--assertion, --id-token and --idp-token-endpoint need --grant jwt-bearer or enterprise")}
		case keyPEM != "":
			return nil, secrets, usageError{errors.New("--private-key needs --grant (private_key_jwt with the authorization code flow is not supported)")}
		}
		return nil, secrets, nil
	}
	eg := &auth.ExtGrant{Name: g.Grant, Assertion: assertion, IDToken: idToken, IDPTokenEndpoint: g.IDPTokenEndpoint,
		IDPClientID: g.IDPClientID, IDPClientSecret: g.IDPClientSecret}
	if keyPEM != "" {
		k, err := auth.ParsePrivateKeyPEM([]byte(keyPEM), g.SigningAlgorithm)
		if err != nil {
			return nil, secrets, usageError{fmt.Errorf("--private-key: %w", err)}
		}
		eg.Key = k
	} else if g.SigningAlgorithm != "" {
		return nil, secrets, usageError{errors.New("--signing-algorithm needs --private-key")}
	}
	return eg, secrets, nil
}

// readCredential reads a token or key from a file, or from stdin for "-", trimmed.
func readCredential(path string, stdin io.Reader) (string, error) {
	var data []byte
	var err error
	if path == "-" {
		if stdin == nil {
			return "", errors.New("no stdin to read")
		}
		data, err = io.ReadAll(io.LimitReader(stdin, 1<<20))
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return "", err
	}
	v := strings.TrimSpace(string(data))
	if v == "" {
		return "", errors.New("empty")
	}
	return v, nil
}
