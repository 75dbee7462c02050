package apps

import (
	"strings"
	"testing"
)

const page = `<!DOCTYPE html>
<html><head><title> Weather
 board </title>
<script src="https://cdn.jsdelivr.net/npm/x.js"></script>
<script src="/local.js"></script>
<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=Inter">
<link rel="canonical" href="https://canonical.example/">
<style>body{background:url("https://img.example.com/bg.png")} @import "//css.example.org/a.css";</style>
</head><body style="background-image:url(https://inline.example/x.png)">
<img src="data:image/png;base64,AAAA"><img srcset="https://img2.example/a.png 1x, /b.png 2x">
<iframe src="https://www.youtube.com/embed/1"></iframe>
<a href="https://link.example/">not loaded</a>
<script>
fetch("https://api.weather.example/v1?q=1").then(r => r.json());
const ws = new WebSocket('wss://live.example:8443/s');
x.open("GET", "https://xhr.example/a");
const s = "https://just-a-string.example/";
import("https://esm.sh/lib");
</script>
</body></html>`

func TestSummarizeHTML(t *testing.T) {
	s := SummarizeHTML([]byte(page))
	if !s.Doctype || s.Title != "Weather board" || s.Size != len(page) {
		t.Errorf("doctype %v title %q size %d", s.Doctype, s.Title, s.Size)
	}
	if s.InlineScripts != 1 || s.ExternalScripts != 2 || s.InlineStyles != 1 || s.ExternalStyles != 1 {
		t.Errorf("scripts %d inline %d external, styles %d inline %d external",
			s.InlineScripts, s.ExternalScripts, s.InlineStyles, s.ExternalStyles)
	}
	got := map[string]Use{}
	for _, o := range s.Origins {
		got[o.Origin] = o.Use
	}
	want := map[string]Use{
		"https://cdn.jsdelivr.net": UseResource, "https://fonts.googleapis.com": UseResource,
		"https://img.example.com": UseResource, "https://css.example.org": UseResource,
		"https://inline.example": UseResource, "https://img2.example": UseResource,
		"https://www.youtube.com": UseFrame, "https://api.weather.example": UseConnect,
		"wss://live.example:8443": UseConnect, "https://xhr.example": UseConnect, "https://esm.sh": UseResource,
	}
	for o, u := range want {
		if got[o] != u {
			t.Errorf("origin %s: use %v, want %v (all: %v)", o, got[o], u, got)
		}
	}
	for _, no := range []string{"https://canonical.example", "https://link.example", "https://just-a-string.example"} {
		if _, ok := got[no]; ok {
			t.Errorf("%s is not loaded or connected to, but is listed", no)
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %d origins, want %d: %v", len(got), len(want), got)
	}
}

func TestNotHTML5(t *testing.T) {
	for _, doc := range []string{`<html><body>hi</body></html>`, `hello`, `<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN">`, `<p>x</p><!DOCTYPE html>`} {
		if SummarizeHTML([]byte(doc)).Doctype {
			t.Errorf("%q read as an HTML5 document", doc)
		}
	}
	for _, doc := range []string{"\n  <!-- c --><!doctype HTML><html></html>", "\ufeff<!DOCTYPE html>"} {
		if !SummarizeHTML([]byte(doc)).Doctype {
			t.Errorf("%q: the HTML5 doctype was not seen", doc)
		}
	}
}

func TestUndeclared(t *testing.T) {
	s := SummarizeHTML([]byte(page))
	csp := &CSP{ResourceDomains: []string{"https://cdn.jsdelivr.net", "https://*.googleapis.com", "img.example.com",
		"css.example.org", "https://inline.example", "https://img2.example", "https://esm.sh"},
		ConnectDomains: []string{"https://api.weather.example", "wss://live.example:*", "https://xhr.example"},
		FrameDomains:   []string{"https://www.youtube.com"}}
	if u := csp.Undeclared(s); len(u) > 0 {
		t.Errorf("all declared, yet undeclared: %+v", u)
	}
	var none *CSP
	if u := none.Undeclared(s); len(u) != len(s.Origins) {
		t.Errorf("the default CSP allows no external origin; undeclared %d of %d", len(u), len(s.Origins))
	}
	partial := &CSP{ResourceDomains: []string{"https://cdn.jsdelivr.net"}}
	var names []string
	for _, o := range partial.Undeclared(s) {
		names = append(names, o.Origin+" "+o.Use.String())
	}
	joined := strings.Join(names, ",")
	for _, want := range []string{"https://api.weather.example connectDomains", "https://www.youtube.com frameDomains"} {
		if !strings.Contains(joined, want) {
			t.Errorf("undeclared %s lacks %s", joined, want)
		}
	}
}

func TestSourceMatches(t *testing.T) {
	cases := []struct {
		src, origin string
		ok          bool
	}{
		{"https://a.example", "https://a.example", true},
		{"https://a.example", "https://a.example:8443", false},
		{"https://a.example:8443", "https://a.example:8443", true},
		{"http://a.example", "https://a.example", true},
		{"https://a.example", "http://a.example", false},
		{"https://*.example.com", "https://x.y.example.com", true},
		{"https://*.example.com", "https://example.com", false},
		{"a.example", "https://a.example", true},
		{"https:", "https://anything.example", true},
		{"*", "https://x.example", true},
		{"https://a.example/path/", "https://a.example", true},
		{"https://b.example", "https://a.example", false},
	}
	for _, c := range cases {
		if got := SourceMatches(c.src, c.origin); got != c.ok {
			t.Errorf("SourceMatches(%q, %q) = %v, want %v", c.src, c.origin, got, c.ok)
		}
	}
}
