package protocol

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime"
	"strings"

	"github.com/mcpscope/mcpscope/protocol/apps"
)

// The MCP Apps extension's finding codes (io.modelcontextprotocol/ui, spec 2026-01-26).
const (
	FindAppResource   = "apps.resource"       // a tool's resourceUri does not resolve with resources/read
	FindAppScheme     = "apps.scheme"         // a resourceUri that is not a ui:// URI
	FindAppMIMEType   = "apps.mime-type"      // a UI resource whose mimeType is not text/html;profile=mcp-app
	FindAppContent    = "apps.content"        // UI resource content with neither text nor (valid base64) blob
	FindAppHTML       = "apps.not-html5"      // UI resource content that is not an HTML5 document
	FindAppCSP        = "apps.csp-undeclared" // origins the HTML uses that its CSP does not declare
	FindAppVisibility = "apps.visibility"     // a visibility that is not an array of "model" and "app"
	FindAppFlatKey    = "apps.deprecated-key" // the deprecated flat _meta["ui/resourceUri"]
	FindAppMeta       = "apps.meta"           // a resource's _meta.ui that does not decode
	FindAppEval       = "apps.eval"           // the HTML compiles code from text (eval, new Function), which the default policy forbids
)

// AppsSpecRef is the section of the MCP Apps specification a code rests on; ok is false for
// a code that is not the extension's.
func AppsSpecRef(code string) (SpecRef, bool) {
	section := ""
	switch code {
	case FindAppResource:
		section = "Resource Discovery"
	case FindAppScheme, FindAppMIMEType, FindAppContent, FindAppHTML:
		section = "Content Requirements"
	case FindAppCSP, FindAppEval:
		section = "Host Behavior"
	case FindAppVisibility:
		section = "Visibility"
	case FindAppFlatKey:
		section = "Resource Discovery"
	case FindAppMeta:
		section = "UI Resource Format"
	default:
		return SpecRef{}, false
	}
	return SpecRef{Revision: apps.SpecRevision, Page: "MCP Apps", Section: section, Doc: apps.SpecURL}, true
}

// CheckAppTool checks a tool's link to its app: the deprecated flat key, a resourceUri that
// is not ui://, a visibility that is not an array of "model" and "app".
func CheckAppTool(raw json.RawMessage) []Finding {
	var t struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(raw, &t) != nil {
		return nil
	}
	l, ok := apps.ToolLinkOf(RawMeta(raw))
	if !ok {
		return nil
	}
	var out []Finding
	if l.Flat {
		out = append(out, NewFinding(FindAppFlatKey,
			"tool %q links its app with the deprecated flat _meta[\"ui/resourceUri\"]; use _meta.ui.resourceUri", t.Name))
	}
	if l.HasApp() && !strings.HasPrefix(l.ResourceURI, apps.Scheme) {
		out = append(out, NewFinding(FindAppScheme, "tool %q: resourceUri %q does not use the ui:// scheme", t.Name, l.ResourceURI))
	}
	switch {
	case l.VisibilityBad:
		out = append(out, NewFinding(FindAppVisibility, "tool %q: _meta.ui.visibility is not an array of strings", t.Name))
	case l.Visibility != nil && len(l.Visibility) == 0:
		out = append(out, NewFinding(FindAppVisibility, "tool %q: _meta.ui.visibility is empty: neither the model nor the app may call it", t.Name))
	}
	if u := l.UnknownVisibility(); len(u) > 0 {
		out = append(out, NewFinding(FindAppVisibility, "tool %q: visibility %q: the extension knows only \"model\" and \"app\"", t.Name, u))
	}
	return out
}

// IsAppMIMEType reports whether a mimeType is the extension's (text/html;profile=mcp-app,
// spelled with any case or spaces MIME allows).
func IsAppMIMEType(s string) bool {
	t, params, err := mime.ParseMediaType(s)
	return err == nil && t == "text/html" && params["profile"] == "mcp-app"
}

// CheckAppListing checks a resources/list entry with a ui:// URI: its mimeType.
func CheckAppListing(raw json.RawMessage) []Finding {
	var r struct {
		URI  string `json:"uri"`
		MIME string `json:"mimeType"`
	}
	if json.Unmarshal(raw, &r) != nil || !strings.HasPrefix(r.URI, apps.Scheme) || IsAppMIMEType(r.MIME) {
		return nil
	}
	return []Finding{NewFinding(FindAppMIMEType, "UI resource %s is listed with mimeType %q, not %q", r.URI, r.MIME, apps.MIMEType)}
}

// AppPage is a UI resource as read: its HTML (nil when the content has none), the HTML's
// summary, and the metadata that applies (the content's _meta.ui, else the listing's).
type AppPage struct {
	URI     string
	HTML    []byte
	Summary apps.HTMLSummary
	Meta    apps.ResourceMeta
	HasMeta bool
}

// CheckAppRead checks the resources/read result of a UI resource: contents, then the
// content with the resource's uri (else the first) as CheckAppContent does. listing is the
// resource's resources/list entry (nil when the server does not list it, as it may). The
// page is returned for a caller that shows it.
func CheckAppRead(uri string, result, listing json.RawMessage) (AppPage, []Finding) {
	var res struct {
		Contents []json.RawMessage `json:"contents"`
	}
	if json.Unmarshal(result, &res) != nil || len(res.Contents) == 0 {
		return AppPage{URI: uri}, []Finding{NewFinding(FindAppResource, "UI resource %s: resources/read returned no contents", uri)}
	}
	c := res.Contents[0]
	for _, x := range res.Contents {
		var u struct {
			URI string `json:"uri"`
		}
		if json.Unmarshal(x, &u) == nil && u.URI == uri {
			c = x
			break
		}
	}
	return CheckAppContent(uri, c, listing)
}

// CheckAppContent checks one content item of a UI resource: MIME type, text or blob, an
// HTML5 document, the origins its CSP (the content's _meta.ui, else the listing's) does not
// declare. listing may be nil.
//
// Bounded: it reads the content once, in time linear in its size (apps.SummarizeHTML); the
// explorer calls it only where a result is laid out (inline up to 64 KiB, else in a command).
func CheckAppContent(uri string, content, listing json.RawMessage) (AppPage, []Finding) {
	page := AppPage{URI: uri}
	var c struct {
		MIME *string `json:"mimeType"`
		Text *string `json:"text"`
		Blob *string `json:"blob"`
	}
	if json.Unmarshal(content, &c) != nil {
		return page, []Finding{NewFinding(FindAppContent, "UI resource %s: the content is not an object", uri)}
	}
	var out []Finding
	switch {
	case c.MIME == nil:
		out = append(out, NewFinding(FindAppMIMEType, "UI resource %s: the content has no mimeType; it MUST be %q", uri, apps.MIMEType))
	case !IsAppMIMEType(*c.MIME):
		out = append(out, NewFinding(FindAppMIMEType, "UI resource %s: the content's mimeType is %q; it MUST be %q", uri, *c.MIME, apps.MIMEType))
	}
	switch {
	case c.Text != nil:
		page.HTML = []byte(*c.Text)
	case c.Blob != nil:
		b, err := base64.StdEncoding.DecodeString(*c.Blob)
		if err != nil {
			out = append(out, NewFinding(FindAppContent, "UI resource %s: blob is not valid base64: %v", uri, err))
		} else {
			page.HTML = b
		}
	default:
		out = append(out, NewFinding(FindAppContent, "UI resource %s: the content has neither text nor blob", uri))
	}
	meta := RawMeta(content)
	if _, ok, _ := apps.ResourceMetaOf(meta); !ok && len(listing) > 0 {
		meta = RawMeta(listing)
	}
	m, ok, err := apps.ResourceMetaOf(meta)
	if err != nil {
		out = append(out, NewFinding(FindAppMeta, "UI resource %s: _meta.ui does not decode: %v", uri, err))
	}
	page.Meta, page.HasMeta = m, ok && err == nil
	if page.HTML == nil {
		return page, out
	}
	page.Summary = apps.SummarizeHTML(page.HTML)
	if !page.Summary.Doctype {
		out = append(out, NewFinding(FindAppHTML, "UI resource %s does not open with <!DOCTYPE html>: it is not an HTML5 document", uri))
	}
	if u := m.CSP.Undeclared(page.Summary); len(u) > 0 {
		out = append(out, NewFinding(FindAppCSP, "UI resource %s uses %s that its CSP does not declare; a conformant host blocks %s",
			uri, describeOrigins(u), plural(len(u), "it", "them")))
	}
	if uses, more := apps.EvalUses(page.HTML); len(uses) > 0 {
		also := ""
		if more {
			also = " and more"
		}
		out = append(out, NewFinding(FindAppEval, "UI resource %s compiles code from text (%s%s): the spec's default policy has no "+
			"'unsafe-eval', so it throws on a strict host and runs on a lax one (mcpscope hosts it with --csp reference)",
			uri, strings.Join(uses, "; "), also))
	}
	return page, out
}

// RawMeta is the _meta member of an object as JSON (MetaOf's), nil when there is none.
func RawMeta(obj json.RawMessage) json.RawMessage {
	m := MetaOf(obj)
	if m == nil {
		return nil
	}
	b, _ := json.Marshal(m)
	return b
}

// describeOrigins names up to eight origins with the CSP list that would have to declare them.
func describeOrigins(os []apps.Origin) string {
	var parts []string
	for i, o := range os {
		if i == 8 {
			parts = append(parts, fmt.Sprintf("and %d more", len(os)-8))
			break
		}
		parts = append(parts, o.Origin+" ("+o.Use.String()+")")
	}
	return plural(len(os), "origin ", "origins ") + strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
