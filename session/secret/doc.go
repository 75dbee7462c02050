// Package secret is mcpscope's one place for masking secrets: the values a user gave
// (bearer token, -H header values, -e values, secret query parameters), secret headers by
// name, and secret shapes (bearer tokens, API keys, passwords in URLs). Every output a human
// reads or that leaves the machine (the timeline, recordings, --trace, the error line, the
// --debug log, the status bar, window titles, the clipboard) masks through it.
//
// # What it offers
//
//   - Headers masks secret header names (IsSecretHeader); URL masks a URL's password and
//     secret query parameters; Body and Params mask an authorization exchange's bodies.
//   - A Masker (New) masks the values the command line gave, plus secret shapes: String for
//     text, Values for the drawn screen. Values shorter than 6 characters, numbers and
//     true/false/null are not searched for, since they occur in ordinary traffic.
//   - session.EventJSON.Mask applies a Masker to an event's JSON form (trace, recordings,
//     tap), and marks a frame it changed "masked", its size still the wire's.
//   - Hide and Hidden.Reveal mask a text for editing and give the edit its secrets back.
//   - CredentialEnv are mcpscope's own credential variables: every Masker knows their
//     values, and no server mcpscope starts inherits them.
//
// # What is a secret
//
// Masking never rewrites what is not a secret, and never breaks a frame. A secret's
// characters are replaced by the mask and nothing else: delimiters, quotes and escapes
// stay. Text that looks like JSON (a frame, JSON inside a JSON string) is searched inside
// its strings only, and a mask there takes whole escapes, so JSON stays JSON
// (FuzzMaskKeepsJSON). What is masked:
//
//   - the values given (New), as they are and JSON-escaped, anywhere;
//   - secret shapes: a bearer or DPoP token (a token-like word, not a challenge's
//     parameter or prose), vendor keys (sk-, ghp_, xox…, AKIA; random-looking), a URL's
//     password;
//   - NAME=value where NAME is a whole secret name (SecretName: API_KEY, client-secret,
//     accessToken) and the value a plausible secret: a query or form parameter's value
//     always; otherwise not ===, not a $reference, not a call, not a member access
//     (b.token), not a name ending a statement (api_key=abc123;), at least four
//     characters;
//   - the string value of a JSON member whose name is a secret name
//     ("AWS_SECRET_ACCESS_KEY": "…"), also written with escaped quotes.
//
// # Who masks where
//
// The transports mask URLs, headers and the errors they return at the source. Recordings,
// the tap and --trace mask events with the values the command line gave (ui/cli
// specSecrets). The CLI masks its error line. The interactive view holds Common.Mask (the
// screen, title, status, --debug log and panics: always) and Common.FileMask (copy, pager,
// editor, save: unless --no-redact). The last pass over the rendered screen sees one line
// at a time, so text that is wrapped is masked before it is laid out.
package secret
