package apps

import (
	"bytes"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"golang.org/x/net/html"
)

// Use is what a page does with an origin, which says the CSP list that must declare it.
type Use uint8

const (
	UseResource Use = iota + 1 // scripts, styles, images, fonts, media: resourceDomains
	UseConnect                 // fetch, XHR, WebSocket, EventSource: connectDomains
	UseFrame                   // nested iframes: frameDomains
	UseBase                    // <base href>: baseUriDomains
)

// String is the name of the CSP list of the extension that declares u.
func (u Use) String() string {
	switch u {
	case UseResource:
		return "resourceDomains"
	case UseConnect:
		return "connectDomains"
	case UseFrame:
		return "frameDomains"
	case UseBase:
		return "baseUriDomains"
	}
	return "?"
}

// Origin is one external origin a page loads from or connects to.
type Origin struct {
	Origin  string // scheme://host[:port]
	Use     Use
	Example string // the first URL that uses it, cut short
}

// HTMLSummary is what a UI resource's HTML does, read without running it.
type HTMLSummary struct {
	Size            int
	Title           string
	Doctype         bool // the document opens with <!DOCTYPE html>, as an HTML5 document does
	InlineScripts   int
	ExternalScripts int
	InlineStyles    int
	ExternalStyles  int
	Origins         []Origin // in order of first use; at most MaxOrigins
	MoreOrigins     int      // distinct origins past MaxOrigins
}

// MaxOrigins bounds the origins a summary keeps.
const MaxOrigins = 64

// connectCall finds the URL a script fetches or connects to: fetch("…"), new WebSocket("…"),
// new EventSource("…"), xhr.open("GET", "…"), navigator.sendBeacon("…").
var connectCall = lazyRegexp("(?:\\bfetch|\\bWebSocket|\\bEventSource|\\bsendBeacon|\\.open\\(\\s*[\"'`][A-Za-z]+[\"'`]\\s*,)\\s*\\(?\\s*[\"'`]((?:https?|wss?):)?//[^\"'`\\s]+")

// scriptImport finds modules a script imports from another origin.
var scriptImport = lazyRegexp("(?:\\bimport\\s*\\(|\\bfrom|\\bimport)\\s*[\"'`](?:https?:)?//[^\"'`\\s]+")

// cssURL finds url(…) and @import "…" in CSS.
var cssURL = lazyRegexp(`(?:url\(\s*["']?|@import\s+["'])((?:https?:)?//[^"')\s]+)`)

// slashes start every absolute URL a page can name.
var slashes = []byte("//")

// scanBack is how far before a URL the call or CSS that uses it may start.
const scanBack = 96

// urlStop reports whether c ends a URL in script or CSS text.
func urlStop(c byte) bool {
	switch c {
	case '"', '\'', '`', ')', ' ', '\t', '\n', '\r', '<', '>':
		return true
	}
	return false
}

// lazyRegexp compiles expr on first use: every command would pay for it at start.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// absURL finds the URL inside a match of the patterns above.
var absURL = lazyRegexp("((?:https?|wss?):)?//[^\"'`)\\s]+")

// SummarizeHTML reads a page once, in time proportional to its size, without running it.
// Relative, data: and blob: URLs are the page's own and are not origins.
func SummarizeHTML(doc []byte) HTMLSummary {
	s := HTMLSummary{Size: len(doc)}
	seen := map[string]bool{}
	add := func(raw string, use Use) {
		o := originOf(raw)
		if o == "" {
			return
		}
		key := o + "\x00" + use.String()
		if seen[key] {
			return
		}
		seen[key] = true
		if len(s.Origins) >= MaxOrigins {
			s.MoreOrigins++
			return
		}
		ex := raw
		if len(ex) > 120 {
			ex = ex[:120] + "…"
		}
		s.Origins = append(s.Origins, Origin{Origin: o, Use: use, Example: ex})
	}
	// scanText looks only around each "//" of text, through a window wide enough for the
	// call or CSS around a URL: a regular expression over a whole megabyte bundle would be
	// many times slower than the tokenizer.
	scanText := func(text []byte, re *regexp.Regexp, use Use) {
		for off := 0; off < len(text); {
			i := bytes.Index(text[off:], slashes)
			if i < 0 {
				return
			}
			i += off
			end := i + 2
			for end < len(text) && end-i < 2048 && !urlStop(text[end]) {
				end++
			}
			for _, m := range re.FindAll(text[max(0, i-scanBack):end], -1) {
				if u := absURL().Find(m); u != nil {
					add(string(u), use)
				}
			}
			off = end
		}
	}
	z := html.NewTokenizer(bytes.NewReader(bytes.TrimPrefix(doc, []byte("\ufeff"))))
	first := true
	var in string // the raw-text element being read: script, style, title
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return s
		}
		switch tt {
		case html.DoctypeToken:
			if first && strings.EqualFold(strings.TrimSpace(string(z.Text())), "html") {
				s.Doctype = true
			}
			first = false
		case html.TextToken:
			text := z.Text()
			switch in {
			case "script":
				scanText(text, connectCall(), UseConnect)
				scanText(text, scriptImport(), UseResource)
			case "style":
				scanText(text, cssURL(), UseResource)
			case "title":
				if s.Title == "" {
					t := strings.Join(strings.Fields(string(text)), " ")
					if len(t) > 200 {
						t = t[:200] + "…"
					}
					s.Title = t
				}
			}
			if first && len(bytes.TrimSpace(text)) > 0 {
				first = false
			}
		case html.EndTagToken:
			in = ""
		case html.StartTagToken, html.SelfClosingTagToken:
			first = false
			name, hasAttr := z.TagName()
			attrs := map[string]string{}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				if _, dup := attrs[string(k)]; !dup {
					attrs[string(k)] = string(v)
				}
			}
			tag := string(name)
			if st := attrs["style"]; st != "" {
				scanText([]byte(st), cssURL(), UseResource)
			}
			switch tag {
			case "script":
				if src, ok := attrs["src"]; ok {
					s.ExternalScripts++
					add(src, UseResource)
				} else {
					s.InlineScripts++
					in = "script"
				}
			case "style":
				s.InlineStyles++
				in = "style"
			case "title":
				in = "title"
			case "link":
				rel := strings.ToLower(attrs["rel"])
				if strings.Contains(rel, "stylesheet") {
					s.ExternalStyles++
				}
				if rel != "" && !strings.Contains(rel, "canonical") && !strings.Contains(rel, "alternate") {
					add(attrs["href"], UseResource)
				}
			case "img", "audio", "video", "source", "track", "embed", "input":
				add(attrs["src"], UseResource)
				add(attrs["poster"], UseResource)
				if ss := attrs["srcset"]; ss != "" {
					for _, part := range strings.Split(ss, ",") {
						if f := strings.Fields(part); len(f) > 0 {
							add(f[0], UseResource)
						}
					}
				}
			case "object":
				add(attrs["data"], UseResource)
			case "iframe", "frame":
				add(attrs["src"], UseFrame)
			case "base":
				add(attrs["href"], UseBase)
			}
			if tt == html.SelfClosingTagToken {
				in = ""
			}
		case html.CommentToken:
		}
	}
}

// originOf is the origin of an absolute URL (a protocol-relative one is taken as https), or
// "" for a relative, data: or blob: URL and for anything that is not http(s) or ws(s).
func originOf(raw string) string {
	raw = strings.TrimSpace(raw)
	if strings.HasPrefix(raw, "//") {
		raw = "https:" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ws", "wss":
		return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
	}
	return ""
}

// Undeclared lists the origins of s that c does not allow for their use: the ones a host
// enforcing the extension's CSP would block. A nil c is the restrictive default, which allows
// no external origin.
func (c *CSP) Undeclared(s HTMLSummary) []Origin {
	var out []Origin
	for _, o := range s.Origins {
		if !c.allows(o) {
			out = append(out, o)
		}
	}
	return out
}

func (c *CSP) allows(o Origin) bool {
	if c == nil {
		return false
	}
	var list []string
	switch o.Use {
	case UseResource:
		list = c.ResourceDomains
	case UseConnect:
		list = c.ConnectDomains
	case UseFrame:
		list = c.FrameDomains
	case UseBase:
		list = c.BaseURIDomains
	}
	for _, src := range list {
		if SourceMatches(src, o.Origin) {
			return true
		}
	}
	return false
}

// SourceMatches reports whether a CSP source expression (an origin, a host with an optional
// *. wildcard, port or path, a scheme such as "https:", or "*") allows origin
// (scheme://host[:port]), following CSP Level 3's matching: http allows https, ws allows wss,
// a source without a scheme allows http(s) and ws(s), a wildcard needs at least one label.
// https also allows wss, as browsers do for connect-src: a doubt resolves to "allowed", so a
// finding built on this is never a false alarm of that kind.
func SourceMatches(src, origin string) bool {
	src = strings.ToLower(strings.TrimSpace(src))
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	scheme, host, port := u.Scheme, u.Hostname(), u.Port()
	if src == "*" {
		return true
	}
	if strings.HasSuffix(src, ":") && !strings.Contains(src, "/") {
		return schemeMatches(strings.TrimSuffix(src, ":"), scheme)
	}
	sScheme := ""
	if i := strings.Index(src, "://"); i >= 0 {
		sScheme, src = src[:i], src[i+3:]
	}
	if i := strings.IndexByte(src, '/'); i >= 0 {
		src = src[:i] // a path narrows what a URL may be; the origin still matches
	}
	sHost, sPort := src, ""
	if i := strings.LastIndexByte(src, ':'); i >= 0 && !strings.Contains(src[i:], "]") {
		sHost, sPort = src[:i], src[i+1:]
	}
	if sScheme != "" && !schemeMatches(sScheme, scheme) {
		return false
	}
	if sScheme == "" && scheme != "http" && scheme != "https" && scheme != "ws" && scheme != "wss" {
		return false
	}
	switch {
	case strings.HasPrefix(sHost, "*."):
		if !strings.HasSuffix(host, sHost[1:]) {
			return false
		}
	case sHost != host:
		return false
	}
	if sPort == "*" {
		return true
	}
	if port == "" {
		port = defaultPort(scheme)
	}
	if sPort == "" {
		return port == defaultPort(scheme)
	}
	return sPort == port
}

// schemeMatches is CSP Level 3's scheme-part match: a source scheme a allows URL scheme b.
func schemeMatches(a, b string) bool {
	switch {
	case a == b:
		return true
	case a == "http":
		return b == "https"
	case a == "ws":
		return b == "wss" || b == "http" || b == "https"
	case a == "wss":
		return b == "https"
	case a == "https":
		return b == "wss"
	}
	return false
}

func defaultPort(scheme string) string {
	switch scheme {
	case "http", "ws":
		return "80"
	case "https", "wss":
		return "443"
	}
	return ""
}
