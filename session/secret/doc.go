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
//     tap).
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
