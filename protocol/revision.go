package protocol

// Revision is an MCP specification revision, named by its date as it appears in
// protocolVersion, e.g. "2025-06-18".
type Revision string

// The MCP revisions mcpscope knows.
const (
	Rev20241105 Revision = "2024-11-05"
	Rev20250326 Revision = "2025-03-26"
	Rev20250618 Revision = "2025-06-18"
	Rev20251125 Revision = "2025-11-25"
	Rev20260728 Revision = "2026-07-28"
)

// Revisions lists the known revisions, oldest first.
var Revisions = []Revision{Rev20241105, Rev20250326, Rev20250618, Rev20251125, Rev20260728}

// LatestStateful is the newest revision that still has the initialize handshake and
// sessions; later revisions are stateless.
const LatestStateful = Rev20251125

// ParseRevision returns the known revision named s.
func ParseRevision(s string) (Revision, bool) {
	for _, r := range Revisions {
		if string(r) == s {
			return r, true
		}
	}
	return "", false
}

// Known reports whether r is one of Revisions.
func (r Revision) Known() bool {
	_, ok := ParseRevision(string(r))
	return ok
}

// Stateless reports whether the revision has no initialize handshake and no protocol
// sessions: every request carries its protocol version and client capabilities in _meta,
// and servers advertise themselves through server/discover (2026-07-28 onward).
func (r Revision) Stateless() bool { return r.Known() && r >= Rev20260728 }

// AllowsBatch reports whether JSON-RPC batches (arrays of messages) are part of the
// revision. Only 2025-03-26 has them: its changelog records "Added support for JSON-RPC
// batching" and its schema's JSONRPCMessage includes JSONRPCBatchRequest and
// JSONRPCBatchResponse; 2025-06-18 removed them. 2024-11-05 predates that addition: its
// schema's JSONRPCMessage is only request, notification, response and error, with no array
// form, so a batch is not an MCP message there.
func (r Revision) AllowsBatch() bool { return r == Rev20250326 }

// HasInitialize reports whether the revision opens a session with initialize and
// notifications/initialized.
func (r Revision) HasInitialize() bool { return r.Known() && !r.Stateless() }

// String returns the revision's date.
func (r Revision) String() string { return string(r) }

// atLeast reports whether r is since or later; "" since means always.
func (r Revision) atLeast(since Revision) bool { return since == "" || r >= since }
