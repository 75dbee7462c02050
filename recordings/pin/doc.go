// Package pin pins a server's definitions and compares them.
//
// A Set holds what a server tells an agent about itself before any call: its tools,
// prompts, resources and resource templates (every page of each list), its instructions and
// its capabilities, each an Item with a SHA-256 hash of its canonical JSON (RFC 8785, the
// JSON Canonicalization Scheme: members sorted by their UTF-16 code units, numbers as
// ECMAScript prints them, strings with the minimal escapes). A Set is read from a live
// session (FromSession), a recording (FromRecording) or a pin file (Load), and written with
// Save. Compare matches two Sets item by item (by kind and name) and reports each item
// added, removed or changed, with the JSON-pointer places where a changed one differs, so a
// tool whose description changed behind an agent's back is caught before the agent trusts it.
package pin
