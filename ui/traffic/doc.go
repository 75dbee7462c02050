// Package traffic is the model of the timeline: the rows of the traffic page and the
// filter over them, with no terminal code (it imports no Charm package; a test pins it).
// The ui package draws the rows and hosts the filter input; this package decides what the
// rows are, how they link, and which of them a filter keeps.
//
// # The history
//
// History holds the rows (Entry), in arrival order, bounded by Limit rows and by MaxBytes
// of frames held (history_bytes.go). Past either bound the oldest rows are dropped down to
// 90 %, so dropping is amortised; Dropped counts them and the recorder keeps them on disk.
// A frame larger than TruncateOver enters cut to its head (ClipEvent); Entry.Clipped is its
// full size, and the session's event, shared with the recorder, is never changed.
//
// History pairs nothing itself. History.Add links each frame as the session's pairing
// says (Event.Corr): a response to its request (Entry.Pair), progress and cancellations to
// the request they name (Entry.Ref), the rounds of an input_required chain (Chain), batches
// included. It only keeps the state that follows from those links: which requests still
// wait, which failed and why, the counts of errors and findings per session (the error a
// server gives for a task mcpscope cancelled is shown, not counted: history_taskcancel.go).
//
// Entry.Row is the view's cache of a drawn row; Add and Invalidate drop it when a row's
// links change, so the view redraws only rows that changed.
//
// # The filter
//
// ParseQuery reads the filter text into a Query: free words and field:value terms, all of
// which must match, each negated by a leading '-'. The language, its table of fields and
// its matchers are protocol/query's (a row is a query.Subject: subject.go); the fault
// rules on the wire read the same language.
// Query.Match judges a row in memory. Over an opened recording a search first looks for a
// query's literal parts in the file's bytes (Query.Prefilter, Query.Bypass) and decodes
// only the lines that hold them; the terms that need the rows around an event (tool:,
// slow:, has:progress) are learnt by a pass of their own first (Query.Relate,
// filter_relate.go).
//
// # What a row names
//
// EntryMethod, TargetRequest and RequestTarget say what a row is about (a response's
// method is its request's; a tools/call's target is its tool); Entry.ToolErr marks a
// tool error inside a successful response; EraHint says what an error row says about the
// negotiated era.
package traffic
