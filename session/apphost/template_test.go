package apphost_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/mcpscope/mcpscope/session/apphost"
)

// TestServerStringsNotExpanded: the host page shows the tool's name, its ui:// URI and the
// CSP as text, and a placeholder of the page's own template inside any of them stays that
// text. Were {{CONFIG}} in the tool's name expanded, its quotes would end the frame's title
// attribute and the rest of the name would become attributes (srcdoc with a script
// carrying the expanded {{NONCE}}: script on the host's origin).
func TestServerStringsNotExpanded(t *testing.T) {
	const name = `x{{CONFIG}} srcdoc=<script/nonce={{NONCE}}>top.document.body.dataset.pwned=1</script> {{TOOL}}{{CSP}}`
	const uri = `ui://evil/{{NONCE}}/{{CONFIG}}/{{RESOURCE}}`
	const src = `https://{{NONCE}}.example.com`
	h, _ := hostileApp{name: name, uri: uri, csp: map[string]any{"connectDomains": []string{src}}}.start(t, apphost.Config{})

	resp, err := localClient(t).Get(h.URL())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET the host page: %d %s", resp.StatusCode, body)
	}
	_, nonce, ok := strings.Cut(resp.Header.Get("Content-Security-Policy"), "'nonce-")
	nonce, _, _ = strings.Cut(nonce, "'")
	if !ok || nonce == "" {
		t.Fatalf("the host page's policy has no nonce: %q", resp.Header.Get("Content-Security-Policy"))
	}
	if n := strings.Count(string(body), nonce); n != 1 {
		t.Errorf("the nonce is in the page %d times, want once (the page's own script)", n)
	}

	doc, err := html.Parse(strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	var scripts, codes []*html.Node
	var title, frame, refused *html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "script":
				scripts = append(scripts, n)
			case "code":
				codes = append(codes, n)
			case "title":
				title = n
			case "iframe":
				frame = n
			case "div":
				if attr(n, "id") == "refused" {
					refused = n
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if len(scripts) != 1 || attr(scripts[0], "nonce") != nonce {
		t.Errorf("the page has %d scripts, want exactly its own", len(scripts))
	}
	if title == nil || text(title) != "mcpscope · "+name {
		t.Errorf("the page's title is not the tool's name as text")
	}
	if len(codes) < 2 || text(codes[0]) != name || text(codes[1]) != uri {
		t.Errorf("the header does not show the tool's name and URI as text")
	}
	if frame == nil || attr(frame, "title") != name || len(frame.Attr) != 3 {
		var got []string
		if frame != nil {
			for _, a := range frame.Attr {
				got = append(got, a.Key)
			}
		}
		t.Errorf("the view's frame: attributes %q, title %q; want id, title (the name) and sandbox", got, attr(frame, "title"))
	}
	if refused == nil || !strings.Contains(text(refused), "connectDomains: "+src+" (") {
		t.Errorf("the page does not show the refused source %s as text", src)
	}
}

func attr(n *html.Node, key string) string {
	if n == nil {
		return ""
	}
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
