package protocol

// Findings of the Events extension (io.modelcontextprotocol/events, SEP-3415, published in
// modelcontextprotocol/ext-events): event types listed by events/list and the occurrences
// delivered by poll (events/poll), push (events/stream) and webhook (events/subscribe).
// protocol/events raises them; session delivers.
const (
	FindEventsType      = "events.type"       // an event type entry without name, delivery or schemas as the extension asks
	FindEventsShape     = "events.occurrence" // an occurrence without eventId, name, timestamp or object data
	FindEventsPayload   = "events.payload"    // an occurrence's data fails its event type's payloadSchema
	FindEventsTruncated = "events.truncated"  // truncated: true, or a gap envelope: events were skipped
	FindEventsDuplicate = "events.duplicate"  // an eventId delivered twice on one subscription
	FindEventsStream    = "events.stream"     // a push stream that breaks its lifecycle (no active first, wrong subscriptionId)
	FindEventsSignature = "events.signature"  // a webhook delivery whose signature does not verify, or without one, or whose headers break the profile
	FindEventsStale     = "events.stale"      // a webhook delivery whose webhook-timestamp is more than 5 minutes away
	FindEventsCursor    = "events.cursor"     // a cursor that breaks the replay rules (non-null after null, truncated without replay)
	FindEventsSubscribe = "events.subscribe"  // an events/subscribe result without id or refreshBefore, a grant it may not give, or a malformed deliveryStatus
)

// Where the findings of Events point: the extension's text in its repository, pinned to the
// commit mcpscope was checked against, so the section anchors stay where they were read.
// The text has no dated version: its stage is Beta, published under specification/beta
// (2026-10-05 is when SEP-3415, which defines it, was opened, not a version of the text).
const (
	EventsSpecRevision = "beta"
	EventsSpecCommit   = "c77b84395eff0ae32f53b0516c2214fe276ed050"
	EventsSpecURL      = "https://github.com/modelcontextprotocol/ext-events/blob/" + EventsSpecCommit + "/specification/beta/events/events.mdx"
)

// EventsSpecRef is the section of the extension's text an Events finding rests on.
func EventsSpecRef(code string) (SpecRef, bool) {
	ref := SpecRef{Revision: EventsSpecRevision, Page: "Events", Doc: EventsSpecURL}
	switch code {
	case FindEventsType:
		ref.Section = "Listing Available Events"
	case FindEventsShape, FindEventsPayload:
		ref.Section = "Event Occurrences"
	case FindEventsTruncated, FindEventsCursor:
		ref.Section = "Cursor Lifecycle"
	case FindEventsDuplicate:
		ref.Section = "Ordering and Delivery Guarantees"
	case FindEventsStream:
		ref.Section = "Push-Based Delivery"
	case FindEventsSignature, FindEventsStale:
		ref.Section = "Webhook security"
	case FindEventsSubscribe:
		ref.Section = "Subscription TTL"
	default:
		return SpecRef{}, false
	}
	return ref, true
}

// eventsFindings are the codes of the Events extension, a part of the one finding table
// (findingTable, findings.go).
func eventsFindings() map[string]findingInfo {
	return map[string]findingInfo{
		FindEventsType: {SevError, "Each event type in events/list has a name, a delivery list that is a " +
			"non-empty subset of poll, push and webhook, an inputSchema for subscription arguments and a " +
			"payloadSchema for the data of its occurrences. A client cannot subscribe to a type it cannot read."},
		FindEventsShape: {SevError, "An event occurrence (a poll result's events[], the params of " +
			"notifications/events/event, a webhook body without type) has a string eventId, the event type's " +
			"name, an ISO 8601 timestamp and an object data. A client deduplicates on eventId."},
		FindEventsPayload: {SevError, "An occurrence's data conforms to its event type's payloadSchema. A " +
			"client that validates payloads drops it; one that does not hands an agent data of an unknown shape."},
		FindEventsTruncated: {SevInfo, "truncated: true (or a webhook gap envelope) says the server started " +
			"later than the cursor the client gave: events were skipped. Not an error, but the client should " +
			"fetch authoritative state again if the gap matters."},
		FindEventsDuplicate: {SevWarning, "The same eventId arrived twice on one subscription. Delivery is " +
			"at-least-once and clients deduplicate on eventId, so this is allowed; it is shown because a " +
			"client that does not deduplicate would act twice."},
		FindEventsStream: {SevWarning, "A push stream (events/stream) first confirms with " +
			"notifications/events/active, and every notifications/events/* on it carries the stream's request " +
			"id in _meta[\"io.modelcontextprotocol/subscriptionId\"]. The server MUST send heartbeats."},
		FindEventsSignature: {SevError, "Every webhook delivery carries webhook-id, webhook-timestamp and " +
			"webhook-signature (Standard Webhooks): v1,base64(HMAC-SHA256(secret, id.timestamp.body)). The " +
			"receiver MUST verify it before processing; a delivery that fails is not from the subscription. " +
			"webhook-id is the eventId of an event and msg_<type>_<random> for a control envelope, and " +
			"X-MCP-Subscription-Id names the subscription."},
		FindEventsStale: {SevWarning, "A receiver SHOULD reject a webhook delivery whose webhook-timestamp " +
			"is more than 5 minutes old: each retry regenerates timestamp and signature."},
		FindEventsCursor: {SevWarning, "Replay is optional per event type, but a server SHOULD be consistent: " +
			"a type that returns a non-null cursor always does, and one that returns null always does. For a " +
			"type without replay truncated SHOULD be false."},
		FindEventsSubscribe: {SevError, "An events/subscribe result has the subscription id and refreshBefore " +
			"(an ISO 8601 time, or null only when the client asked for no expiry with ttlMs: null). Its optional " +
			"deliveryStatus has boolean active and throttled, and a lastError that is null or one of the fixed " +
			"categories (connection_refused, timeout, tls_error, http_4xx, http_5xx, challenge_failed), never the " +
			"endpoint's own answer."},
	}
}
