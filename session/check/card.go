package check

import (
	"net/http"

	cardspec "github.com/mcpscope/mcpscope/protocol/card"
	"github.com/mcpscope/mcpscope/session"
	cardfetch "github.com/mcpscope/mcpscope/session/card"
)

// CardCheck is what the run saw of the server's card (the Server Cards extension).
type CardCheck struct {
	Found      bool                `json:"found"`
	Where      []string            `json:"where,omitempty"` // the locations that served it
	URL        string              `json:"url,omitempty"`
	Valid      bool                `json:"valid"`
	Problems   []cardspec.Problem  `json:"problems,omitempty"`
	Comparison []cardspec.Match    `json:"comparison,omitempty"`
	Locations  []cardfetch.Attempt `json:"locations"`
}

// cardStep reads the server's card, when check was given its URL, validates it and sets
// it beside what the handshake said. A missing card is information, not a fault: the
// extension is experimental. The fetches are published on the session, so they are in the
// timeline, the recording and HAR.
func (r *runner) cardStep(info session.ServerInfo) {
	if r.o.Card == "" {
		return
	}
	tg, err := cardspec.ParseTarget(r.o.Card)
	if err != nil {
		r.note("server card: %v", err)
		return
	}
	res := cardfetch.Discover(r.ctx, tg, cardfetch.Options{Report: r.s.ReportHTTP})
	cc := &CardCheck{Locations: res.Attempts}
	r.run.Card = cc
	for _, f := range res.Findings {
		r.add(f)
	}
	found := res.Card()
	if found == nil {
		return
	}
	cc.Found, cc.Where, cc.URL, cc.Valid, cc.Problems = true, found.Where, found.URL, found.Valid(), found.Problems
	endpoint := tg.Endpoint
	if endpoint == "" {
		endpoint = tg.Origin
	}
	cc.Comparison = cardspec.Compare(found.Card, cardspec.Live{Server: info.Implementation, Revision: string(info.Revision),
		Supported: info.SupportedVersions, URL: endpoint, Transport: info.Transport, Sent: r.o.CardSent, AuthAsked: r.authAsked()})
	for _, m := range cc.Comparison {
		if m.Finding != nil {
			r.add(*m.Finding)
		}
	}
}

// authAsked reports whether the server answered 401 with WWW-Authenticate so far.
func (r *runner) authAsked() bool {
	for _, e := range r.ev.snapshot() {
		if e.Kind == session.EvHTTP && e.HTTP != nil && e.HTTP.Status == http.StatusUnauthorized && e.HTTP.RespHeaders.Get("WWW-Authenticate") != "" {
			return true
		}
	}
	return false
}
