package card

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Kinds of location.
const (
	KindCard    = "card"    // the answer is a card
	KindCatalog = "catalog" // the answer is an AI Catalog naming cards
)

// Location is one place a card may be.
type Location struct {
	Label string `json:"label"` // how the place is named: "<endpoint>/server-card", "/.well-known/ai-catalog.json", ...
	URL   string `json:"url"`
	Kind  string `json:"kind"`
	// Normative: the extension's current text names the place (the reserved
	// <endpoint>/server-card, the AI Catalog's well-known URI); the others are earlier
	// drafts' places that servers still use.
	Normative bool `json:"normative"`
}

// Target is what the user named: an endpoint URL, or a bare host.
type Target struct {
	// Origin is scheme://host[:port].
	Origin string
	// Endpoint is the Streamable HTTP URL given, without query or fragment; "" for a bare host.
	Endpoint string
	// Host is what a bare host was given as; "" for a URL.
	Host string
}

// IsBareHost reports whether s names a host with no scheme and no path (example.com,
// localhost:8080, [::1]:8080), which mcpscope resolves through the host's server card.
func IsBareHost(s string) bool {
	if s == "" || strings.Contains(s, "://") || strings.ContainsAny(s, "/?#@ \t") {
		return false
	}
	host := s
	if h, port, err := net.SplitHostPort(s); err == nil {
		if port == "" || strings.Trim(port, "0123456789") != "" {
			return false
		}
		host = h
	} else if strings.Count(s, ":") > 0 && !strings.HasPrefix(s, "[") {
		return false // "a:b" with a port that is not one, or "mailto:x"
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return host != "" && (net.ParseIP(host) != nil || validHostname(host))
}

// validHostname is a DNS name of letters, digits, hyphens and dots.
func validHostname(h string) bool {
	for _, label := range strings.Split(strings.TrimSuffix(h, "."), ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// loopback reports whether host (no port) is this machine: there, plain HTTP is the
// default, as the extension allows HTTP for local development only.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// ParseTarget reads what the user named: an http(s) URL (its path, when it has one, is the
// Streamable HTTP endpoint), or a bare host (https, or http for a loopback host).
func ParseTarget(s string) (Target, error) {
	if IsBareHost(s) {
		scheme := "https"
		host := s
		if h, _, err := net.SplitHostPort(s); err == nil {
			host = h
		}
		if loopback(host) {
			scheme = "http"
		}
		return Target{Origin: scheme + "://" + strings.ToLower(s), Host: s}, nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return Target{}, fmt.Errorf("%q is neither a URL nor a host: %w", s, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return Target{}, errors.New("want an http(s) URL or a bare host such as example.com or localhost:8080")
	}
	if u.User != nil {
		return Target{}, errors.New("a URL with user information is not fetched: give credentials with -H or --bearer")
	}
	t := Target{Origin: u.Scheme + "://" + u.Host}
	if p := strings.TrimRight(u.EscapedPath(), "/"); p != "" {
		t.Endpoint = t.Origin + p
	}
	return t, nil
}

// Locations are the places to ask for a target's card, in order: the reserved
// <endpoint>/server-card (when an endpoint was given), the AI Catalog, then the places of
// earlier drafts.
func (t Target) Locations() []Location {
	var out []Location
	if t.Endpoint != "" {
		out = append(out, Location{Label: "<endpoint>/server-card", URL: t.Endpoint + "/server-card", Kind: KindCard, Normative: true})
	}
	return append(out,
		Location{Label: "/.well-known/ai-catalog.json", URL: t.Origin + "/.well-known/ai-catalog.json", Kind: KindCatalog, Normative: true},
		Location{Label: "/.well-known/mcp/server-card.json", URL: t.Origin + "/.well-known/mcp/server-card.json", Kind: KindCard},
		Location{Label: "/.well-known/mcp/server-card", URL: t.Origin + "/.well-known/mcp/server-card", Kind: KindCard},
		Location{Label: "/.well-known/mcp/catalog.json", URL: t.Origin + "/.well-known/mcp/catalog.json", Kind: KindCatalog},
	)
}
