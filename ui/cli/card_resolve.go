package cli

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"

	cardspec "github.com/mcpscope/mcpscope/protocol/card"
	"github.com/mcpscope/mcpscope/session"
	cardfetch "github.com/mcpscope/mcpscope/session/card"
	"github.com/mcpscope/mcpscope/session/transport"
)

// exchangeLog collects the exchanges of a card discovery, to publish them on the session
// made afterwards (Session.ReportHTTP), so a recording has them.
type exchangeLog struct {
	mu  sync.Mutex
	all []*transport.HTTPExchange
}

func (l *exchangeLog) add(ex *transport.HTTPExchange) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = append(l.all, ex)
}

func (l *exchangeLog) take() []*transport.HTTPExchange {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.all
	l.all = nil
	return out
}

// codedError is an error with its exit code.
type codedError struct {
	code int
	err  error
}

func (e codedError) Error() string { return e.err.Error() }
func (e codedError) Unwrap() error { return e.err }
func (e codedError) ExitCode() int { return e.code }

// usableRemotes are the remotes mcpscope can connect to as they are: an http(s) URL with
// no template variable, of a transport it speaks.
func usableRemotes(c cardspec.Card) (usable, other []cardspec.Remote) {
	for _, rm := range c.Remotes {
		u, err := url.Parse(rm.URL)
		if rm.Templated() || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
			(rm.Type != cardspec.TypeStreamable && rm.Type != cardspec.TypeSSE) {
			other = append(other, rm)
			continue
		}
		usable = append(usable, rm)
	}
	return usable, other
}

// resolveHost turns a bare host given as --url (example.com, localhost:8080) into the
// endpoint its server card names. One remote: --url becomes it (and --transport its type,
// unless given). Several: the interactive view offers them in its server picker (pick);
// a headless command fails, listing them. No card, or none usable: it fails, saying what
// was asked. The command line's -H headers and bearer token are for the host named; a
// remote on another host does not get them, so that case fails too, naming the remote.
func (r *runner) resolveHost(pick bool) error {
	host := r.flags.URL
	if !cardspec.IsBareHost(host) {
		return nil
	}
	tg, err := cardspec.ParseTarget(host)
	if err != nil {
		return usageError{fmt.Errorf("--url %s: %w", host, err)}
	}
	res := cardfetch.Discover(r.ctx, tg, cardfetch.Options{Report: r.cardLog.add})
	if r.ctx.Err() != nil {
		return r.ctx.Err()
	}
	c := res.Card()
	if c == nil {
		var asked []string
		for _, a := range res.Attempts {
			answer := a.Answer
			if a.Err != "" {
				answer += ": " + a.Err
			}
			asked = append(asked, fmt.Sprintf("%s %s", a.URL, answer))
		}
		return codedError{ExitConnect, fmt.Errorf("--url %s: a bare host is reached through its server card, and none was found (%s); give the endpoint, such as --url %s/mcp",
			host, strings.Join(asked, "; "), tg.Origin)}
	}
	usable, other := usableRemotes(c.Card)
	if len(usable) == 0 {
		var named []string
		for _, rm := range other {
			named = append(named, rm.Type+" "+rm.URL)
		}
		return codedError{ExitConnect, fmt.Errorf("--url %s: the server card (%s) names no remote mcpscope can connect to as it is (%s); give the endpoint with --url",
			host, c.Where[0], orNothing(strings.Join(named, ", ")))}
	}
	credentials := len(r.flags.Header) > 0 || r.flags.Bearer != ""
	if len(usable) > 1 {
		if pick {
			r.flags.cardPick = r.cardServers(host, c, usable, credentials)
			return nil
		}
		var lines []string
		for _, rm := range usable {
			lines = append(lines, "  --url "+rm.URL+"   ("+rm.Type+")")
		}
		return usageError{fmt.Errorf("--url %s: the server card (%s) names %d remotes; pick one with --url:\n%s",
			host, c.Where[0], len(usable), strings.Join(lines, "\n"))}
	}
	rm := usable[0]
	if credentials && !sameHost(rm.URL, tg.Origin) {
		return usageError{fmt.Errorf("--url %s: the server card names a remote on another host, %s; the -H headers and bearer token given for %s are not sent there: give --url %s to send them",
			host, rm.URL, host, rm.URL)}
	}
	r.flags.URL = rm.URL
	if r.flags.Transport == "" {
		r.flags.Transport = map[string]string{cardspec.TypeStreamable: "http", cardspec.TypeSSE: "sse"}[rm.Type]
	}
	if !r.flags.Quiet {
		fmt.Fprintf(r.stderr, "mcpscope: %s: the server card (%s) names %s (%s); connecting there\n", host, c.Where[0], rm.URL, rm.Type)
	}
	return nil
}

// cardServers are the card's remotes as the picker's servers. The command line's
// credentials go with a remote on the host named only.
func (r *runner) cardServers(host string, c *cardfetch.Found, remotes []cardspec.Remote, credentials bool) []session.ConfiguredServer {
	origin := "https://" + host
	if tg, err := cardspec.ParseTarget(host); err == nil {
		origin = tg.Origin
	}
	var out []session.ConfiguredServer
	for _, rm := range remotes {
		f := *r.flags
		f.URL, f.Transport, f.cardPick = rm.URL, map[string]string{cardspec.TypeStreamable: "http", cardspec.TypeSSE: "sse"}[rm.Type], nil
		if credentials && !sameHost(rm.URL, origin) {
			f.Header, f.Bearer = nil, ""
		}
		sp, err := f.spec(nil)
		if err != nil {
			continue
		}
		sp.Name = rm.URL
		out = append(out, session.ConfiguredServer{Source: session.ConfigSource{Host: "server card", Path: c.Where[0]}, Name: rm.Type, Spec: sp})
	}
	return out
}

// sameHost reports whether u is on origin's host (any port or scheme).
func sameHost(u, origin string) bool {
	a, err1 := url.Parse(u)
	b, err2 := url.Parse(origin)
	return err1 == nil && err2 == nil && strings.EqualFold(a.Hostname(), b.Hostname())
}

func orNothing(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// reportCardExchanges publishes the card fetches made before s existed.
func (r *runner) reportCardExchanges(s *session.Session) {
	for _, ex := range r.cardLog.take() {
		s.ReportHTTP(ex)
	}
}

// errNoCard is card's failure when no location answered with a card.
var errNoCard = errors.New("no server card found")
