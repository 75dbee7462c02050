package card

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
)

const validCard = `{
  "$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
  "name": "com.example/weather",
  "version": "2.1.0",
  "description": "Forecasts by city.",
  "title": "Weather",
  "remotes": [
    {"type": "streamable-http", "url": "https://{tenant}.example.com/mcp",
     "headers": [{"name": "X-Api-Key", "isRequired": true, "isSecret": true}],
     "variables": {"tenant": {"isRequired": true}},
     "supportedProtocolVersions": ["2025-06-18", "2025-11-25"]},
    {"type": "sse", "url": "https://example.com/sse"}
  ]
}`

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  string
		want []string // pointers of the problems
	}{
		{"valid", validCard, nil},
		{"minimal", `{"$schema":"` + SchemaURL + `","name":"a.b/c","version":"1","description":"d"}`, nil},
		{"missing description and schema", `{"name":"a.b/c","version":"1"}`, []string{"/$schema", "/description"}},
		{"name without a slash", `{"$schema":"` + SchemaURL + `","name":"weather","version":"1","description":"d"}`, []string{"/name"}},
		{"date-versioned schema", `{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-12-11/server-card.schema.json","name":"a.b/c","version":"1","description":"d"}`, []string{"/$schema"}},
		{"remote without url, of an unknown type", `{"$schema":"` + SchemaURL + `","name":"a.b/c","version":"1","description":"d","remotes":[{"type":"websocket"}]}`,
			[]string{"/remotes/0/type", "/remotes/0/url"}},
		{"description too long", `{"$schema":"` + SchemaURL + `","name":"a.b/c","version":"1","description":"` + strings.Repeat("x", 101) + `"}`, []string{"/description"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			probs, err := Validate([]byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range probs {
				got = append(got, p.Pointer)
				if p.Message == "" {
					t.Errorf("problem at %q has no message", p.Pointer)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("problems at %q, want %q (%v)", got, tc.want, probs)
			}
		})
	}
	if _, err := Validate([]byte(`{"name":`)); err == nil {
		t.Error("Validate accepted text that is not JSON")
	}
}

func TestDecodeReadsExactKeys(t *testing.T) {
	c, err := Decode([]byte(validCard))
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "com.example/weather" || c.Version != "2.1.0" || len(c.Remotes) != 2 {
		t.Fatalf("decoded %+v", c)
	}
	r := c.Remotes[0]
	if !r.Templated() || r.Type != TypeStreamable || !slices.Equal(r.Versions, []string{"2025-06-18", "2025-11-25"}) ||
		len(r.Headers) != 1 || !r.Headers[0].Required || !r.Headers[0].Secret || !slices.Equal(r.Variables, []string{"tenant"}) {
		t.Errorf("remote %+v", r)
	}
	// encoding/json would take "Name" (the last match, folding case); a card is read by its exact keys.
	c, _ = Decode([]byte(`{"name":"a/b","Name":"evil/x","version":"1"}`))
	if c.Name != "a/b" {
		t.Errorf("name %q, want a/b", c.Name)
	}
	for _, doc := range []string{`[]`, `"card"`, `null`, `{`} {
		if _, err := Decode([]byte(doc)); err == nil {
			t.Errorf("Decode(%s) gave no error", doc)
		}
	}
}

func TestParseCatalog(t *testing.T) {
	doc := `{"specVersion":"1.0","entries":[
	  {"identifier":"urn:air:example.com:mcp:weather","type":"application/mcp-server-card+json","url":"https://example.com/mcp/server-card"},
	  {"identifier":"urn:air:example.com:agent:x","type":"application/a2a-agent-card+json","url":"https://example.com/agent"},
	  {"identifier":"urn:air:example.com:mcp:inline","type":"application/mcp-server-card+json","data":{"name":"a/b"}},
	  {"type":"application/mcp-server-card+json"},
	  {"identifier":"both","type":"application/mcp-server-card+json","url":"https://x/y","data":{}}
	]}`
	entries, findings, skipped := ParseCatalog([]byte(doc))
	if len(entries) != 3 || skipped != 0 {
		t.Fatalf("entries %+v", entries)
	}
	if entries[0].URL == "" || entries[1].Data == nil {
		t.Errorf("entries %+v", entries)
	}
	var codes []string
	for _, f := range findings {
		codes = append(codes, f.Code+": "+f.Message)
	}
	if len(findings) != 3 {
		t.Errorf("findings %q, want 3 (no identifier, neither url nor data, both)", codes)
	}
	for _, bad := range []string{`[]`, `{"entries":{}}`, `{}`} {
		if _, f, _ := ParseCatalog([]byte(bad)); len(f) != 1 || f[0].Code != protocol.FindCardCatalog {
			t.Errorf("ParseCatalog(%s): %v", bad, f)
		}
	}
}

func TestTargets(t *testing.T) {
	for _, tc := range []struct {
		in                     string
		bare                   bool
		origin, endpoint, fail string
	}{
		{"example.com", true, "https://example.com", "", ""},
		{"localhost:8080", true, "http://localhost:8080", "", ""},
		{"127.0.0.1:9", true, "http://127.0.0.1:9", "", ""},
		{"[::1]:8080", true, "http://[::1]:8080", "", ""},
		{"https://example.com/mcp/", false, "https://example.com", "https://example.com/mcp", ""},
		{"http://127.0.0.1:8080", false, "http://127.0.0.1:8080", "", ""},
		{"example.com/mcp", false, "", "", "want an http(s) URL"},
		{"ftp://example.com", false, "", "", "want an http(s) URL"},
		{"https://user:pw@example.com/mcp", false, "", "", "user information"},
		{"exa mple.com", false, "", "", "want"},
		{"host:port", false, "", "", "want"},
	} {
		if got := IsBareHost(tc.in); got != tc.bare {
			t.Errorf("IsBareHost(%q) = %v", tc.in, got)
		}
		tg, err := ParseTarget(tc.in)
		if tc.fail != "" {
			if err == nil || !strings.Contains(err.Error(), tc.fail) {
				t.Errorf("ParseTarget(%q): %v, want an error saying %q", tc.in, err, tc.fail)
			}
			continue
		}
		if err != nil || tg.Origin != tc.origin || tg.Endpoint != tc.endpoint {
			t.Errorf("ParseTarget(%q) = %+v, %v", tc.in, tg, err)
		}
	}
	tg, _ := ParseTarget("https://example.com/mcp")
	var labels []string
	for _, l := range tg.Locations() {
		labels = append(labels, l.URL)
	}
	want := []string{"https://example.com/mcp/server-card", "https://example.com/.well-known/ai-catalog.json",
		"https://example.com/.well-known/mcp/server-card.json", "https://example.com/.well-known/mcp/server-card",
		"https://example.com/.well-known/mcp/catalog.json"}
	if !slices.Equal(labels, want) {
		t.Errorf("locations %q", labels)
	}
	bare, _ := ParseTarget("example.com")
	if l := bare.Locations(); len(l) != 4 || !l[0].Normative || l[0].Kind != KindCatalog {
		t.Errorf("a bare host's locations start with the catalog: %+v", l)
	}
}

func TestMatchRemote(t *testing.T) {
	c, _ := Decode([]byte(validCard))
	for u, want := range map[string]int{
		"https://acme.example.com/mcp":     0,
		"https://acme.example.com/mcp/":    0,
		"https://example.com/sse":          1,
		"https://EXAMPLE.com:443/sse":      1,
		"https://example.com/mcp":          -1,
		"https://a.b.example.com.evil/mcp": -1,
		"http://example.com/sse":           -1,
	} {
		if got := MatchRemote(c.Remotes, u); got != want {
			t.Errorf("MatchRemote(%s) = %d, want %d", u, got, want)
		}
	}
}

func TestCompare(t *testing.T) {
	c, _ := Decode([]byte(validCard))
	findings := func(ms []Match) []string {
		var out []string
		for _, m := range ms {
			if m.Finding != nil {
				out = append(out, m.Field+" "+m.Finding.Code)
			}
			if m.OK != (m.Finding == nil) {
				t.Errorf("%s: ok %v with finding %v", m.Field, m.OK, m.Finding)
			}
		}
		return out
	}
	agree := Live{Server: protocol.Implementation{Name: "weather", Title: "Weather", Version: "2.1.0"}, Revision: "2025-11-25",
		URL: "https://acme.example.com/mcp", Transport: "http", Sent: []string{"x-api-key"}}
	if got := findings(Compare(c, agree)); len(got) != 0 {
		t.Errorf("a card that agrees: %q", got)
	}
	off := Live{Server: protocol.Implementation{Name: "forecast", Version: "2.2.0"}, Revision: "2026-07-28",
		Supported: []string{"2026-07-28", "2025-11-25"}, URL: "https://acme.example.com/mcp", Transport: "sse", AuthAsked: true}
	got := findings(Compare(c, off))
	want := []string{"name card.identity", "version card.identity", "transport card.remote", "negotiated revision card.protocol-versions",
		"protocol versions card.protocol-versions", "header X-Api-Key card.headers", "header Authorization card.headers-unlisted"}
	if !slices.Equal(got, want) {
		t.Errorf("findings\n got %q\nwant %q", got, want)
	}
	elsewhere := agree
	elsewhere.URL = "https://other.example.org/mcp"
	if got := findings(Compare(c, elsewhere)); !slices.Equal(got, []string{"remote card.remote"}) {
		t.Errorf("another URL: %q", got)
	}
	ms := Compare(c, agree)
	if b, err := json.Marshal(ms); err != nil || !strings.Contains(string(b), `"field":"version"`) {
		t.Errorf("JSON %s %v", b, err)
	}
}
