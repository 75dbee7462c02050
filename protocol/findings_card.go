package protocol

// Findings of Server Cards (SEP-2127, the experimental extension
// modelcontextprotocol/experimental-ext-server-card): a static JSON document a client reads
// before it connects. The extension is Beta, so a missing card is only worth knowing.
// protocol/card raises them; session/card fetches.
const (
	FindCardMissing      = "card.missing"           // no location answered with a server card
	FindCardUnreadable   = "card.unreadable"        // a location answered, but not with a card mcpscope could read
	FindCardMediaType    = "card.media-type"        // a card served with another Content-Type than application/mcp-server-card+json
	FindCardSchema       = "card.schema"            // the card fails the published v1 schema
	FindCardCatalog      = "card.catalog"           // an AI Catalog that is not one, or a card entry without url or data
	FindCardIdentity     = "card.identity"          // name, version or title differ from the live serverInfo
	FindCardVersions     = "card.protocol-versions" // supportedProtocolVersions differ from what the server negotiates
	FindCardRemote       = "card.remote"            // no remote names the URL used, or its transport type differs
	FindCardHeaders      = "card.headers"           // a header the card says is required that the server does without
	FindCardHeaderUnlist = "card.headers-unlisted"  // the server asked for authorization the card's remote does not mention
)

// Where the findings of Server Cards point: the extension's discovery document, at the
// revision mcpscope was written against (its schema ships in protocol/card).
const (
	CardSpecRevision = "2026-07-24"
	CardSpecURL      = "https://github.com/modelcontextprotocol/experimental-ext-server-card/blob/main/docs/discovery.md"
	CardSchemaDocURL = "https://github.com/modelcontextprotocol/experimental-ext-server-card/blob/main/schema.json"
)

// CardSpecRef is the section of the extension's text a card finding rests on.
func CardSpecRef(code string) (SpecRef, bool) {
	ref := SpecRef{Revision: CardSpecRevision, Page: "Server Cards", Doc: CardSpecURL}
	switch code {
	case FindCardMissing, FindCardMediaType, FindCardUnreadable:
		ref.Section = "Hosted Server Card Location"
	case FindCardCatalog:
		ref.Section = "Server Card Entries"
	case FindCardSchema:
		ref.Doc, ref.Page = CardSchemaDocURL, "Server Card schema"
	case FindCardIdentity, FindCardVersions, FindCardRemote, FindCardHeaders, FindCardHeaderUnlist:
		ref.Section = "Consistency with Runtime Behavior"
	default:
		return SpecRef{}, false
	}
	return ref, true
}

// cardFindings are the codes of Server Cards, a part of the one finding table
// (findingTable, findings.go).
func cardFindings() map[string]findingInfo {
	return map[string]findingInfo{
		FindCardMissing: {SevInfo, "No server card was found. Server Cards (SEP-2127) are an experimental " +
			"extension: a server MAY host one at <streamable-http-url>/server-card and a domain MAY list " +
			"cards in an AI Catalog at /.well-known/ai-catalog.json. A server without one is not wrong."},
		FindCardUnreadable: {SevWarning, "A card location answered, but not with a document mcpscope could " +
			"read as a card: the body is not JSON, not an object, larger than the bound, cut short, or the " +
			"answer redirected to another origin. A client reading it before connecting gets nothing usable."},
		FindCardMediaType: {SevInfo, "Server Cards use the media type application/mcp-server-card+json: a " +
			"client SHOULD ask for it with Accept and a server SHOULD answer with it in Content-Type, " +
			"wherever it hosts the card."},
		FindCardSchema: {SevError, "The card does not conform to the published Server Card schema (v1): " +
			"$schema, name (reverse-DNS with one slash), version and description are required, and each " +
			"remote needs a type (streamable-http or sse) and a url. A client that validates will reject it."},
		FindCardCatalog: {SevWarning, "An AI Catalog lists entries; an MCP Server Card entry has an " +
			"identifier, the type application/mcp-server-card+json, and exactly one of url (where the card " +
			"is) or data (the card inline)."},
		FindCardIdentity: {SevWarning, "A Server Card SHOULD accurately reflect the server's runtime " +
			"behaviour: the serverInfo a client observes once connected (name, version) and the " +
			"descriptive fields SHOULD NOT contradict the card. A card that misstates identity can steer a " +
			"client to the wrong server before the handshake shows it."},
		FindCardVersions: {SevWarning, "A remote's supportedProtocolVersions lets a client choose a revision " +
			"before connecting; it SHOULD NOT contradict the versions the server negotiates. A card that " +
			"overstates support is a downgrade vector."},
		FindCardRemote: {SevWarning, "The card's remotes name the endpoints and their transport " +
			"(streamable-http or sse). The endpoint a client connects to SHOULD be one of them, served with " +
			"the transport the card states."},
		FindCardHeaders: {SevWarning, "A remote's headers say which HTTP headers a client must supply " +
			"(isRequired). The server accepted the connection without a header the card calls required, so " +
			"the card asks users for a value the server does not need."},
		FindCardHeaderUnlist: {SevInfo, "The server asked for authorization (401 with WWW-Authenticate) " +
			"and the card's remote lists no Authorization header. With OAuth discovery a client finds out " +
			"anyway; a static credential belongs in the card's headers."},
	}
}
