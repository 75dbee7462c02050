package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	cardspec "github.com/mcpscope/mcpscope/protocol/card"
	"github.com/mcpscope/mcpscope/session"
	cardfetch "github.com/mcpscope/mcpscope/session/card"
	"github.com/mcpscope/mcpscope/session/check"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// CardCmd reads a server's card (the Server Cards extension) and compares it with the
// live server.
type CardCmd struct {
	Target       string        `arg:"" optional:"" help:"The server's Streamable HTTP URL, or a bare host (example.com, localhost:8080); default: --url." placeholder:"URL|HOST"`
	NoConnect    bool          `name:"no-connect" help:"Fetch and validate the card only; do not connect to compare it with the live server."`
	FailOn       string        `name:"fail-on" help:"Exit with code 8 when a finding is at least this severe: warning, error or none." enum:"warning,error,none" default:"error"`
	JSON         bool          `name:"json" help:"Print the report as JSON."`
	MaxCardBytes string        `name:"max-card-bytes" help:"Largest card or catalog read; a longer body is cut and not read." default:"1MiB" placeholder:"SIZE"`
	FetchTimeout time.Duration `name:"fetch-timeout" help:"How long each location may take, redirects and body included." default:"10s"`
}

// cardReport is what card found, as text or JSON.
type cardReport struct {
	Target    string              `json:"target"`
	Schema    map[string]string   `json:"schema"`
	Locations []cardfetch.Attempt `json:"locations"`
	Cards     []*cardfetch.Found  `json:"cards"`
	Live      *cardLive           `json:"live,omitempty"`
	Compared  []cardspec.Match    `json:"comparison,omitempty"`
	Notes     []string            `json:"notes,omitempty"`
	Findings  []protocol.Finding  `json:"-"`
	JFindings []map[string]string `json:"findings"`
}

// cardLive is what the connection showed.
type cardLive struct {
	URL       string                  `json:"url"`
	Transport string                  `json:"transport"`
	Revision  string                  `json:"revision"`
	Supported []string                `json:"supported,omitempty"`
	Server    protocol.Implementation `json:"server"`
}

// Run implements the command.
func (c CardCmd) Run(r *runner) error {
	r.ownFindings = true
	target := c.Target
	if target == "" {
		target = r.flags.URL
	}
	if target == "" {
		return usageError{fmt.Errorf("card needs a URL or a host: mcpscope card https://example.com/mcp, or mcpscope card example.com")}
	}
	tg, err := cardspec.ParseTarget(target)
	if err != nil {
		return usageError{fmt.Errorf("card %s: %w", target, err)}
	}
	maxBytes, err := parseSize(c.MaxCardBytes)
	if err != nil || maxBytes < 1 {
		return usageError{fmt.Errorf("--max-card-bytes %q: want a size such as 1MiB", c.MaxCardBytes)}
	}
	res := cardfetch.Discover(r.ctx, tg, cardfetch.Options{MaxBytes: maxBytes, Timeout: c.FetchTimeout, Report: r.cardLog.add})
	if r.ctx.Err() != nil {
		return r.ctx.Err()
	}
	rep := &cardReport{Target: target, Locations: res.Attempts, Cards: res.Cards, Findings: res.Findings,
		Schema: map[string]string{"version": cardspec.SchemaVersion, "url": cardspec.SchemaURL, "repository": cardspec.SchemaRepo,
			"commit": cardspec.SchemaCommit, "date": cardspec.SchemaDate}}
	var connErr error
	if found := res.Card(); found != nil && !c.NoConnect {
		connErr = c.compare(r, tg, found, rep)
	}
	if err := c.print(r, rep); err != nil {
		return err
	}
	switch {
	case connErr != nil:
		return connErr
	case !res.Reached():
		return codedError{ExitConnect, fmt.Errorf("%s: no location answered", target)}
	case res.Card() == nil:
		return codedError{ExitFailure, fmt.Errorf("%s: %w", target, errNoCard)}
	}
	if n := c.failures(rep.Findings); n > 0 {
		return findingsError{n}
	}
	return nil
}

// failures counts the findings at or above --fail-on.
func (c CardCmd) failures(fs []protocol.Finding) int {
	threshold := map[string]int{"warning": 1, "error": 2}[c.FailOn]
	if c.FailOn == "none" {
		return 0
	}
	n := 0
	for _, f := range fs {
		if check.Rank(f.Severity) >= threshold {
			n++
		}
	}
	return n
}

// compare connects to the endpoint and sets the card beside what the server says. The
// endpoint is the URL given, else the card's one remote; with several, or none usable, it
// says so in a note and does not connect.
func (c CardCmd) compare(r *runner, tg cardspec.Target, found *cardfetch.Found, rep *cardReport) error {
	endpoint, transport := tg.Endpoint, r.flags.Transport
	if endpoint == "" {
		usable, _ := usableRemotes(found.Card)
		switch len(usable) {
		case 0:
			rep.Notes = append(rep.Notes, "not compared with the live server: the card names no remote mcpscope can connect to as it is; give the endpoint URL")
			return nil
		case 1:
			endpoint = usable[0].URL
			if transport == "" {
				transport = map[string]string{cardspec.TypeStreamable: "http", cardspec.TypeSSE: "sse"}[usable[0].Type]
			}
		default:
			rep.Notes = append(rep.Notes, fmt.Sprintf("not compared with the live server: the card names %d remotes; give one: mcpscope card URL", len(usable)))
			return nil
		}
		if (len(r.flags.Header) > 0 || r.flags.Bearer != "") && !sameHost(endpoint, tg.Origin) {
			rep.Notes = append(rep.Notes, "not compared with the live server: its remote "+endpoint+" is on another host than the one named, and the -H headers and bearer token are not sent there; give the URL")
			return nil
		}
	}
	f := *r.flags
	f.URL, f.Transport = endpoint, transport
	// The fetches are published on the session, so --record has them.
	sub := &runner{ctx: r.ctx, flags: &f, stdin: r.stdin, stdout: r.stdout, stderr: r.stderr, ownFindings: true,
		cardLog: &exchangeLog{all: r.cardLog.take()}}
	s, done, err := sub.newSession(nil)
	if err != nil {
		return err
	}
	asked := watchAuth(s)
	err = s.Connect(r.ctx)
	if err != nil {
		done()
		return err
	}
	info := s.Info()
	done()
	live := &cardLive{URL: endpoint, Transport: info.Transport, Revision: string(info.Revision), Supported: info.SupportedVersions, Server: info.Implementation}
	rep.Live = live
	rep.Compared = cardspec.Compare(found.Card, cardspec.Live{Server: info.Implementation, Revision: string(info.Revision),
		Supported: info.SupportedVersions, URL: endpoint, Transport: info.Transport, Sent: sentHeaders(&f), AuthAsked: asked()})
	for _, m := range rep.Compared {
		if m.Finding != nil {
			rep.Findings = append(rep.Findings, *m.Finding)
		}
	}
	return nil
}

// sentHeaders are the names of the headers the command line supplies.
func sentHeaders(f *ServerFlags) []string {
	var out []string
	for _, h := range f.Header {
		if name, _, err := session.ParseHeader(h); err == nil {
			out = append(out, http.CanonicalHeaderKey(name))
		}
	}
	if f.Bearer != "" && !slices.Contains(out, "Authorization") {
		out = append(out, "Authorization")
	}
	return out
}

// watchAuth watches s's HTTP exchanges for a 401 with WWW-Authenticate, until s closes;
// the returned function says whether one came (call it after the session closed).
func watchAuth(s *session.Session) func() bool {
	sub := s.Subscribe(0)
	seen := make(chan bool, 1)
	go func() {
		asked := false
		for {
			evs, ok := sub.Next(context.Background(), 256)
			for _, e := range evs {
				if e.Kind == session.EvHTTP && e.HTTP != nil && e.HTTP.Status == http.StatusUnauthorized && e.HTTP.RespHeaders.Get("WWW-Authenticate") != "" {
					asked = true
				}
			}
			if !ok {
				seen <- asked
				return
			}
		}
	}()
	return func() bool { return <-seen }
}

// marshalFindings is the JSON form of findings, with their spec references.
func marshalFindings(fs []protocol.Finding) []map[string]string {
	out := []map[string]string{}
	for _, f := range fs {
		m := map[string]string{"code": f.Code, "severity": f.Severity.String(), "message": f.Message}
		if ref, ok := protocol.CardSpecRef(f.Code); ok {
			m["spec"] = ref.URL()
		}
		out = append(out, m)
	}
	return out
}

// print writes the report, as JSON or as text.
func (c CardCmd) print(r *runner, rep *cardReport) error {
	mask := r.flags.screenMasker(r.command)
	if c.JSON {
		rep.JFindings = marshalFindings(rep.Findings)
		if rep.Cards == nil {
			rep.Cards = []*cardfetch.Found{}
		}
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		// Escaped as JSON \u escapes: a card's text reaches the terminal as check's does.
		_, err = fmt.Fprintf(r.stdout, "%s\n", jsonview.EscapeJSON(mask.Bytes(b)))
		return err
	}
	_, err := r.stdout.Write([]byte(mask.String(cardText(rep))))
	return err
}
