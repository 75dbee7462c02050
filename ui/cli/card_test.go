package cli_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	cardspec "github.com/mcpscope/mcpscope/protocol/card"
	"github.com/mcpscope/mcpscope/session/demo"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// cardJSON is what card --json prints, as far as the tests read it.
type cardJSON struct {
	Schema    map[string]string `json:"schema"`
	Locations []struct {
		Location struct {
			Label     string `json:"label"`
			Normative bool   `json:"normative"`
		} `json:"location"`
		Status int    `json:"status"`
		Size   int64  `json:"size"`
		Answer string `json:"answer"`
	} `json:"locations"`
	Cards []struct {
		Where    []string `json:"where"`
		Problems []struct {
			Pointer string `json:"pointer"`
		} `json:"problems"`
	} `json:"cards"`
	Live *struct {
		URL string `json:"url"`
	} `json:"live"`
	Comparison []struct {
		Field string `json:"field"`
		OK    bool   `json:"ok"`
	} `json:"comparison"`
	Findings []struct {
		Code     string `json:"code"`
		Severity string `json:"severity"`
	} `json:"findings"`
}

func runCard(t *testing.T, wantCode int, args ...string) cardJSON {
	t.Helper()
	stdout, stderr, code := run(t, append([]string{"card", "--json"}, args...)...)
	if code != wantCode {
		t.Fatalf("card %s: exit %d, want %d\n%s\n%s", strings.Join(args, " "), code, wantCode, stdout, stderr)
	}
	var out cardJSON
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("card --json: %v\n%s", err, stdout)
	}
	return out
}

func findingCodes(out cardJSON) []string {
	var codes []string
	for _, f := range out.Findings {
		codes = append(codes, f.Code)
	}
	slices.Sort(codes)
	return codes
}

func TestCardDemo(t *testing.T) {
	streamable, _ := sessiontest.StartDemoHTTP(t)
	out := runCard(t, cli.ExitOK, streamable)
	if out.Schema["commit"] != cardspec.SchemaCommit || out.Schema["version"] != "v1" {
		t.Errorf("schema %v", out.Schema)
	}
	if len(out.Cards) != 1 || len(out.Cards[0].Problems) != 0 || out.Locations[0].Status != 200 || out.Locations[0].Size == 0 {
		t.Fatalf("%+v", out)
	}
	if out.Live == nil || out.Live.URL != streamable || len(out.Comparison) < 5 {
		t.Fatalf("not compared: %+v", out)
	}
	for _, m := range out.Comparison {
		if !m.OK {
			t.Errorf("the demo's card disagrees with the demo on %s", m.Field)
		}
	}
	if len(out.Findings) != 0 {
		t.Errorf("findings on the demo: %v", findingCodes(out))
	}
	// A bare host: the card found through the AI Catalog names the endpoint compared.
	host := strings.TrimSuffix(strings.TrimPrefix(streamable, "http://"), "/mcp")
	bare := runCard(t, cli.ExitOK, host)
	if bare.Live == nil || bare.Live.URL != streamable || len(bare.Findings) != 0 {
		t.Errorf("bare host: %+v", bare)
	}
	stdout, _, code := run(t, "card", streamable)
	if code != cli.ExitOK || !strings.Contains(stdout, "schema: valid (server-card v1") || !strings.Contains(stdout, "✓  version") {
		t.Errorf("text report (exit %d):\n%s", code, stdout)
	}
}

// TestCardFetchesRecorded: a bare --url host is reached through its card, and the card's
// fetches are in the recording and its HAR, like the MCP traffic.
func TestCardFetchesRecorded(t *testing.T) {
	streamable, _ := sessiontest.StartDemoHTTP(t)
	host := strings.TrimSuffix(strings.TrimPrefix(streamable, "http://"), "/mcp")
	rec := filepath.Join(t.TempDir(), "card.jsonl")
	stdout, stderr, code := run(t, "--url", host, "--record", rec, "info")
	if code != cli.ExitOK || !strings.Contains(stdout, `"mcpscope-demo"`) || !strings.Contains(stderr, "names "+streamable) {
		t.Fatalf("info over a bare host: exit %d\n%s\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"purpose":"card"`) || !strings.Contains(string(b), `"step":"/.well-known/ai-catalog.json"`) ||
		!strings.Contains(string(b), `io.github.mcpscope/mcpscope-demo`) {
		t.Errorf("the card fetches are not in the recording:\n%s", b)
	}
	har, stderr, code := run(t, "export", "--format", "har", rec)
	if code != cli.ExitOK {
		t.Fatalf("export: %d %s", code, stderr)
	}
	var doc struct {
		Log struct {
			Entries []struct {
				Comment string `json:"comment"`
				Request struct {
					URL string `json:"url"`
				} `json:"request"`
				Response struct {
					Content struct {
						MimeType string `json:"mimeType"`
						Text     string `json:"text"`
					} `json:"content"`
				} `json:"response"`
			} `json:"entries"`
		} `json:"log"`
	}
	if err := json.Unmarshal([]byte(har), &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range doc.Log.Entries {
		if e.Request.URL == streamable+"/server-card" && strings.HasPrefix(e.Comment, "server card: ") &&
			e.Response.Content.MimeType == cardspec.MediaType && strings.Contains(e.Response.Content.Text, "mcpscope-demo") {
			found = true
		}
	}
	if !found {
		t.Errorf("no HAR entry for the card:\n%s", har)
	}
}

func TestCardFixtureDisagrees(t *testing.T) {
	u := sessiontest.StartCardServer(t)
	out := runCard(t, cli.ExitFindings, u) // the schema error reaches --fail-on error
	want := []string{"card.identity", "card.media-type", "card.remote", "card.schema"}
	if got := findingCodes(out); !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
	if len(out.Cards) != 1 || len(out.Cards[0].Problems) != 1 || out.Cards[0].Problems[0].Pointer != "/description" {
		t.Errorf("cards %+v", out.Cards)
	}
	runCard(t, cli.ExitOK, "--fail-on", "none", u)
	offline := runCard(t, cli.ExitFindings, "--no-connect", u)
	if offline.Live != nil || slices.Contains(findingCodes(offline), "card.identity") {
		t.Errorf("--no-connect compared: %+v", offline)
	}

	// check --url reports the same card findings.
	stdout, stderr, code := run(t, "check", "--json", "--fail-on", "none", "--url", u)
	if code != cli.ExitOK {
		t.Fatalf("check: exit %d\n%s", code, stderr)
	}
	var rep struct {
		Runs []struct {
			Findings []struct {
				Code     string `json:"code"`
				Severity string `json:"severity"`
			} `json:"findings"`
			Card *struct {
				Found bool `json:"found"`
				Valid bool `json:"valid"`
			} `json:"card"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, f := range rep.Runs[0].Findings {
		if strings.HasPrefix(f.Code, "card.") {
			codes = append(codes, f.Code)
		}
	}
	slices.Sort(codes)
	if !slices.Equal(codes, want) || rep.Runs[0].Card == nil || !rep.Runs[0].Card.Found || rep.Runs[0].Card.Valid {
		t.Errorf("check's card findings %q, card %+v", codes, rep.Runs[0].Card)
	}
}

// noCard serves the demo with every card location answering 404.
func noCard(t *testing.T) string {
	t.Helper()
	h := demo.Handler(io.Discard)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/server-card") || strings.HasPrefix(r.URL.Path, "/.well-known/") {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { srv.CloseClientConnections(); srv.Close() })
	return srv.URL + "/mcp"
}

func TestCardMissing(t *testing.T) {
	u := noCard(t)
	stdout, stderr, code := run(t, "card", u)
	if code != cli.ExitFailure || !strings.Contains(stderr, "no server card found") || !strings.Contains(stdout, "card.missing") {
		t.Errorf("no card: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if _, stderr, code := run(t, "card", "http://127.0.0.1:1/mcp"); code != cli.ExitConnect {
		t.Errorf("nothing listening: exit %d, want %d\n%s", code, cli.ExitConnect, stderr)
	}
	// For check, a missing card is information: the extension is experimental.
	stdout, stderr, code = run(t, "check", "--json", "--url", u)
	if code != cli.ExitOK || !strings.Contains(stdout, `"code": "card.missing"`) {
		t.Errorf("check without a card: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, `"severity": "info"`) {
		t.Errorf("card.missing is not info:\n%s", stdout)
	}
}

func TestBareHostWithSeveralRemotes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := "http://" + r.Host
		switch r.URL.Path {
		case "/.well-known/ai-catalog.json":
			w.Header().Set("Content-Type", cardspec.CatalogMediaType)
			fmt.Fprintf(w, `{"specVersion":"1.0","entries":[{"identifier":"urn:air:x:mcp:two","type":%q,"url":"/card"}]}`, cardspec.MediaType)
		case "/card":
			w.Header().Set("Content-Type", cardspec.MediaType)
			fmt.Fprintf(w, `{"$schema":%q,"name":"x/two","version":"1","description":"d","remotes":[
			  {"type":"streamable-http","url":"%s/a/mcp"},{"type":"sse","url":"%s/b/sse"},{"type":"streamable-http","url":"https://{tenant}.example.com/mcp"}]}`,
				cardspec.SchemaURL, base, base)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	base := srv.URL
	host := strings.TrimPrefix(srv.URL, "http://")
	_, stderr, code := run(t, "--url", host, "list", "tools")
	if code != cli.ExitUsage || !strings.Contains(stderr, "names 2 remotes; pick one with --url") ||
		!strings.Contains(stderr, "--url "+base+"/a/mcp") || !strings.Contains(stderr, "--url "+base+"/b/sse") {
		t.Errorf("several remotes: exit %d\n%s", code, stderr)
	}
	// card itself reads the card and says why it did not compare.
	stdout, _, code := run(t, "card", "--fail-on", "none", host)
	if code != cli.ExitOK || !strings.Contains(stdout, "not compared with the live server: the card names 2 remotes") {
		t.Errorf("card: exit %d\n%s", code, stdout)
	}
	if _, stderr, code := run(t, "--url", "127.0.0.1:1", "info"); code != cli.ExitConnect || !strings.Contains(stderr, "a bare host is reached through its server card") {
		t.Errorf("a bare host with nothing there: exit %d\n%s", code, stderr)
	}
}
