package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxGuardedBody bounds the body of a request to a protected resource, which
// the guard reads whole to see which tools it calls.
const maxGuardedBody = 16 << 20

// demoUser is the one resource owner of the demo: every token acts for it.
const demoUser = "demo-user"

type tokenInfoKey struct{}

// protect lets a request through to next only with a bearer token issued for
// resource and carrying ScopeDemo, and, for a call of AdminTool, ScopeAdmin.
// Otherwise it answers 401 (no token, or an invalid one) or 403
// insufficient_scope, with a WWW-Authenticate challenge naming the resource
// metadata and the scope needed (RFC 6750 §3, RFC 9728 §5.1).
func (as *authServer) protect(resource string, next http.Handler) http.Handler {
	metadata := as.issuer + "/.well-known/oauth-protected-resource" + strings.TrimPrefix(resource, as.issuer)
	// The SDK's middleware puts the token information where tool handlers
	// find it (CallToolRequest.Extra.TokenInfo); the checks are done here.
	withInfo := auth.RequireBearerToken(func(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
		if info, ok := ctx.Value(tokenInfoKey{}).(*auth.TokenInfo); ok {
			return info, nil
		}
		return nil, auth.ErrInvalidToken
	}, nil)(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		challenge := func(status int, code, description string, scopes ...string) {
			params := []string{}
			if code != "" {
				params = append(params, "error="+quote(code), "error_description="+quote(description))
			}
			params = append(params, "resource_metadata="+quote(metadata))
			if len(scopes) == 0 {
				scopes = []string{ScopeDemo}
			}
			params = append(params, "scope="+quote(strings.Join(scopes, " ")))
			w.Header().Set("WWW-Authenticate", "Bearer "+strings.Join(params, ", "))
			msg := description
			if msg == "" {
				msg = "authorization required: sign in to get a bearer token (see WWW-Authenticate)"
			}
			http.Error(w, msg, status)
		}
		authz := r.Header.Get("Authorization")
		if authz == "" {
			challenge(http.StatusUnauthorized, "", "")
			return
		}
		scheme, token, _ := strings.Cut(authz, " ")
		token = strings.TrimSpace(token)
		if !strings.EqualFold(scheme, "Bearer") {
			challenge(http.StatusUnauthorized, "", "") // another scheme: no error code (RFC 6750 §3.1)
			return
		}
		if token == "" || strings.ContainsAny(token, " \t") {
			challenge(http.StatusBadRequest, "invalid_request", "the Authorization header has no single bearer token")
			return
		}
		g, err := as.verify(token, resource)
		if err != nil {
			challenge(http.StatusUnauthorized, "invalid_token", err.Error())
			return
		}
		if !slices.Contains(g.scopes, ScopeDemo) {
			challenge(http.StatusForbidden, "insufficient_scope", "every request needs the scope "+ScopeDemo)
			return
		}
		if r.Method == http.MethodPost {
			body, err := io.ReadAll(io.LimitReader(r.Body, maxGuardedBody+1))
			if err != nil {
				http.Error(w, "reading the request: "+err.Error(), http.StatusBadRequest)
				return
			}
			if len(body) > maxGuardedBody {
				http.Error(w, fmt.Sprintf("requests are limited to %d bytes", maxGuardedBody), http.StatusRequestEntityTooLarge)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			if callsTool(body, AdminTool) && !slices.Contains(g.scopes, ScopeAdmin) {
				as.log.printf("auth: %s called %s without the scope %s: 403 insufficient_scope", g.clientID, AdminTool, ScopeAdmin)
				challenge(http.StatusForbidden, "insufficient_scope", "the tool "+AdminTool+" needs the scope "+ScopeAdmin, ScopeDemo, ScopeAdmin)
				return
			}
		}
		info := &auth.TokenInfo{
			Scopes:     g.scopes,
			Expiration: g.expires,
			UserID:     demoUser,
			Extra:      map[string]any{"client_id": g.clientID, "resource": g.resource},
		}
		withInfo.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), tokenInfoKey{}, info)))
	})
}

// quote makes a quoted-string of an auth-param (RFC 9110 §5.6.4).
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// callsTool reports whether a JSON-RPC message or batch calls the named tool.
func callsTool(body []byte, name string) bool {
	type call struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	var msgs []json.RawMessage
	if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '[' {
		if json.Unmarshal(t, &msgs) != nil {
			return false
		}
	} else {
		msgs = []json.RawMessage{body}
	}
	for _, m := range msgs {
		var c call
		if json.Unmarshal(m, &c) == nil && c.Method == "tools/call" && c.Params.Name == name {
			return true
		}
	}
	return false
}

// addAuthTools adds the tools that show authorization at work: whoami (any
// token) and AdminTool (needs ScopeAdmin, so a first call shows step-up).
func (d *demo) addAuthTools(as *authServer) {
	d.add(d.define(toolDef{name: "whoami", title: "Who am I",
		description: "Shows the access token this request came with: client, scopes, resource and when it expires (never the token itself).",
		input:       schemaEmpty, annotations: readOnly,
		fn: func(_ context.Context, req *mcp.CallToolRequest, _ json.RawMessage) (*mcp.CallToolResult, error) {
			info := tokenInfo(req)
			if info == nil {
				return textResult("No token information reached the tool (HTTP+SSE does not pass it on)."), nil
			}
			return textResult("client %v\nscopes %s\nresource %v\nexpires in %s",
				info.Extra["client_id"], strings.Join(info.Scopes, " "), info.Extra["resource"], time.Until(info.Expiration).Round(time.Second)), nil
		}}))
	d.add(d.define(toolDef{name: AdminTool, title: "Authorization server statistics",
		description: "Counts the authorization server's clients and live codes and tokens. Needs the scope " + ScopeAdmin +
			": without it the HTTP request is refused with 403 insufficient_scope, and the client steps up.",
		input: schemaEmpty, annotations: readOnly,
		fn: func(_ context.Context, req *mcp.CallToolRequest, _ json.RawMessage) (*mcp.CallToolResult, error) {
			if info := tokenInfo(req); info != nil && !slices.Contains(info.Scopes, ScopeAdmin) {
				return nil, errors.New("the scope " + ScopeAdmin + " is needed")
			}
			now := time.Now()
			as.mu.Lock()
			defer as.mu.Unlock()
			return textResult("registered clients %d\ncached client metadata documents %d\nauthorization codes %d\naccess tokens %d\nrefresh tokens %d",
				as.clients.live(now), as.metadocs.live(now), as.codes.live(now), as.tokens.live(now), as.refresh.live(now)), nil
		}}))
}

// tokenInfo is the token information of a tool call, nil when there is none.
func tokenInfo(req *mcp.CallToolRequest) *auth.TokenInfo {
	if req == nil || req.Extra == nil {
		return nil
	}
	return req.Extra.TokenInfo
}
