// Package replay is the replay report, `mcpscope replay FILE --tui`: a Bubble Tea program of
// its own that runs the replay in a command, off the UI loop, then lists the replayed
// requests with their status and shows, for the selected one, the recorded and the live
// response side by side (one at a time in a narrower terminal), the lines of the places
// that differ marked. It shares the inspector's ui.Common (styles, keys, masks) and its
// JSON renderer, and nothing of the inspector refers to it.
package replay
