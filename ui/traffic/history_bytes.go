package traffic

import (
	"bytes"
	"os"
	"runtime/debug"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// Byte bounds of the history. The count bound (Limit) alone lets a flood of large frames
// hold gigabytes; these keep the interactive view's memory proportional to a budget.
const (
	// DefaultHistoryBytes is the default bound of the bytes of frames (and texts) the
	// history holds.
	DefaultHistoryBytes int64 = 256 << 20
	// DefaultTruncateOver is the default size past which a frame is held in memory cut to
	// its head; its full bytes stay in the recording.
	DefaultTruncateOver int64 = 1 << 20
	// ClipHead is how much of such a frame stays in memory (less when TruncateOver is
	// smaller): enough for the first screens of the detail pane.
	ClipHead = 64 << 10
)

// ByteBound is the byte bound in effect.
func (h *History) ByteBound() int64 {
	if h.MaxBytes <= 0 {
		return DefaultHistoryBytes
	}
	return h.MaxBytes
}

// TruncateBound is the frame size past which frames are held cut, in effect.
func (h *History) TruncateBound() int64 {
	if h.TruncateOver <= 0 {
		return DefaultTruncateOver
	}
	return h.TruncateOver
}

// entryBytes is what an entry counts against the byte bound: its frame's bytes (every
// parsed part of a frame is a view of them) or its text.
func entryBytes(e *Entry) int64 { return int64(len(e.Marker)) + eventBytes(e.Ev) }

// eventBytes is what an event counts against a byte bound (0 for nil).
func eventBytes(ev *session.Event) int64 {
	if ev == nil {
		return 0
	}
	n := int64(len(ev.Text))
	if ev.Frame != nil {
		n += int64(len(ev.Frame.Raw))
	}
	return n
}

// overBytes is how many of the oldest entries to drop so that the bytes held fall to 90%
// of the bound (dropping is amortised like the count bound's); 0 while under the bound.
// The newest entry always stays.
func (h *History) overBytes() int {
	limit := h.ByteBound()
	if h.Bytes <= limit {
		return 0
	}
	target := limit - limit/10
	excess, n := h.Bytes-target, 0
	for n < len(h.entries)-1 && excess > 0 {
		excess -= entryBytes(h.entries[n])
		n++
	}
	return n
}

// ClipEvent returns ev unchanged when its frame is at most over bytes; otherwise a copy
// whose frame holds only its first bytes (at most ClipHead) and keeps what the row, the
// header and the correlation need (kind, id, method, error code and message, findings,
// batch members' kinds and ids), with the frame's full size. The session's event is
// shared with other subscribers and is never changed.
func ClipEvent(ev *session.Event, over int64) (*session.Event, int64) {
	f := ev.Frame
	if ev.Kind != session.EvFrame || f == nil || int64(len(f.Raw)) <= over {
		return ev, 0
	}
	c := *ev
	c.Frame = clipFrame(f, int(min(over, ClipHead)))
	return &c, int64(len(f.Raw))
}

// clipFrame is f cut to its first head bytes (at a character boundary), without the
// members that are views of the dropped bytes.
func clipFrame(f *protocol.Frame, head int) *protocol.Frame {
	c := *f
	c.Raw = bytes.Clone(f.Raw[:cutUTF8(f.Raw, head)])
	c.Params, c.Result, c.Extra, c.JSONRPC = nil, nil, nil, bytes.Clone(f.JSONRPC)
	if f.Error != nil {
		eo := *f.Error
		eo.Data, eo.Raw = nil, nil
		eo.Message = eo.Message[:cutUTF8(eo.Message, 200)]
		c.Error = &eo
	}
	c.ID = protocol.ID{Raw: bytes.Clone(f.ID.Raw)}
	c.Method = clipString(f.Method)
	c.Batch = nil
	for _, m := range f.Batch {
		c.Batch = append(c.Batch, clipFrame(m, 0))
	}
	return &c
}

// cutUTF8 returns n, moved back so b[:n] does not split a UTF-8 sequence.
func cutUTF8[T string | []byte](b T, n int) int {
	n = max(0, min(n, len(b)))
	for k := 0; k < utf8.UTFMax-1 && n > 0 && n < len(b) && !utf8.RuneStart(b[n]); k++ {
		n--
	}
	return n
}

// clipString copies a string taken from a large frame, so it does not keep the frame alive.
func clipString(s string) string {
	return string(append([]byte(nil), s[:cutUTF8(s, 200)]...))
}

// MemoryLimit is the soft memory limit of the Go runtime for an interactive view whose
// history holds at most historyBytes (≤0: the default): the budget, a quarter more for
// the frames on their way (the session's queues, the recorder, the screen) and 64 MiB for
// the program itself. Without it the collector lets the heap grow to twice what is live,
// and a full history would take twice its budget.
func MemoryLimit(historyBytes int64) int64 {
	if historyBytes <= 0 {
		historyBytes = DefaultHistoryBytes
	}
	return historyBytes + historyBytes/4 + 64<<20
}

// SetMemoryLimit sets the runtime's soft memory limit for the view (unless GOMEMLIMIT
// says otherwise) and returns what restores the previous one.
func SetMemoryLimit(historyBytes int64) (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(MemoryLimit(historyBytes))
	return func() { debug.SetMemoryLimit(prev) }
}
