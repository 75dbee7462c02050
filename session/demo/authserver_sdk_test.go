package demo

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// sdkFetcher completes an authorization as a script would: a GET of the
// authorization URL with approve=1, then the code, state and iss of the
// redirect.
func (f *authFixture) sdkFetcher(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, args.URL+"&approve=1", nil)
	if err != nil {
		return nil, err
	}
	resp, err := f.http.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || resp.StatusCode != http.StatusFound {
		return nil, fmt.Errorf("approve: %s, Location %q", resp.Status, resp.Header.Get("Location"))
	}
	q := loc.Query()
	if q.Get("error") != "" {
		return nil, fmt.Errorf("authorization refused: %s (%s)", q.Get("error"), q.Get("error_description"))
	}
	return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
}

// TestAuthWithSDKClient runs the go-sdk's own OAuth client against the demo:
// discovery, registration (dynamic, then a metadata document), the code
// flow, step-up for the admin tool and refresh, as another implementation
// sees the server.
func TestAuthWithSDKClient(t *testing.T) {
	docHost := httptest.NewTLSServer(nil)
	t.Cleanup(docHost.Close)
	docURL := docHost.URL + "/client.json"
	docHost.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"client_id":%q,"client_name":"go-sdk via metadata document","redirect_uris":["http://127.0.0.1:1/callback"],"grant_types":["authorization_code","refresh_token"],"token_endpoint_auth_method":"none"}`, docURL)
	})
	registrations := map[string]func(*auth.AuthorizationCodeHandlerConfig){
		"dynamic registration": func(c *auth.AuthorizationCodeHandlerConfig) {
			c.DynamicClientRegistrationConfig = &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
				ClientName:              "go-sdk client",
				RedirectURIs:            []string{"http://127.0.0.1:1/callback"},
				TokenEndpointAuthMethod: "none",
				GrantTypes:              []string{"authorization_code", "refresh_token"},
			}}
		},
		sourceMetadata: func(c *auth.AuthorizationCodeHandlerConfig) {
			c.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: docURL}
			c.RedirectURL = "http://127.0.0.1:1/callback"
		},
	}
	for name, register := range registrations {
		t.Run(name, func(t *testing.T) {
			f := newAuthFixture(t, AuthOptions{TokenTTL: 2 * time.Second, MetadataClient: docHost.Client()})
			cfg := &auth.AuthorizationCodeHandlerConfig{AuthorizationCodeFetcher: f.sdkFetcher, RequestRefreshToken: true}
			register(cfg)
			h, err := auth.NewAuthorizationCodeHandler(cfg)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "sdk-auth-test", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: f.base + "/mcp", OAuthHandler: h, DisableStandaloneSSE: true}, nil)
			if err != nil {
				t.Fatalf("connect: %v\n%s", err, f.stderr)
			}
			defer cs.Close()
			var names []string
			for tool, err := range cs.Tools(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				names = append(names, tool.Name)
			}
			if !slices.Contains(names, "whoami") || !slices.Contains(names, AdminTool) {
				t.Errorf("tools: %v", names)
			}
			// The first token lacks demo:admin: 403, step-up, and the retry succeeds.
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: AdminTool})
			if err != nil || res.IsError {
				t.Fatalf("%s: %v %+v\n%s", AdminTool, err, res, f.stderr)
			}
			f.stderr.waitFor(t, "called "+AdminTool+" without the scope "+ScopeAdmin)
			f.stderr.waitFor(t, "demo: tools/call "+AdminTool) // past the guard
			// The token lasts less than the client's refresh margin, so the
			// next request refreshes it first.
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "whoami"})
			if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "demo:admin") {
				t.Fatalf("whoami: %v %+v", err, res)
			}
			f.stderr.waitFor(t, "issued a token (refresh)")
			if name == sourceMetadata {
				f.stderr.waitFor(t, "fetched client ID metadata document "+docURL)
			}
		})
	}
}
