package card

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	cardspec "github.com/mcpscope/mcpscope/protocol/card"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// exchanges collects what Discover reports.
type exchanges struct {
	mu  sync.Mutex
	all []*transport.HTTPExchange
}

func (x *exchanges) report(ex *transport.HTTPExchange) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.all = append(x.all, ex)
}

func codes(fs []protocol.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Code)
	}
	return out
}

func target(t *testing.T, s string) cardspec.Target {
	t.Helper()
	tg, err := cardspec.ParseTarget(s)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

func TestDiscoverTheDemo(t *testing.T) {
	streamable, _ := sessiontest.StartDemoHTTP(t)
	var x exchanges
	res := Discover(context.Background(), target(t, streamable), Options{Report: x.report})
	c := res.Card()
	if c == nil || !c.Valid() {
		t.Fatalf("no valid card: %+v %v", res.Attempts, res.Lines())
	}
	if !slices.Equal(c.Where, []string{"<endpoint>/server-card", "catalog entry urn:air:127.0.0.1:mcp:mcpscope-demo"}) {
		t.Errorf("found at %q", c.Where)
	}
	if len(res.Findings) != 0 {
		t.Errorf("findings on the demo: %v", res.Lines())
	}
	var answers []string
	for _, a := range res.Attempts {
		answers = append(answers, fmt.Sprintf("%s %d", a.Location.Label, a.Status))
	}
	want := []string{"<endpoint>/server-card 200", "/.well-known/ai-catalog.json 200", "/.well-known/mcp/server-card.json 404",
		"/.well-known/mcp/server-card 404", "/.well-known/mcp/catalog.json 404"}
	if !slices.Equal(answers, want) {
		t.Errorf("answers %q", answers)
	}
	if len(x.all) != 5 {
		t.Fatalf("%d exchanges reported, want 5", len(x.all))
	}
	for _, ex := range x.all {
		if ex.Purpose != "card" || ex.Step == "" || ex.ID == 0 || ex.ReqHeaders.Get("Accept") == "" || ex.ReqHeaders.Get("Authorization") != "" {
			t.Errorf("exchange %+v", ex)
		}
	}
	if !strings.Contains(x.all[0].RespBody, `"mcpscope-demo"`) && !strings.Contains(x.all[0].RespBody, `io.github.mcpscope/mcpscope-demo`) {
		t.Errorf("the card's body is not in its exchange: %q", x.all[0].RespBody)
	}
	// A bare host finds the same card through the catalog.
	host := strings.TrimPrefix(strings.TrimSuffix(streamable, "/mcp"), "http://")
	bare := Discover(context.Background(), target(t, host), Options{})
	if b := bare.Card(); b == nil || string(b.Raw) != string(c.Raw) || b.Where[0] != "catalog entry urn:air:127.0.0.1:mcp:mcpscope-demo" {
		t.Errorf("bare host: %+v", bare.Attempts)
	}
}

// hostile serves one answer per path.
func hostile(t *testing.T, routes map[string]http.HandlerFunc) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	for p, h := range routes {
		mux.HandleFunc(p, h)
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { srv.CloseClientConnections(); srv.Close() })
	return srv
}

func TestDiscoverHostile(t *testing.T) {
	var otherHits atomic.Int32
	other := hostile(t, map[string]http.HandlerFunc{"/": func(w http.ResponseWriter, r *http.Request) {
		otherHits.Add(1)
		w.Header().Set("Content-Type", cardspec.MediaType)
		fmt.Fprintf(w, `{"$schema":%q,"name":"evil/x","version":"1","description":"d"}`, cardspec.SchemaURL)
	}})
	var sent atomic.Int64
	srv := hostile(t, map[string]http.HandlerFunc{
		// 10 MB of JSON-looking bytes: cut at the bound, not read as a card.
		"/mcp/server-card": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", cardspec.MediaType)
			chunk := []byte(`{"name":"` + strings.Repeat("a", 64<<10))
			for i := 0; i < 160; i++ {
				n, err := w.Write(chunk)
				sent.Add(int64(n))
				if err != nil {
					return
				}
			}
		},
		// Not JSON.
		"/.well-known/mcp/server-card.json": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"name": "a/b", "version": `)
		},
		// To another origin.
		"/.well-known/mcp/server-card": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+"/card.json", http.StatusFound)
		},
		// A redirect loop.
		"/.well-known/mcp/catalog.json": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/.well-known/mcp/catalog.json?again="+r.URL.Query().Get("again")+"x", http.StatusTemporaryRedirect)
		},
	})
	var x exchanges
	res := Discover(context.Background(), target(t, srv.URL+"/mcp"), Options{Report: x.report})
	if res.Card() != nil {
		t.Fatalf("a card was read: %s", res.Card().Raw)
	}
	if otherHits.Load() != 0 {
		t.Error("the redirect to another origin was followed")
	}
	byLabel := map[string]Attempt{}
	for _, a := range res.Attempts {
		byLabel[a.Location.Label] = a
	}
	if a := byLabel["<endpoint>/server-card"]; !a.Cut || a.Size != DefaultMaxBytes || a.Answer != "too large" {
		t.Errorf("10 MB body: %+v", a)
	}
	if sent.Load() >= 10<<20 {
		t.Errorf("the whole 10 MB body was read (%d bytes sent)", sent.Load())
	}
	if a := byLabel["/.well-known/mcp/server-card.json"]; a.Answer != "not JSON" {
		t.Errorf("invalid JSON: %+v", a)
	}
	if a := byLabel["/.well-known/mcp/server-card"]; !strings.Contains(a.Err, "another origin") {
		t.Errorf("cross-origin redirect: %+v", a)
	}
	if a := byLabel["/.well-known/mcp/catalog.json"]; len(a.Redirects) != DefaultMaxRedirects || !strings.Contains(a.Err, "more than") {
		t.Errorf("redirect loop: %+v", a)
	}
	got := codes(res.Findings)
	want := []string{protocol.FindCardUnreadable, protocol.FindCardUnreadable, protocol.FindCardUnreadable, protocol.FindCardUnreadable, protocol.FindCardMissing}
	if !slices.Equal(got, want) {
		t.Errorf("findings %q\n%s", got, strings.Join(res.Lines(), "\n"))
	}
	// Each hop is reported: the four locations' first hops (the AI Catalog's a 404) and
	// the loop's five more.
	if n := len(x.all); n != 10 {
		t.Errorf("%d exchanges reported, want 10", n)
	}
}

func TestDiscoverSlowBody(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	srv := hostile(t, map[string]http.HandlerFunc{"/": func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", cardspec.MediaType)
		fmt.Fprint(w, `{"name":`)
		w.(http.Flusher).Flush()
		select { // a body that never ends
		case <-r.Context().Done():
		case <-release:
		}
	}})
	res := Discover(context.Background(), target(t, srv.URL+"/mcp"), Options{Timeout: 200 * time.Millisecond})
	if len(res.Attempts) != 5 {
		t.Fatalf("attempts %+v", res.Attempts)
	}
	for _, a := range res.Attempts {
		if a.Status != 200 || !strings.Contains(a.Err, "no complete answer within") {
			t.Errorf("%s: %+v", a.Location.Label, a)
		}
	}
}

func TestDiscoverCatalogEntries(t *testing.T) {
	card := func(name string) string {
		return fmt.Sprintf(`{"$schema":%q,"name":%q,"version":"1.0.0","description":"d"}`, cardspec.SchemaURL, name)
	}
	srv := hostile(t, map[string]http.HandlerFunc{
		"/.well-known/ai-catalog.json": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", cardspec.CatalogMediaType)
			fmt.Fprintf(w, `{"specVersion":"1.0","entries":[
			  {"identifier":"urn:air:x:mcp:a","type":"application/mcp-server-card+json","url":"/a/server-card"},
			  {"identifier":"urn:air:x:mcp:b","type":"application/mcp-server-card+json","data":%s},
			  {"identifier":"urn:air:x:mcp:c","type":"application/mcp-server-card+json"}]}`, card("x/b"))
		},
		"/a/server-card": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, card("x/a"))
		},
	})
	res := Discover(context.Background(), target(t, strings.TrimPrefix(srv.URL, "http://")), Options{})
	if len(res.Cards) != 2 || res.Cards[0].Card.Name != "x/a" || res.Cards[1].Card.Name != "x/b" || res.Cards[1].URL != "" {
		t.Fatalf("cards %+v", res.Cards)
	}
	got := codes(res.Findings)
	if !slices.Equal(got, []string{protocol.FindCardCatalog, protocol.FindCardMediaType}) {
		t.Errorf("findings %q", res.Lines())
	}
}
