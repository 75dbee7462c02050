package cli

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/ui"
)

// TestHistoryBounds reads --history-bytes and --truncate-over into the view's options and
// refuses sizes that are not sizes, too small, or a frame bound over the history's.
func TestHistoryBounds(t *testing.T) {
	for _, c := range []struct {
		bytes, over  string
		wantB, wantO int64
		err          string
	}{
		{"256MiB", "1MiB", 256 << 20, 1 << 20, ""},
		{"1GB", "16M", 1e9, 16 << 20, ""},
		{"lots", "1MiB", 0, 0, "--history-bytes"},
		{"512KiB", "1KiB", 0, 0, "at least 1MiB"},
		{"256MiB", "0", 0, 0, "--truncate-over"},
		{"2MiB", "4MiB", 0, 0, "larger than --history-bytes"},
	} {
		var o ui.Options
		err := HistoryBounds{HistoryBytes: c.bytes, TruncateOver: c.over}.apply(&o)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s %s: %v", c.bytes, c.over, err)
		case c.err == "" && (o.HistoryBytes != c.wantB || o.TruncateOver != c.wantO):
			t.Errorf("%s %s: got %d %d", c.bytes, c.over, o.HistoryBytes, o.TruncateOver)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s %s: error %v, want one saying %q", c.bytes, c.over, err, c.err)
		}
	}
}
