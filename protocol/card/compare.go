package card

import (
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
)

// Live is what a connection showed of the server, to set beside its card.
type Live struct {
	Server protocol.Implementation
	// Revision is the revision negotiated; Supported the versions server/discover listed
	// (none in the initialize era, where only the negotiated one is known).
	Revision  string
	Supported []string
	// URL is the endpoint connected to; Transport the session's transport ("http" for
	// Streamable HTTP, "sse" for HTTP+SSE).
	URL       string
	Transport string
	// Sent are the names of the headers the connection supplied of its own accord (-H, the
	// bearer token's Authorization).
	Sent []string
	// AuthAsked: the server answered 401 with WWW-Authenticate.
	AuthAsked bool
}

// Match is one line of a comparison: what the card says, what the live server showed, and
// the finding when they disagree.
type Match struct {
	Field   string            `json:"field"`
	Card    string            `json:"card"`
	Live    string            `json:"live"`
	OK      bool              `json:"ok"`
	Finding *protocol.Finding `json:"finding,omitempty"`
}

// Compare sets card beside live.
func Compare(c Card, live Live) []Match {
	var out []Match
	add := func(field, cardV, liveV string, ok bool, code, format string, args ...any) {
		m := Match{Field: field, Card: cardV, Live: liveV, OK: ok}
		if !ok && code != "" {
			f := protocol.NewFinding(code, format, args...)
			m.Finding = &f
		}
		out = append(out, m)
	}
	add("name", c.Name, live.Server.Name, nameMatches(c.Name, live.Server.Name), protocol.FindCardIdentity,
		"the card's name %q is not serverInfo.name %q (nor its namespace and that name)", c.Name, live.Server.Name)
	add("version", c.Version, live.Server.Version, c.Version == live.Server.Version, protocol.FindCardIdentity,
		"the card says version %q, serverInfo.version is %q", c.Version, live.Server.Version)
	if c.Title != "" && live.Server.Title != "" {
		add("title", c.Title, live.Server.Title, c.Title == live.Server.Title, protocol.FindCardIdentity,
			"the card's title %q is not serverInfo.title %q", c.Title, live.Server.Title)
	}
	if len(c.Remotes) == 0 {
		add("remote", "(none)", live.URL, true, "", "")
		return out
	}
	i := MatchRemote(c.Remotes, live.URL)
	if i < 0 {
		var urls []string
		for _, r := range c.Remotes {
			urls = append(urls, r.URL)
		}
		add("remote", strings.Join(urls, ", "), live.URL, false, protocol.FindCardRemote,
			"no remote of the card names %s, the URL used (the card names %s)", live.URL, strings.Join(urls, ", "))
		return out
	}
	r := c.Remotes[i]
	add("remote", r.URL, live.URL, true, "", "")
	liveType := liveTransportType(live.Transport)
	add("transport", r.Type, liveType, r.Type == liveType, protocol.FindCardRemote,
		"the card says %s serves %s; the connection used %s", r.URL, r.Type, liveType)
	out = append(out, compareVersions(r, live)...)
	for _, h := range r.Headers {
		if !h.Required {
			continue
		}
		sent := slices.ContainsFunc(live.Sent, func(s string) bool { return strings.EqualFold(s, h.Name) })
		liveV := "not sent; the server answered"
		if sent {
			liveV = "sent"
		}
		add("header "+h.Name, "required", liveV, sent, protocol.FindCardHeaders,
			"the card says header %s is required; the server accepted the connection without it", h.Name)
	}
	if live.AuthAsked && !slices.ContainsFunc(r.Headers, func(h Header) bool { return strings.EqualFold(h.Name, "Authorization") }) {
		add("header Authorization", "(not listed)", "asked for (401)", false, protocol.FindCardHeaderUnlist,
			"the server asked for authorization; the card's remote %s lists no Authorization header", r.URL)
	}
	return out
}

// compareVersions sets the remote's supportedProtocolVersions beside the live revisions.
func compareVersions(r Remote, live Live) []Match {
	if len(r.Versions) == 0 {
		return []Match{{Field: "protocol versions", Card: "(not listed)", Live: live.Revision, OK: true}}
	}
	listed := strings.Join(r.Versions, ", ")
	var out []Match
	ok := live.Revision == "" || slices.Contains(r.Versions, live.Revision)
	m := Match{Field: "negotiated revision", Card: listed, Live: live.Revision, OK: ok}
	if !ok {
		f := protocol.NewFinding(protocol.FindCardVersions, "the server negotiated %s, which the card's remote does not list (%s)", live.Revision, listed)
		m.Finding = &f
	}
	out = append(out, m)
	if len(live.Supported) > 0 {
		var over []string
		for _, v := range r.Versions {
			if !slices.Contains(live.Supported, v) {
				over = append(over, v)
			}
		}
		m := Match{Field: "protocol versions", Card: listed, Live: strings.Join(live.Supported, ", "), OK: len(over) == 0}
		if len(over) > 0 {
			f := protocol.NewFinding(protocol.FindCardVersions, "the card lists %s, which server/discover does not (it lists %s)",
				strings.Join(over, ", "), m.Live)
			m.Finding = &f
		}
		out = append(out, m)
	}
	return out
}

// nameMatches: the card's reverse-DNS name is serverInfo.name, or its namespace and that name.
func nameMatches(cardName, live string) bool {
	if cardName == live {
		return true
	}
	_, local, ok := strings.Cut(cardName, "/")
	return ok && local != "" && local == live
}

// liveTransportType is a session transport's name as a card's remote type.
func liveTransportType(t string) string {
	switch t {
	case "http", "streamable", TypeStreamable:
		return TypeStreamable
	case "sse", "legacy-sse":
		return TypeSSE
	}
	return t
}

// MatchRemote is the index of the remote naming u (the same URL, or a url template it
// fills), or -1.
func MatchRemote(remotes []Remote, u string) int {
	want := normalURL(u)
	for i, r := range remotes {
		if normalURL(r.URL) == want {
			return i
		}
	}
	for i, r := range remotes {
		if r.Templated() && templateRegexp(r.URL).MatchString(u) {
			return i
		}
	}
	return -1
}

// normalURL makes two spellings of one URL equal: scheme and host in lower case, the
// default port dropped, no trailing slash, no fragment.
func normalURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return s
	}
	u.Scheme, u.Host, u.Fragment = strings.ToLower(u.Scheme), strings.ToLower(u.Host), ""
	if h, p, ok := strings.Cut(u.Host, ":"); ok && (u.Scheme == "https" && p == "443" || u.Scheme == "http" && p == "80") {
		u.Host = h
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u.String()
}

var templateVar = regexp.MustCompile(`\{[a-zA-Z_][a-zA-Z0-9_]*\}`)

// templateRegexp matches the URLs a url template fills: each {variable} is one or more
// characters that are not a slash.
func templateRegexp(tpl string) *regexp.Regexp {
	parts := templateVar.Split(tpl, -1)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(strings.TrimRight(p, "/"))
		if i < len(parts)-1 {
			parts[i] = regexp.QuoteMeta(p)
		}
	}
	return regexp.MustCompile(`(?i)^` + strings.Join(parts, `[^/\s]+`) + `/?$`)
}
