package card

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
	cardspec "github.com/mcpscope/mcpscope/protocol/card"
)

// Accept headers: the card's media type first, as the extension asks, JSON as a fallback.
const (
	acceptCard    = cardspec.MediaType + ", application/json;q=0.5"
	acceptCatalog = cardspec.CatalogMediaType + ", application/json;q=0.5"
)

// maxEntryFetches bounds the card URLs fetched from catalogs in one discovery.
const maxEntryFetches = 8

// Attempt is one location asked and what it answered.
type Attempt struct {
	Location    cardspec.Location `json:"location"`
	URL         string            `json:"url"` // the URL that answered, after redirects
	Status      int               `json:"status,omitempty"`
	ContentType string            `json:"contentType,omitempty"`
	Size        int64             `json:"size"`
	Cut         bool              `json:"cut,omitempty"`
	Redirects   []string          `json:"redirects,omitempty"`
	Err         string            `json:"error,omitempty"`
	// Answer says what the answer was: "card", "catalog (N card entries)", "not found", "HTML, not a card", ...
	Answer string `json:"answer"`
}

// Found is one card, and everywhere it was served.
type Found struct {
	Where    []string           `json:"where"` // location labels, or "catalog entry ID"
	URL      string             `json:"url"`   // where it was first read; "" for a card inline in a catalog
	Raw      json.RawMessage    `json:"card"`
	Card     cardspec.Card      `json:"-"`
	Problems []cardspec.Problem `json:"problems,omitempty"` // against the shipped schema
}

// Valid reports whether the card conforms to the schema.
func (f *Found) Valid() bool { return len(f.Problems) == 0 }

// Result is a discovery: what each location answered, the cards found and the findings.
type Result struct {
	Target   cardspec.Target    `json:"-"`
	Attempts []Attempt          `json:"locations"`
	Cards    []*Found           `json:"cards"`
	Findings []protocol.Finding `json:"-"`
}

// Card is the first card found (locations are asked in order of preference), or nil.
func (r *Result) Card() *Found {
	if len(r.Cards) == 0 {
		return nil
	}
	return r.Cards[0]
}

// Reached reports whether any location answered at all (a status, whatever it was).
func (r *Result) Reached() bool {
	for _, a := range r.Attempts {
		if a.Status != 0 {
			return true
		}
	}
	return false
}

// discovery is the state of one Discover.
type discovery struct {
	ctx     context.Context
	o       Options
	res     *Result
	fetched map[string]bool // URLs asked already
	entries int             // catalog card URLs fetched
}

// Discover asks every location of target for a card, reads the catalogs it finds and the
// cards they name, and validates each card against the shipped schema. It sends no
// credentials and reports every exchange to o.Report.
func Discover(ctx context.Context, target cardspec.Target, o Options) *Result {
	o.fill()
	d := &discovery{ctx: ctx, o: o, res: &Result{Target: target}, fetched: map[string]bool{}}
	for _, loc := range target.Locations() {
		if ctx.Err() != nil {
			break
		}
		if d.fetched[loc.URL] { // a catalog entry named it
			for _, c := range d.res.Cards {
				if c.URL == loc.URL {
					c.Where = append(c.Where, loc.Label)
				}
			}
			d.res.Attempts = append(d.res.Attempts, Attempt{Location: loc, URL: loc.URL, Answer: "asked already, as a catalog entry"})
			continue
		}
		d.location(loc)
	}
	if len(d.res.Cards) == 0 {
		n := len(d.res.Attempts)
		d.add(protocol.NewFinding(protocol.FindCardMissing, "no server card at any of the %d locations asked", n))
	}
	for _, c := range d.res.Cards {
		if !c.Valid() {
			d.add(protocol.NewFinding(protocol.FindCardSchema, "the card at %s fails the %s schema: %d problem(s), the first %s",
				c.Where[0], cardspec.SchemaVersion, len(c.Problems), c.Problems[0]))
		}
	}
	return d.res
}

func (d *discovery) add(f protocol.Finding) { d.res.Findings = append(d.res.Findings, f) }

// location asks one location.
func (d *discovery) location(loc cardspec.Location) {
	accept := acceptCard
	if loc.Kind == cardspec.KindCatalog {
		accept = acceptCatalog
	}
	d.fetched[loc.URL] = true
	f := fetch(d.ctx, &d.o, loc.URL, accept, loc.Label)
	a := Attempt{Location: loc, URL: f.url, Status: f.status, ContentType: f.contentType, Size: f.size, Cut: f.cut, Redirects: f.redirects}
	// The attempt takes its place before the catalog's entries are asked.
	d.res.Attempts = append(d.res.Attempts, Attempt{})
	at := len(d.res.Attempts) - 1
	defer func() { d.res.Attempts[at] = a }()
	switch {
	case f.err != nil:
		a.Err, a.Answer = f.err.Error(), "failed"
		if f.status != 0 || errors.Is(f.err, errCrossOrigin) {
			d.add(protocol.NewFinding(protocol.FindCardUnreadable, "%s: %v", loc.Label, f.err))
		}
		return
	case f.status != 200:
		a.Answer = fmt.Sprintf("no (%d)", f.status)
		return
	case f.cut:
		a.Answer = "too large"
		d.add(protocol.NewFinding(protocol.FindCardUnreadable, "%s: the body is longer than %d bytes; mcpscope read no further", loc.Label, d.o.MaxBytes))
		return
	case !json.Valid(f.body):
		if mediaType(f.contentType) == "text/html" {
			a.Answer = "HTML, not a card" // a site that answers every path with its page
			return
		}
		a.Answer = "not JSON"
		d.add(protocol.NewFinding(protocol.FindCardUnreadable, "%s: the body (%d bytes, %s) is not JSON", loc.Label, f.size, orNone(f.contentType)))
		return
	}
	if loc.Kind == cardspec.KindCatalog {
		a.Answer = d.catalog(loc, f)
		return
	}
	a.Answer = d.card(loc.Label, f.url, f.contentType, f.body)
}

// card reads one card's bytes and says what they were.
func (d *discovery) card(where, u, contentType string, body []byte) string {
	raw := bytes.TrimSpace(body)
	c, err := cardspec.Decode(raw)
	if err != nil {
		d.add(protocol.NewFinding(protocol.FindCardUnreadable, "%s: %v", where, err))
		return "not a card (" + err.Error() + ")"
	}
	if u != "" && mediaType(contentType) != cardspec.MediaType {
		d.add(protocol.NewFinding(protocol.FindCardMediaType, "%s: served as %s, not %s", where, orNone(contentType), cardspec.MediaType))
	}
	for _, f := range d.res.Cards {
		if bytes.Equal(f.Raw, raw) {
			f.Where = append(f.Where, where)
			return "card (the same as at " + f.Where[0] + ")"
		}
	}
	problems, err := cardspec.Validate(raw)
	if err != nil {
		problems = []cardspec.Problem{{Message: err.Error()}}
	}
	d.res.Cards = append(d.res.Cards, &Found{Where: []string{where}, URL: u, Raw: raw, Card: c, Problems: problems})
	if len(problems) > 0 {
		return fmt.Sprintf("card, %d schema problem(s)", len(problems))
	}
	return "card, valid"
}

// catalog reads an AI Catalog and the cards it names.
func (d *discovery) catalog(loc cardspec.Location, f fetched) string {
	entries, findings, skipped := cardspec.ParseCatalog(f.body)
	for _, fd := range findings {
		fd.Message = loc.Label + ": " + fd.Message
		d.add(fd)
	}
	if skipped > 0 {
		d.add(protocol.NewFinding(protocol.FindCardCatalog, "%s: %d more card entries not read", loc.Label, skipped))
	}
	for _, e := range entries {
		where := "catalog entry " + e.Identifier
		if e.Identifier == "" {
			where = "catalog entry (no identifier)"
		}
		if e.Data != nil {
			d.card(where+" (inline)", "", "", e.Data)
			continue
		}
		target, err := d.entryURL(f.url, e.URL)
		if err != nil {
			d.add(protocol.NewFinding(protocol.FindCardCatalog, "%s: url %q: %v", where, e.URL, err))
			continue
		}
		if d.fetched[target] {
			for _, c := range d.res.Cards {
				if c.URL == target {
					c.Where = append(c.Where, where)
				}
			}
			continue // asked already
		}
		if d.ctx.Err() != nil {
			continue
		}
		if d.entries == maxEntryFetches {
			d.add(protocol.NewFinding(protocol.FindCardCatalog, "%s: not fetched; mcpscope fetches %d card URLs of catalogs at most", where, maxEntryFetches))
			continue
		}
		d.entries++
		d.location(cardspec.Location{Label: where, URL: target, Kind: cardspec.KindCard, Normative: loc.Normative})
	}
	return fmt.Sprintf("catalog, %d card entr%s", len(entries), plural(len(entries), "y", "ies"))
}

// entryURL resolves a catalog entry's url against the catalog's.
func (d *discovery) entryURL(base, ref string) (string, error) {
	t, err := cardspec.ParseTarget(ref)
	if err != nil || t.Host != "" {
		if b, perr := parseURL(base); perr == nil {
			if r, rerr := b.Parse(ref); rerr == nil && (r.Scheme == "http" || r.Scheme == "https") && r.User == nil {
				return r.String(), nil
			}
		}
		if err == nil {
			err = errors.New("not a URL")
		}
		return "", err
	}
	return ref, nil
}

func orNone(s string) string {
	if s == "" {
		return "no Content-Type"
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Lines is a short text of the result's findings, for a log.
func (r *Result) Lines() []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.Severity.String()+" "+f.Code+": "+strings.TrimSpace(f.Message))
	}
	return out
}
