// Package card fetches server cards (the Server Cards extension, SEP-2127): it asks each
// place a card may live (protocol/card's Locations), reads the AI Catalogs it finds and the
// cards they name, and validates each card against the shipped schema.
//
// Every fetch is bounded, for a server that is hostile or broken: a byte cap on each body
// (a longer one is cut and not read as a card), one deadline over a location's redirects
// and its body (a body that trickles ends there), redirects followed within the origin only
// (or from http to https on the same host) and at most a few of them (a loop ends there).
// No credentials are sent: cards and catalogs are public by design, so -H headers and
// bearer tokens never reach a card location, whatever it redirects to.
//
// Every hop is an HTTP exchange with Purpose "card" and the location as its Step, handed
// to Options.Report; a session publishes them (Session.ReportHTTP), so the timeline, the
// recording and HAR show card fetches like the rest of the HTTP traffic.
package card
