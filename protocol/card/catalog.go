package card

import (
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/protocol"
)

// Entry is an AI Catalog entry for an MCP Server Card: exactly one of URL (where the card
// is) and Data (the card inline).
type Entry struct {
	Identifier string          `json:"identifier"`
	Type       string          `json:"type"`
	URL        string          `json:"url,omitempty"`
	Data       json.RawMessage `json:"data,omitempty"`
}

// maxEntries bounds the card entries read from one catalog.
const maxEntries = 64

// ParseCatalog reads an AI Catalog and returns its MCP Server Card entries (those whose type
// is MediaType), with findings for what is off: a document that is not a catalog, a card
// entry with neither or both of url and data, or without an identifier. Entries of other
// types are other AI artifacts and are skipped. skipped counts the card entries beyond
// maxEntries.
//
// Bounded: at most maxEntries entries are kept; the caller bounds raw.
func ParseCatalog(raw []byte) (entries []Entry, findings []protocol.Finding, skipped int) {
	var probe map[string]json.RawMessage
	if json.Unmarshal(raw, &probe) != nil || probe == nil {
		return nil, []protocol.Finding{protocol.NewFinding(protocol.FindCardCatalog, "the catalog is not a JSON object")}, 0
	}
	list := members(raw, "entries")
	if _, ok := protocol.MemberValue(raw, "entries"); !ok || list == nil {
		return nil, []protocol.Finding{protocol.NewFinding(protocol.FindCardCatalog, "the catalog has no entries array")}, 0
	}
	for i, e := range list {
		typ, _ := protocol.MemberString(e, "type")
		if typ != MediaType {
			continue
		}
		if len(entries) == maxEntries {
			skipped++
			continue
		}
		en := Entry{Type: typ}
		en.Identifier, _ = protocol.MemberString(e, "identifier")
		en.URL, _ = protocol.MemberString(e, "url")
		if d, ok := protocol.MemberValue(e, "data"); ok && string(d) != "null" {
			en.Data = d
		}
		where := fmt.Sprintf("entry %d", i)
		if en.Identifier != "" {
			where += " (" + en.Identifier + ")"
		} else {
			findings = append(findings, protocol.NewFinding(protocol.FindCardCatalog, "%s has no identifier", where))
		}
		switch {
		case en.URL == "" && en.Data == nil:
			findings = append(findings, protocol.NewFinding(protocol.FindCardCatalog, "%s has neither url nor data", where))
			continue
		case en.URL != "" && en.Data != nil:
			findings = append(findings, protocol.NewFinding(protocol.FindCardCatalog, "%s has both url and data; exactly one is used", where))
		}
		entries = append(entries, en)
	}
	return entries, findings, skipped
}
