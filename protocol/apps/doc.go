// Package apps holds the MCP Apps extension (io.modelcontextprotocol/ui, SEP-1865,
// stable 2026-01-26) as data: the identifier and MIME type, a tool's link to its
// ui:// resource with its visibility, and a UI resource's metadata (CSP, permissions,
// domain, border), and a UI resource's HTML summed up without running it (html.go:
// title, HTML5 doctype, scripts and styles inline and external, the origins it loads from
// or connects to, and which of them its CSP does not declare, matched as CSP Level 3 does).
// The summary is one pass over the page (about 14 ms for 4 MiB, BenchmarkSummarizeHTML).
//
// It only reads what a server sent; it does no I/O. The explorer, `check` and the app
// host all read tool and resource metadata through it, so there is one reading of the
// extension's fields.
package apps
