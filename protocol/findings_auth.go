package protocol

// Findings of authorization (OAuth 2.1) exchanges: session/auth raises them on the HTTP
// exchange of the step where it found the problem.
const (
	FindAuthResourceMismatch = "auth.resource-mismatch" // protected resource metadata names another resource
	FindAuthNoS256           = "auth.no-s256"           // the AS does not advertise PKCE S256
	FindAuthIssuerMismatch   = "auth.issuer-mismatch"   // AS metadata issuer or the iss parameter differs from the expected issuer
	FindAuthIssMissing       = "auth.iss-missing"       // the AS advertises iss in authorization responses but sent none
	FindAuthScopeNotGranted  = "auth.scope-not-granted" // the token lacks scopes that were requested
	FindAuthTokenNoExpiry    = "auth.token-no-expiry"   // the token response has no expires_in
	FindAuthMetadata         = "auth.metadata"          // metadata missing, unreadable or incomplete
	FindAuthRegistration     = "auth.registration"      // dynamic client registration refused or malformed
	FindAuthTokenError       = "auth.token-error"       // the token endpoint answered with an error
	FindAuthState            = "auth.state-mismatch"    // the authorization response's state is not the one sent
)

// authFindings are the codes of authorization, a part of
// the one finding table (findingTable, findings.go).
func authFindings() map[string]findingInfo {
	return map[string]findingInfo{
		FindAuthResourceMismatch: {SevError, "The protected resource metadata (RFC 9728) names a resource " +
			"that is not the MCP server mcpscope was asked to reach. The spec requires the client to " +
			"verify this and to stop: a token obtained for that resource would be sent to this server, " +
			"or this server's token to another. mcpscope did not authorize."},
		FindAuthNoS256: {SevError, "MCP clients must use PKCE with the S256 method and must check that the " +
			"authorization server supports it: its metadata lists code_challenge_methods_supported, and " +
			"S256 is not in it (or the field is absent, which means the server does not support PKCE). " +
			"mcpscope refused to start the authorization."},
		FindAuthIssuerMismatch: {SevError, "The issuer does not match the authorization server mcpscope " +
			"chose: either the metadata's issuer differs from the identifier used to build its URL " +
			"(RFC 8414 §3.3), or the authorization response's iss parameter differs from the recorded " +
			"issuer (RFC 9207; compared as plain strings, no normalisation). Both guard against mix-up " +
			"attacks; mcpscope did not use the metadata or the code."},
		FindAuthIssMissing: {SevError, "The authorization server advertises " +
			"authorization_response_iss_parameter_supported but its authorization response carries no iss " +
			"parameter. RFC 9207 requires the client to reject such a response; the code was not used."},
		FindAuthScopeNotGranted: {SevWarning, "The token response grants fewer scopes than were requested. " +
			"Requests that need the missing scopes will be answered 403 insufficient_scope."},
		FindAuthTokenNoExpiry: {SevInfo, "The token response has no expires_in, so mcpscope cannot refresh " +
			"the token before it expires; it refreshes (or authorizes again) when the server answers 401."},
		FindAuthMetadata: {SevError, "Authorization metadata could not be used: it was not found at any of " +
			"the locations the spec lists, was not JSON, or lacks a required member."},
		FindAuthRegistration: {SevError, "Dynamic client registration (RFC 7591) failed: the authorization " +
			"server refused the registration or answered without a client_id. Pre-register a client and " +
			"pass --client-id (and --client-secret), or use --client-metadata-url where the server " +
			"supports client ID metadata documents."},
		FindAuthTokenError: {SevError, "The token endpoint answered with an OAuth error (RFC 6749 §5.2)."},
		FindAuthState: {SevError, "The authorization response's state is not the one mcpscope sent: the " +
			"response does not belong to this authorization request (CSRF protection), so it was ignored."},
	}
}
