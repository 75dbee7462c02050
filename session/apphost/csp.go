package apphost

import (
	"net/netip"
	"regexp"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/protocol/apps"
)

// Refused is a source of the resource's declared CSP that the view's policy leaves out.
type Refused struct {
	List   string // connectDomains, resourceDomains, frameDomains or baseUriDomains
	Source string // as declared
	Why    string
}

// String is "list: source (why)".
func (r Refused) String() string { return r.List + ": " + r.Source + " (" + r.Why + ")" }

// sourceRE is the one shape of source the policy takes: an optional scheme, a host name
// (an optional leading "*." for its subdomains) or IPv4 address, an optional numeric port
// and an optional path of plain characters. Nothing in it can end the directive (";"), start
// another policy (","), or be a keyword ("'self'", "'unsafe-eval'").
var sourceRE = regexp.MustCompile(`(?i)^(?:([a-z][a-z0-9+.-]*)://)?(\*\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::([0-9]{1,5}))?(/[A-Za-z0-9._~%/-]*)?$`)

// localSuffixes are names that resolve on the user's machine or network, not on the web.
var localSuffixes = []string{"localhost", "localdomain", "local", "internal", "lan", "home.arpa", "intranet", "corp"}

// refusedSource says why the declared CSP source src stays out of the view's policy; ""
// when it goes in. Out: every origin or every origin of a scheme ("*", "https:"), a
// keyword, a port wildcard, a wildcard over a whole top-level domain, a scheme other than
// http(s) and ws(s), and every loopback, private or link-local address or name, so the
// app reaches none of the user's other local web apps through its policy.
func refusedSource(src string) string {
	m := sourceRE.FindStringSubmatch(src)
	switch {
	case src == "*":
		return "a wildcard: every origin"
	case strings.HasPrefix(src, "'"):
		return "a keyword, not an origin"
	case strings.HasSuffix(src, ":") && !strings.Contains(src, "/"):
		return "scheme-only: every origin of that scheme"
	case strings.Contains(src, ":*"):
		return "a port wildcard"
	case m == nil:
		return "not a host source (scheme://host[:port][/path])"
	}
	scheme, wild, host, port := strings.ToLower(m[1]), m[2] != "", strings.ToLower(m[3]), m[4]
	switch scheme {
	case "", "http", "https", "ws", "wss":
	default:
		return "the scheme " + scheme + ": is not the web's"
	}
	if n, _ := strconv.Atoi(port); port != "" && (n == 0 || n > 65535) {
		return "not a port"
	}
	labels := strings.Split(host, ".")
	last := labels[len(labels)-1]
	if strings.Trim(last, "0123456789") == "" || strings.HasPrefix(last, "0x") {
		// A browser reads a host ending in a number as an IPv4 address (127.1, 2130706433).
		ip, err := netip.ParseAddr(host)
		switch {
		case wild || err != nil || !ip.Is4():
			return "not a host name nor a dotted IPv4 address"
		case ip.IsLoopback():
			return "a loopback address: the user's own machine"
		case ip.IsPrivate(), ip.IsLinkLocalUnicast(), ip.IsUnspecified(), ip.IsMulticast(), ip.IsLinkLocalMulticast(),
			netip.MustParsePrefix("100.64.0.0/10").Contains(ip), ip == netip.MustParseAddr("255.255.255.255"):
			return "a private, link-local or special address: the user's network"
		}
		return ""
	}
	for _, s := range localSuffixes {
		if host == s || strings.HasSuffix(host, "."+s) {
			return "a name of the user's machine or network (." + s + ")"
		}
	}
	switch {
	case len(labels) == 1 && wild:
		return "a wildcard over a whole top-level domain"
	case len(labels) == 1:
		return "a single-label name: it resolves on the user's network"
	}
	return ""
}

// WebRTCNote says what the policy cannot do: CSP does not govern WebRTC.
const WebRTCNote = "not governed by CSP: the app may open peer connections (to any STUN or TURN server, " +
	"which can carry data out and reveal the machine's addresses). mcpscope adds webrtc 'block' " +
	"(CSP Level 3), which only a browser that knows the directive enforces."

// CheckCSP is c without the sources the host refuses (refusedSource), and those sources.
// A nil c (none declared) stays nil: the spec's restrictive default.
func CheckCSP(c *apps.CSP) (*apps.CSP, []Refused) {
	if c == nil {
		return nil, nil
	}
	var refused []Refused
	keep := func(list string, in []string) []string {
		var out []string
		for _, src := range in {
			if why := refusedSource(src); why != "" {
				refused = append(refused, Refused{List: list, Source: src, Why: why})
				continue
			}
			out = append(out, src)
		}
		return out
	}
	return &apps.CSP{
		ConnectDomains:  keep("connectDomains", c.ConnectDomains),
		ResourceDomains: keep("resourceDomains", c.ResourceDomains),
		FrameDomains:    keep("frameDomains", c.FrameDomains),
		BaseURIDomains:  keep("baseUriDomains", c.BaseURIDomains),
	}, refused
}
