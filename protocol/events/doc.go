// Package events is the Events extension as data (io.modelcontextprotocol/events, SEP-3415,
// published in modelcontextprotocol/ext-events): the event types a server lists with
// events/list, the occurrences it delivers, the results of events/poll and
// events/subscribe, the notifications of a push stream (events/stream), the bodies of
// webhook deliveries and their Standard Webhooks signatures.
//
// # Delivery modes
//
// An event type names the modes it offers in delivery, a non-empty subset of poll, push
// and webhook. Poll is request and response: each events/poll carries the type's name, the
// subscription's arguments and the last cursor, and the result the events since then, the
// next cursor, truncated, hasMore and nextPollMs. Push is one long-lived events/stream
// request per subscription whose notifications/events/* (active, heartbeat, event, error,
// terminated) each carry the request's id in _meta["io.modelcontextprotocol/subscriptionId"].
// Webhook registers an https callback with events/subscribe under a TTL the client
// refreshes; the server POSTs each occurrence, signed with the secret the client chose, and
// control envelopes (gap, terminated, verification) that have a type member instead.
//
// # Checks
//
// Parse functions never fail on a hostile value: what breaks the extension's rules becomes
// a finding (protocol/findings_events.go). A Tracker follows one subscription: it validates
// each occurrence's data against the type's payloadSchema (compiled once, JSON Schema
// 2020-12 by default, no document fetched from elsewhere), remembers a bounded window of
// eventIds to flag duplicates, and flags truncated and a cursor that changes its mind
// about replay. Verify checks a webhook delivery's signature in constant time.
//
// No I/O: session delivers.
package events
