package cli

import (
	"fmt"

	"github.com/mcpscope/mcpscope/ui"
)

// HistoryBounds are the interactive view's memory bounds in bytes, shared by the commands
// that open it.
type HistoryBounds struct {
	HistoryBytes string `help:"How many bytes of frames the timeline keeps in memory; past it the oldest rows leave memory (they stay in the recording)." default:"256MiB" placeholder:"SIZE"`
	TruncateOver string `help:"Frames larger than this are kept in memory truncated to their first 64 KiB; the detail pane reads them back whole from the recording." default:"1MiB" placeholder:"SIZE"`
}

// apply checks the bounds and sets them in opts.
func (b HistoryBounds) apply(opts *ui.Options) error {
	hb, err := parseSize(b.HistoryBytes)
	if err != nil || hb < 1<<20 {
		return usageError{fmt.Errorf("--history-bytes %q: give a size of at least 1MiB (e.g. 256MiB, 1GiB)", b.HistoryBytes)}
	}
	to, err := parseSize(b.TruncateOver)
	if err != nil || to < 1<<10 {
		return usageError{fmt.Errorf("--truncate-over %q: give a size of at least 1KiB (e.g. 1MiB, 16MiB)", b.TruncateOver)}
	}
	if to > hb {
		return usageError{fmt.Errorf("--truncate-over (%s) is larger than --history-bytes (%s): a single frame would fill the history", b.TruncateOver, b.HistoryBytes)}
	}
	opts.HistoryBytes, opts.TruncateOver = hb, to
	return nil
}
