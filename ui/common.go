package ui

import (
	"io"
	"log"
)

// Common is shared by every component, by pointer: never copied.
type Common struct {
	Styles *Styles
	Keys   *KeyMap
	Width  int
	Height int
	Log    *log.Logger // --debug file; discards otherwise
}

// NewCommon makes the shared state with dark styles until the terminal says otherwise.
func NewCommon(logw io.Writer) *Common {
	if logw == nil {
		logw = io.Discard
	}
	return &Common{Styles: NewStyles(true), Keys: DefaultKeyMap(), Log: log.New(logw, "", log.Ltime|log.Lmicroseconds)}
}
