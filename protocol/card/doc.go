// Package card is the Server Cards extension as data (SEP-2127, the experimental extension
// modelcontextprotocol/experimental-ext-server-card): the card and its remotes, the AI
// Catalog entries that point at cards, the places a card may live, validation against the
// published schema, and the comparison of a card with what the live server says.
//
// # The schema
//
// server-card.schema.json is the extension's generated JSON Schema (2020-12) as published
// in its repository at SchemaCommit (SchemaDate). It is data shipped with mcpscope, so a
// card is validated offline. The file has no $id and no root: the card is its
// #/$defs/ServerCard, and documents name it with $schema SchemaURL. It is compiled on the
// first validation, never at start (TestInitBudget).
//
// # Where a card lives
//
// Locations lists the places mcpscope asks, in order. The extension's text reserves one,
// <streamable-http-url>/server-card, and has clients learn every other card's URL from an
// AI Catalog at /.well-known/ai-catalog.json. Earlier drafts, and servers in the wild,
// used /.well-known/mcp/server-card.json, /.well-known/mcp/server-card and a catalog at
// /.well-known/mcp/catalog.json; mcpscope asks those too and says they are not the
// extension's current text (Location.Normative).
//
// # Comparison
//
// Compare sets a card beside a live connection (Live): name and version against
// serverInfo, supportedProtocolVersions against the revision negotiated and the versions
// server/discover lists, remotes against the URL used and its transport, required headers
// against what the connection sent and what the server asked for. Each line is a Match; a
// line that disagrees carries its finding. The card is advisory: the live values win.
//
// No I/O: session/card fetches.
package card
