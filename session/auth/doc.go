// Package auth is MCP authorization (OAuth 2.1) for the HTTP transports: discovery of the
// protected resource's metadata (RFC 9728) and of its authorization server's (RFC 8414,
// OpenID discovery), client identity (pre-registered, Client ID Metadata Document, Dynamic
// Client Registration), the authorization code grant with PKCE S256, a loopback redirect and
// the browser, the token endpoint, refresh, step-up on insufficient_scope, and the extension
// grants (client credentials, JWT client assertions, enterprise-managed authorization, DPoP,
// workload identity). Every HTTP exchange it makes goes through the transport's client and is
// reported as an HTTP exchange labelled with its Step, so the timeline shows each one.
//
// Tokens and registered clients are kept in a Store (OS keyring, a 0600 file, or nowhere),
// keyed by resource and issuer; they are never written to recordings or traces unmasked.
//
// # The flow
//
// A Flow (one per transport, made by ServerSpec.NewTransport from ServerSpec.Auth)
// implements transport.Authorizer:
//
//   - Authorize adds the token to a request, refreshing one about to expire (token.go).
//   - Unauthorized (a 401) refreshes, or runs the flow.
//   - Forbidden (a 403 insufficient_scope) steps up.
//
// The transport retries a request once after each. An authorization that fails (denied,
// an error of the authorization server) stops the flow: a later 401 gets the same Error at
// once (outcome.go), with no new trip to the browser, until Login. Error.Step names the step
// it ended at, and Outcome says it first ("[authorize] the authorization server answered
// access_denied ..."); the session's handshake stops on it and keeps its era cache. A
// refresh token refused for good is dropped, and a dynamic client refused as
// invalid_client, or whose registration read back (RFC 7592) answers 401, is registered
// again (client_check.go). Revoke (revoke.go) is auth logout's RFC 7009 revocation.
// A flow runs in a goroutine of its own,
// which outlives the request that started it (the short era probe, say); later requests
// join it. Session.Auth returns the flow as a Controller, which the TUI's Auth page uses.
//
// The steps, in files: discovery.go (resource and authorization server metadata, in the
// spec's order), login.go (scopes, client identity, registration), authorize.go (PKCE, the
// loopback listener, the browser, state and iss), token.go (token requests, refresh).
//
// The flow's own requests go through transport.AuthExchanger. The flow adds Checks and
// Problems to each AuthReply and then reports it, so the exchange reaches the timeline with
// its Step and what was found. The session turns Problems into findings
// (protocol/findings_auth.go).
//
// # Token storage
//
// OpenStore(mode) gives the store --token-store names:
//
//   - KeyringStore (go-keyring): one item per Key holding the Record's JSON, plus an index
//     item listing the keys, since a keyring cannot list. Probe reads the index; any answer
//     but "found" or "not found" within 20 s means no keyring. Index changes lock
//     keyring.lock. In auto mode a record the keyring refuses as too large goes to the file
//     instead (KeyringStore.Overflow).
//   - FileStore: one JSON file, 0600 in a 0700 directory, changed read-change-write under
//     flock on auth.lock and replaced by rename. A file it cannot read is a *CorruptError
//     and is never overwritten.
//   - MemStore: memory only.
//
// MatchResource finds the keys whose resource covers a server URL. MaskToken and
// ExpiryText are how every output shows a token and its expiry.
//
// # Extension grants and DPoP
//
// Options.Grant (an *ExtGrant built from --grant and the credential flags) replaces the
// authorization code flow after discovery. ExtGrant.Token builds the form (grants.go:
// client credentials, JWT bearer, the RFC 8693 token exchange for an ID-JAG) and the client
// authentication (ClientAuth: basic, post, private_key_jwt with an AssertionKey, none), and
// sends it with RequestToken.
//
// Options.DPoP (flowdpop.go) gives the flow a DPoPKey (dpop.go) when a 401 offered the DPoP
// scheme (dpopUnauthorized notes it) and the authorization server supports ES256. Token
// requests carry a proof and are repeated once on a use_dpop_nonce 400. Authorize presents a
// DPoP token with a fresh proof. The flow keeps the MCP server's nonce (Flow.Answered sees
// every answer), and the transport allows one more 401 retry when the answer carries
// DPoP-Nonce. The key is saved in Record.DPoPKey with the token.
//
// # Hostile servers
//
// transport.AuthExchange bounds each request (30 s) and its answer (1 MiB), and does not
// follow a redirect of a request with a body to another origin. The loopback listener
// (callback.accept) hands the flow only the first redirect carrying the state sent; it holds
// at most 32 connections open (capListener). checkServerMetadata refuses endpoints that are
// not https, except on loopback or the server's own plain-http host. parseToken refuses a
// token_type other than Bearer or DPoP. A 401 to a token issued within the minute is
// explained (Flow.Refused); the second in a row stops the flow until Login. Step-ups are
// bounded per scope set and in all (maxStepUpsAll, 5). hostile_test.go runs these against
// misbehaving servers.
package auth
