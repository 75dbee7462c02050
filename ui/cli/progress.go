package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/mcpscope/mcpscope/ui/replay"
)

// progressLine shows a long command's progress on one line of a terminal's stderr,
// rewritten in place at most every 100 ms and cleared at the end.
type progressLine struct {
	w     io.Writer
	last  time.Time
	shown bool
}

// newProgressLine is a progress line on w, or nil when w is not a terminal (a log or a
// pipe gets no progress).
func newProgressLine(w io.Writer) *progressLine {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return nil
	}
	return &progressLine{w: w}
}

// show writes the progress of done of total requests, unless it was written less than
// 100 ms ago (the last one is always written).
func (p *progressLine) show(done, total int) {
	now := time.Now()
	if done < total && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	fmt.Fprintf(p.w, "\r\x1b[Kmcpscope: %s", replay.Progress(done, total))
	p.shown = true
}

// end clears the line.
func (p *progressLine) end() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
