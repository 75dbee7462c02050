package ui

import (
	"io"
	"log"

	"github.com/mcpscope/mcpscope/session/secret"
)

// Common is shared by every component, by pointer: never copied.
type Common struct {
	Styles *Styles
	Keys   *KeyMap
	Width  int
	Height int
	Log    *log.Logger // --debug file (secrets masked); discards otherwise
	// Mask masks what is drawn and logged; FileMask what the detail actions hand on
	// (see mask.go).
	Mask, FileMask *secret.Masker
}

// NewCommon makes the shared state with dark styles until the terminal says otherwise.
func NewCommon(logw io.Writer) *Common {
	if logw == nil {
		logw = io.Discard
	}
	c := &Common{Styles: NewStyles(true), Keys: DefaultKeyMap()}
	c.Log = log.New(logMask{logw, c}, "", log.Ltime|log.Lmicroseconds)
	return c
}
