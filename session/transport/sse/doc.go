// Package sse reads a text/event-stream the way the WHATWG HTML standard's "event stream
// interpretation" describes, while keeping the exact bytes of every event block so a debugger
// can show what was on the wire.
//
// The parser follows the standard (one leading BOM stripped; CR, LF and CRLF line ends;
// "field: value" with one leading space removed from the value; comment lines starting with
// a colon; data lines joined with LF and the final LF removed; event type "message" by
// default; id values containing NUL ignored; the last event ID persisting across events;
// retry accepted only when it is all ASCII digits; an event dispatched on a blank line; an
// incomplete block at end of stream discarded) with three deliberate differences, all
// because a debugger must show everything:
//
//   - Blocks a browser would not dispatch (comment-only keep-alives, retry-only or id-only
//     blocks, blocks of unknown fields) are returned too. HasData tells them apart: a
//     browser dispatches exactly the events with HasData set.
//   - Data is the exact bytes of the data lines; invalid UTF-8 is kept, not replaced.
//   - An event larger than the size limit is returned truncated (Truncated set, Size the
//     full size) instead of growing memory without bound.
package sse
