package protocol

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

func appCodes(fs []Finding) string {
	var c []string
	for _, f := range fs {
		c = append(c, f.Code)
	}
	return strings.Join(c, ",")
}

func TestCheckAppTool(t *testing.T) {
	cases := []struct{ tool, want string }{
		{`{"name":"plain"}`, ""},
		{`{"name":"ok","_meta":{"ui":{"resourceUri":"ui://a/b","visibility":["model","app"]}}}`, ""},
		{`{"name":"flat","_meta":{"ui/resourceUri":"ui://a/b"}}`, FindAppFlatKey},
		{`{"name":"http","_meta":{"ui":{"resourceUri":"https://a.example/b"}}}`, FindAppScheme},
		{`{"name":"vis","_meta":{"ui":{"resourceUri":"ui://a","visibility":["model","agent"]}}}`, FindAppVisibility},
		{`{"name":"vis2","_meta":{"ui":{"resourceUri":"ui://a","visibility":"app"}}}`, FindAppVisibility},
		{`{"name":"none","_meta":{"ui":{"resourceUri":"ui://a","visibility":[]}}}`, FindAppVisibility},
	}
	for _, c := range cases {
		if got := appCodes(CheckAppTool(json.RawMessage(c.tool))); got != c.want {
			t.Errorf("%s: got %q, want %q", c.tool, got, c.want)
		}
	}
}

func TestCheckAppRead(t *testing.T) {
	good := `<!DOCTYPE html><html><head><script src="https://cdn.example/x.js"></script></head></html>`
	goodJSON, _ := json.Marshal(good)
	meta := `"_meta":{"ui":{"csp":{"resourceDomains":["https://cdn.example"]}}}`
	read := func(content string) string { return `{"contents":[` + content + `]}` }
	cases := []struct{ name, result, listing, want string }{
		{"clean", read(`{"uri":"ui://a","mimeType":"text/html;profile=mcp-app","text":` + string(goodJSON) + `,` + meta + `}`), "", ""},
		{"csp on the listing", read(`{"uri":"ui://a","mimeType":"text/html;profile=mcp-app","text":` + string(goodJSON) + `}`),
			`{"uri":"ui://a",` + meta + `}`, ""},
		{"blob", read(`{"uri":"ui://a","mimeType":"text/html; profile=mcp-app","blob":"` + base64.StdEncoding.EncodeToString([]byte(good)) + `",` + meta + `}`), "", ""},
		{"no contents", `{"contents":[]}`, "", FindAppResource},
		{"wrong mime", read(`{"uri":"ui://a","mimeType":"text/html","text":` + string(goodJSON) + `,` + meta + `}`), "", FindAppMIMEType},
		{"neither", read(`{"uri":"ui://a","mimeType":"text/html;profile=mcp-app",` + meta + `}`), "", FindAppContent},
		{"bad blob", read(`{"uri":"ui://a","mimeType":"text/html;profile=mcp-app","blob":"***",` + meta + `}`), "", FindAppContent},
		{"not html5", read(`{"uri":"ui://a","mimeType":"text/html;profile=mcp-app","text":"<p>hi</p>",` + meta + `}`), "", FindAppHTML},
		{"undeclared", read(`{"uri":"ui://a","mimeType":"text/html;profile=mcp-app","text":` + string(goodJSON) + `}`), "", FindAppCSP},
		{"eval", read(`{"uri":"ui://a","mimeType":"text/html;profile=mcp-app","text":"<!DOCTYPE html><script>eval(\"1\")</script>",` + meta + `}`), "", FindAppEval},
		{"bad meta", read(`{"uri":"ui://a","mimeType":"text/html;profile=mcp-app","text":"<!DOCTYPE html>","_meta":{"ui":{"csp":"x"}}}`), "", FindAppMeta},
	}
	for _, c := range cases {
		_, fs := CheckAppRead("ui://a", json.RawMessage(c.result), json.RawMessage(c.listing))
		if got := appCodes(fs); got != c.want {
			t.Errorf("%s: got %q, want %q (%v)", c.name, got, c.want, fs)
		}
	}
	if fs := CheckAppListing(json.RawMessage(`{"uri":"ui://a","mimeType":"text/html"}`)); appCodes(fs) != FindAppMIMEType {
		t.Errorf("listing with text/html: %v", fs)
	}
}

func TestAppsSpecRef(t *testing.T) {
	for _, code := range []string{FindAppResource, FindAppScheme, FindAppMIMEType, FindAppContent, FindAppHTML,
		FindAppCSP, FindAppVisibility, FindAppFlatKey, FindAppMeta, FindAppEval} {
		ref := SpecFor(code, Rev20251125)
		if !strings.HasPrefix(ref.URL(), "https://github.com/modelcontextprotocol/ext-apps/") || !strings.Contains(ref.URL(), "#") {
			t.Errorf("%s: URL %q", code, ref.URL())
		}
		if Explain(code) == "" {
			t.Errorf("%s is not in the findings table", code)
		}
	}
	if u := SpecFor(FindAppHTML, Rev20251125).URL(); !strings.HasSuffix(u, "apps.mdx#content-requirements") {
		t.Errorf("content requirements anchor: %s", u)
	}
}
