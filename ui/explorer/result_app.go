package explorer

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// appPage shows, before the text of a UI resource's content (a ui:// URI or the MCP Apps
// MIME type), what the page is: its metadata (CSP per directive, permissions, domain,
// border), a summary of its HTML (size, title, HTML5 or not, scripts and styles inline and
// external, the origins it loads from or connects to and whether its CSP declares each),
// and the extension's findings on it.
//
// Bounded: it runs where the result is laid out, which is inline only up to resultInline
// bytes and otherwise in renderResultCmd; its work is one pass over the content.
func (r *resultRenderer) appPage(raw json.RawMessage, uri, mime, pad string) {
	if !strings.HasPrefix(uri, apps.Scheme) && !protocol.IsAppMIMEType(mime) {
		return
	}
	s := r.s
	page, findings := protocol.CheckAppContent(uri, raw, nil)
	in := pad + "  "
	r.add(pad + s.PaneTitle.Render("MCP App"))
	if page.HasMeta {
		r.add(metaLines(s, page.Meta, in, r.w)...)
	} else {
		r.add(textfmt.WrapProse(s.Muted, "no _meta.ui on the content: its listing's applies, else the restrictive default CSP", in, r.w)...)
	}
	if page.HTML != nil {
		sum := page.Summary
		field := func(k, v string) { r.add(textfmt.Hanging(s.Text, in+s.Muted.Render(fieldLabel(k)), v, r.w)...) }
		title := "(none)"
		if sum.Title != "" {
			title = escapeText(sum.Title)
		}
		field("title", title)
		kind := "HTML5 document"
		if !sum.Doctype {
			kind = "not an HTML5 document (no <!DOCTYPE html>)"
		}
		size := textfmt.Bytes(int64(sum.Size))
		if sum.Size >= 1024 {
			size += fmt.Sprintf(" (%d bytes)", sum.Size)
		}
		field("html", size+" · "+kind)
		field("scripts", fmt.Sprintf("%d inline, %d external", sum.InlineScripts, sum.ExternalScripts))
		field("styles", fmt.Sprintf("%d inline, %d external", sum.InlineStyles, sum.ExternalStyles))
		if len(sum.Origins) == 0 {
			field("origins", "none external")
		}
		for i, o := range sum.Origins {
			k := ""
			if i == 0 {
				k = "origins"
			}
			mark := s.Finding.Render(" ✗ not in " + o.Use.String())
			switch {
			case !page.HasMeta:
				mark = s.Muted.Render(" · " + o.Use.String())
			case page.Meta.CSP.Undeclared(apps.HTMLSummary{Origins: []apps.Origin{o}}) == nil:
				mark = s.Muted.Render(" ✓ " + o.Use.String())
			}
			r.add(textfmt.Hanging(s.Text, in+s.Muted.Render(fieldLabel(k)), escapeText(o.Origin)+mark, r.w)...)
		}
		if sum.MoreOrigins > 0 {
			field("", fmt.Sprintf("and %d more", sum.MoreOrigins))
		}
	}
	for _, f := range findings {
		if f.Code == protocol.FindAppCSP && !page.HasMeta {
			continue // the listing's CSP may declare them; check reads both
		}
		r.finding(f.Message)
	}
	r.add("", pad+s.PaneTitle.Render("HTML"))
}
