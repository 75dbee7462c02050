// Package query is the one query language of mcpscope: the timeline's filter (the `/`
// key), breakpoints and fault rules all read it. A query is free words and field:value
// terms (the table Fields: method:, dir:, kind:, has:, tool:, id:, slow:), all of which
// must match, each negated by a leading '-'.
//
// Parse reads a query; a term it does not understand is reported with its position
// (Query.Errs) and left out, so the filter keeps working while the user types; Strict
// refuses it. A query judges a Subject: the facts about one message that the fields read
// (its frame, direction, method, tool, findings, latency...). The timeline's rows
// (ui/traffic) and the messages on the wire (session/fault) are both subjects.
//
// The table Fields is the one description of the language: the parser reads a term's
// field from it, and the help screen, the filter's placeholder and README's filter table
// are made from it. Searching an opened recording adds what only a file needs (the
// literal parts looked for in its bytes, the terms learnt from the rows around an event):
// ui/traffic does that over the terms Parse returns.
package query
