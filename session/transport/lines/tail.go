package lines

import "sync"

// Tail keeps the last lines it is given, up to its bound. It is safe for concurrent use.
type Tail struct {
	mu   sync.Mutex
	buf  []string // a ring of cap(buf) lines once full
	next int      // where the next line goes once full
}

// NewTail returns a Tail that keeps the last n lines.
func NewTail(n int) *Tail {
	return &Tail{buf: make([]string, 0, max(n, 0))}
}

// Add keeps line, forgetting the oldest one when the tail is full.
func (t *Tail) Add(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if cap(t.buf) == 0 {
		return
	}
	if len(t.buf) < cap(t.buf) {
		t.buf = append(t.buf, line)
		return
	}
	t.buf[t.next] = line
	t.next = (t.next + 1) % len(t.buf)
}

// Lines returns the kept lines, oldest first; nil when there were none.
func (t *Tail) Lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.buf) == 0 {
		return nil
	}
	out := make([]string, 0, len(t.buf))
	out = append(out, t.buf[t.next:]...)
	return append(out, t.buf[:t.next]...)
}
