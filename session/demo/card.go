package demo

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net"
	"net/http"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
	cardspec "github.com/mcpscope/mcpscope/protocol/card"
)

// CardNamespace is the namespace of the demo's server card name: the card is named
// CardNamespace/<serverInfo.name>.
const CardNamespace = "io.github.mcpscope"

// CardPath is where the demo serves its card over HTTP: the location the extension
// reserves, <streamable-http-url>/server-card.
const CardPath = "/mcp/server-card"

// serveCard adds the demo's server card to mux: at CardPath, and listed in an AI Catalog at
// /.well-known/ai-catalog.json. Both answer with the extension's media types, its CORS and
// caching headers, an ETag and 304 to a matching If-None-Match. The card's remote is the
// Streamable HTTP endpoint at the host the request named, so it is the URL the client used.
func (d *demo) serveCard(mux *http.ServeMux) {
	mux.HandleFunc("GET "+CardPath, func(w http.ResponseWriter, r *http.Request) {
		serveDoc(w, r, cardspec.MediaType, d.card(requestOrigin(r)))
	})
	mux.HandleFunc("GET /.well-known/ai-catalog.json", func(w http.ResponseWriter, r *http.Request) {
		origin := requestOrigin(r)
		cat := map[string]any{
			"specVersion": "1.0",
			"entries": []any{map[string]any{
				"identifier": "urn:air:" + hostOnly(r.Host) + ":mcp:" + d.impl.Name,
				"type":       cardspec.MediaType,
				"url":        origin + CardPath,
			}},
		}
		b, _ := json.MarshalIndent(cat, "", "  ")
		serveDoc(w, r, cardspec.CatalogMediaType, b)
	})
}

// card is the demo's card with its remote at origin.
func (d *demo) card(origin string) []byte {
	versions := make([]string, 0, len(protocol.Revisions))
	for i := len(protocol.Revisions) - 1; i >= 0; i-- {
		versions = append(versions, string(protocol.Revisions[i]))
	}
	remote := map[string]any{"type": cardspec.TypeStreamable, "url": origin + "/mcp", "supportedProtocolVersions": versions}
	if d.cardAuth {
		remote["headers"] = []any{map[string]any{"name": "Authorization", "isRequired": true, "isSecret": true,
			"description": "An OAuth 2.1 bearer token; the protected resource metadata names the authorization server."}}
	}
	c := map[string]any{
		"$schema":     cardspec.SchemaURL,
		"name":        CardNamespace + "/" + d.impl.Name,
		"version":     d.impl.Version,
		"title":       d.impl.Title,
		"description": "mcpscope's demo: every MCP server feature, to watch in mcpscope.",
		"websiteUrl":  d.impl.WebsiteURL,
		"remotes":     []any{remote},
	}
	b, _ := json.MarshalIndent(c, "", "  ")
	return b
}

// serveDoc answers with a public, read-only JSON document.
func serveDoc(w http.ResponseWriter, r *http.Request, mediaType string, body []byte) {
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Methods", "GET")
	h.Set("Access-Control-Allow-Headers", "Content-Type, If-None-Match")
	h.Set("Access-Control-Expose-Headers", "ETag")
	h.Set("Cache-Control", "public, max-age=3600")
	h.Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", mediaType)
	_, _ = w.Write(append(body, '\n'))
}

// requestOrigin is the origin the request was made to.
func requestOrigin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// hostOnly is host without its port, for a catalog identifier.
func hostOnly(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return strings.Trim(host, "[]")
}
