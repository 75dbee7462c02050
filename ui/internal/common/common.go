package common

import (
	"io"
	"log"

	"github.com/mcpscope/mcpscope/recordings"
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
	// (see SetMasks).
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

// SetMasks builds the two maskers from the recording options the command line made.
func (c *Common) SetMasks(o recordings.Options) {
	c.Mask = secret.New(o.Secrets, false)
	c.FileMask = secret.New(o.Secrets, o.NoRedact)
}

// logMask masks each line of the --debug log with the Common's Mask as it is written.
type logMask struct {
	w io.Writer
	c *Common
}

func (x logMask) Write(p []byte) (int, error) {
	if _, err := x.w.Write(x.c.Mask.Bytes(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Rect is a region of the screen.
type Rect struct{ X, Y, W, H int }
