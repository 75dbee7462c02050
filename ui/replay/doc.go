// Package replay is the replay report, `mcpscope replay FILE --tui`: a Bubble Tea program of
// its own that runs the replay in a command, off the UI loop, then lists the replayed
// requests with their status and shows, for the selected one, the recorded and the live
// response side by side (one at a time in a narrower terminal), the lines of the places
// that differ marked. It shares the inspector's ui.Common (styles, keys, masks) and its
// JSON renderer, and nothing of the inspector refers to it.
//
// The replay runs in one command (recordings.Replay, which keeps the two responses it
// compared in each Result). Its progress comes through a one-slot channel that keeps the
// latest, read by a re-issued command. Each response is drawn by jsonview.Colorize, asked
// for every line's JSON pointer, so the lines of a Difference are marked by comparing
// pointers (json.go).
//
// KeyMap (keys.go) is a second keymap rather than more groups in ui.KeyMap: the inspector's
// help is generated from its own groups and must not offer keys of another screen. It is
// built from the inspector's bindings for the keys the two share. README's table of the
// report's keys is generated from it and tested in ui's external tests.
package replay
