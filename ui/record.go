package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// Recorder writes every session of the interactive view to one recording: each session's
// events come from a subscription of its own (not the view's), written off the UI loop,
// and a restart appends the new session's events to the same file under the next
// generation number.
type Recorder struct {
	// Path is the recording's file.
	Path string
	w    *recordings.Writer

	mu       sync.Mutex
	sessions []*session.Session // every session recorded: Close closes them first
}

// NewRecorder records to w, which writes the file at path.
func NewRecorder(path string, w *recordings.Writer) *Recorder { return &Recorder{Path: path, w: w} }

// record starts writing session s (generation gen) in the background. Call it before the
// session connects, so the handshake is recorded.
func (r *Recorder) record(s *session.Session, gen int) {
	r.mu.Lock()
	r.sessions = append(r.sessions, s)
	r.mu.Unlock()
	r.w.RecordGen(s.SubscribeWith(session.SubscribeOptions{Lossless: true}), gen)
}

// indexFrames makes the recorder remember where the frames larger than over are, so the
// view can read back whole the frames it holds cut.
func (r *Recorder) indexFrames(over int64) {
	r.w.IndexFrames(over + 1)
}

// Close closes every recorded session that is still open, waits until the last event of
// each is written, then closes the file.
func (r *Recorder) Close() error {
	r.mu.Lock()
	ss := r.sessions
	r.sessions = nil
	r.mu.Unlock()
	for _, s := range ss {
		_ = s.Close()
	}
	return r.w.Close()
}

// Messages of saving.
type (
	// SavedMsg: a save of the session (or of the filtered rows) ended.
	SavedMsg struct {
		Path      string
		Events    int
		Truncated int // frames saved cut: held cut in memory and not read back whole
		Err       error
	}
)

// savedEvent is one event to save, with its session generation. A frame held cut is saved
// whole when load reads it back, else cut and marked so (its recorded size is the full
// one, so a reader sees it was truncated).
type savedEvent struct {
	gen  int
	ev   *session.Event
	cut  bool
	load func(ctx context.Context) (*session.Event, error)
}

// newSaveInput is the footer prompt that asks for the file name.
func newSaveInput() textinput.Model {
	ti := textinput.New()
	ti.Prompt = "save session to: "
	return ti
}

// defaultSaveName is the file name the save prompt offers, in the current directory.
func defaultSaveName(now time.Time) string {
	return "mcpscope-session-" + now.Format("20060102-150405") + ".jsonl"
}

// startSave opens the save prompt.
func (m *Model) startSave() tea.Cmd {
	return m.openSavePrompt("save session to: ", defaultSaveName(time.Now()), nil)
}

// saveCmd saves the whole session, or only the rows the filter shows when one is active:
// a copy of the recording so far, or a new recording of the events in memory.
func (m *Model) saveCmd(path string) tea.Cmd {
	filtered := !m.timeline.Query().Empty() || len(m.timeline.Hidden()) > 0
	switch {
	case m.open != nil && !filtered:
		return copyRecordingCmd(m.open.r.Path(), path)
	case m.open != nil:
		return m.open.saveFilteredCmd(path)
	case m.opts.Recorder != nil && !filtered:
		return copyRecordingCmd(m.opts.Recorder.Path, path)
	}
	evs := m.savedEvents(filtered)
	h, o := m.opts.RecordHeader, m.opts.RecordOptions
	if len(evs) > 0 {
		h.Started = evs[0].ev.Time // the recording starts with its first event, not at the save
	}
	return func() tea.Msg {
		w, err := recordings.Create(path, h, o)
		if err != nil {
			return SavedMsg{Path: path, Err: err}
		}
		cut := 0
		for _, se := range evs {
			ev := se.whole()
			if se.cut && ev == se.ev {
				cut++
			}
			if err := w.WriteGen(ev, se.gen); err != nil {
				_ = w.Close()
				return SavedMsg{Path: path, Err: err}
			}
		}
		return SavedMsg{Path: path, Events: len(evs), Truncated: cut, Err: w.Close()}
	}
}

// savedEvents are the events in memory to save: every one, or (filtered) the rows the
// filter shows together with the handshake of each session, so that the saved file still
// says what the server is and offers. They keep the history's order, each once.
func (m *Model) savedEvents(filtered bool) []savedEvent {
	all := m.hist.Entries()
	var shown map[*traffic.Entry]bool
	hs := handshakes{}
	if filtered {
		shown = make(map[*traffic.Entry]bool, len(m.timeline.visible))
		for _, e := range m.timeline.visible {
			shown[e] = true
		}
		if m.hist.Dropped > 0 && len(all) > 0 && all[0].Ev != nil {
			hs.midSession(all[0].Gen) // its start is no longer in memory
		}
	}
	var evs []savedEvent
	for _, e := range all {
		if e.Ev == nil {
			continue
		}
		inHandshake := filtered && hs.take(e.Gen, e.Ev)
		if !filtered || inHandshake || shown[e] {
			se := savedEvent{gen: e.Gen, ev: e.Ev}
			if e.Clipped > 0 {
				c := *e.Ev
				c.Recv.Size, c.Recv.Truncated = e.Clipped, true
				se.ev, se.cut = &c, true
				if m.detail.full.Load != nil {
					se.load = m.detail.full.Load(e)
				}
			}
			evs = append(evs, se)
		}
	}
	return evs
}

// whole is the event to save: a frame held cut read back whole when it can be, else as
// held (marked cut).
func (se savedEvent) whole() *session.Event {
	if se.load == nil {
		return se.ev
	}
	ctx, cancel := context.WithTimeout(context.Background(), fullTimeout)
	defer cancel()
	if ev, err := se.load(ctx); err == nil {
		return ev
	}
	return se.ev
}

// copyRecordingCmd copies the recording at src to a new file dst, up to its last whole
// line (the recorder may be writing the next one).
func copyRecordingCmd(src, dst string) tea.Cmd {
	return func() tea.Msg {
		n, err := copyRecording(src, dst)
		return SavedMsg{Path: dst, Events: n, Err: err}
	}
}

func copyRecording(src, dst string) (int, error) {
	b, err := os.ReadFile(src)
	if err != nil {
		return 0, fmt.Errorf("read the recording: %w", err)
	}
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[:i+1]
	}
	if err := writeNew(dst, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
		return 0, err
	}
	return max(0, bytes.Count(b, []byte("\n"))-1), nil
}

// writeNew creates dst (mode 0600, never over an existing file) and fills it with write.
func writeNew(dst string, write func(io.Writer) error) error {
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("%s already exists: choose another name", dst)
	}
	if err != nil {
		return fmt.Errorf("save: %w", err)
	}
	werr := write(f)
	cerr := f.Close()
	if werr != nil {
		return fmt.Errorf("save %s: %w", dst, werr)
	}
	if cerr != nil {
		return fmt.Errorf("save %s: %w", dst, cerr)
	}
	return nil
}

// saved reports the end of a save in the footer.
func (m *Model) saved(msg SavedMsg) tea.Cmd {
	if msg.Err != nil {
		return statusCmd("not saved: "+msg.Err.Error(), true)
	}
	m.savedUpTo = m.hist.FirstIndex() + uint64(m.hist.Len())
	if msg.Truncated > 0 {
		return statusCmd(fmt.Sprintf("saved %s to %s; %s saved truncated (the full bytes were not kept)",
			textfmt.Plural(msg.Events, "event"), msg.Path, textfmt.Plural(msg.Truncated, "frame")), true)
	}
	return statusCmd(fmt.Sprintf("saved %s to %s", textfmt.Plural(msg.Events, "event"), msg.Path), false)
}

// unsaved reports whether quitting loses the session: a live session of mcpscope's own that
// is not recorded (--no-record) has frames that were not saved (ctrl+w) since they came.
func (m *Model) unsaved() bool {
	if m.opts.Recorder != nil || m.open != nil || m.live != nil || m.hist.FirstIndex()+uint64(m.hist.Len()) <= m.savedUpTo {
		return false
	}
	for _, e := range m.hist.Entries() {
		if e.Ev != nil && e.Ev.Kind == session.EvFrame && e.Index >= m.savedUpTo {
			return true
		}
	}
	return false
}

// recName is the short name of the live recording for the status bar, or "".
func (m *Model) recName() string {
	if m.opts.Recorder == nil {
		return ""
	}
	return textfmt.Clip(filepath.Base(m.opts.Recorder.Path), 40)
}
