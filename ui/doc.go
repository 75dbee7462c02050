// Package ui is mcpscope's interactive inspector, a Bubble Tea program. It consumes one
// session's event stream (through a pump that re-issues a one-shot command after each batch)
// and calls session methods from commands; Update never does I/O. The rules the code
// keeps are in ARCHITECTURE.md ("UI rules"); rules_test.go checks the first two, and
// rules_payload_test.go that no work proportional to a payload is reached from Update or View.
//
// The screen: a status bar, the traffic timeline with a detail pane, the explorer (tools,
// resources, templates, prompts) and the server page, a help line. Everything visible is
// built from one Common (styles, keymap, size) and laid out by a pure function of the
// terminal size. The panes share one contract (Pane); the modal dialogs (confirmations,
// prompts, help, what the server asks, the composer) are a stack of Dialogs over the page,
// the top one first to get a key.
package ui
