// Package ui is mcpscope's interactive inspector, a Bubble Tea program. It consumes one
// session's event stream (through a pump that re-issues a one-shot command after each batch)
// and calls session methods from commands; Update never does I/O. The rules the code
// keeps are in ARCHITECTURE.md ("UI rules"); rules_test.go checks the first two.
//
// The screen: a status bar, the traffic timeline with a detail pane, the explorer (tools,
// resources, templates, prompts) and the server page, a help line. Everything visible is
// built from one Common (styles, keymap, size) and laid out by a pure function of the
// terminal size. The panes share one contract (Pane); the modal dialogs (confirmations,
// prompts, help, what the server asks, the composer) are a stack of Dialogs over the page,
// the top one first to get a key.
//
// Text the server sent (names, titles, descriptions, messages, uris, stderr) reaches the
// screen only escaped: escapeText for a field, escapeProse for text that keeps its line
// breaks, cleanText for a timeline row (tabs and line breaks folded to spaces), JSON through
// jsonview's colouriser. They all apply jsonview.EscapeRune, so a control or invisible
// character looks the same in every view (\x1b, \u200b), set apart in reverse video.
package ui
