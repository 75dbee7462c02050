package demo

import (
	"io"
	"net/http"
	"strings"
	"testing"

	cardspec "github.com/mcpscope/mcpscope/protocol/card"
)

// get fetches u and returns the answer with its body read.
func get(t *testing.T, u string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func TestDemoServesAValidCard(t *testing.T) {
	srv, _ := newHTTPServer(t)
	resp, body := get(t, srv.URL+CardPath, map[string]string{"Accept": cardspec.MediaType})
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != cardspec.MediaType || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("%d %v", resp.StatusCode, resp.Header)
	}
	problems, err := cardspec.Validate(body)
	if err != nil || len(problems) > 0 {
		t.Fatalf("the demo's card fails the schema: %v %v\n%s", problems, err, body)
	}
	c, _ := cardspec.Decode(body)
	if c.Name != CardNamespace+"/"+DefaultName || c.Version != DefaultVersion || len(c.Remotes) != 1 ||
		c.Remotes[0].URL != srv.URL+"/mcp" || c.Remotes[0].Type != cardspec.TypeStreamable || len(c.Remotes[0].Versions) != 5 {
		t.Errorf("card %+v", c)
	}
	// Revalidation with the ETag.
	again, _ := get(t, srv.URL+CardPath, map[string]string{"If-None-Match": resp.Header.Get("ETag")})
	if resp.Header.Get("ETag") == "" || again.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match %q: %d", resp.Header.Get("ETag"), again.StatusCode)
	}
	cat, body := get(t, srv.URL+"/.well-known/ai-catalog.json", nil)
	entries, findings, _ := cardspec.ParseCatalog(body)
	if cat.Header.Get("Content-Type") != cardspec.CatalogMediaType || len(findings) > 0 || len(entries) != 1 ||
		entries[0].URL != srv.URL+CardPath || !strings.HasPrefix(entries[0].Identifier, "urn:air:127.0.0.1:mcp:") {
		t.Errorf("catalog %s: %v %+v", body, findings, entries)
	}
}

func TestDemoCardIsPublicUnderAuthorization(t *testing.T) {
	f := newAuthFixture(t, AuthOptions{})
	resp, body := get(t, f.base+CardPath, nil)
	if resp.StatusCode != 200 {
		t.Fatalf("the card under --auth: %d", resp.StatusCode)
	}
	c, _ := cardspec.Decode(body)
	if len(c.Remotes) != 1 || len(c.Remotes[0].Headers) != 1 || c.Remotes[0].Headers[0].Name != "Authorization" || !c.Remotes[0].Headers[0].Required {
		t.Errorf("the card under --auth names no required Authorization header: %s", body)
	}
	if p, _ := cardspec.Validate(body); len(p) > 0 {
		t.Errorf("problems %v", p)
	}
}
