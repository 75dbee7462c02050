package ui

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// fullTimeout bounds the wait for the whole of a frame held cut: the recorder may still be
// writing the events before it.
const fullTimeout = 30 * time.Second

// FullFrames reads back the whole of a frame the history holds cut to its head (a frame
// larger than Options.TruncateOver): its event as recorded. Load is called in Update and
// only captures what the read needs; the function it returns does the reading, in a
// command. A nil Load means the full bytes were not kept, and Why says why in plain words.
type FullFrames struct {
	Load func(e *traffic.Entry) func(ctx context.Context) (*session.Event, error)
	Why  string
}

// recorderFrames reads frames back from the interactive view's own recording, through the
// writer's index of its large frames.
func recorderFrames(r *Recorder) FullFrames {
	return FullFrames{Why: "the full frame is in the recording " + r.Path,
		Load: func(e *traffic.Entry) func(ctx context.Context) (*session.Event, error) {
			gen, seq := e.Gen, e.Ev.Seq
			return func(ctx context.Context) (*session.Event, error) {
				loc, err := r.w.Locate(ctx, gen, seq)
				if err != nil {
					return nil, err
				}
				return recordedFrame(recordings.ReadAt(r.Path, loc))
			}
		}}
}

// recordedFrame is a recorded frame event.
func recordedFrame(en recordings.Entry, err error) (*session.Event, error) {
	switch {
	case err != nil:
		return nil, err
	case en.Event == nil || en.Event.Frame == nil:
		return nil, errors.New("the recorded event is not a frame")
	}
	return en.Event, nil
}

// fullFramesFor is where the interactive view finds the whole of frames held cut: its
// recording, the recording it browses, or nowhere (and why).
func (m *Model) fullFramesFor() FullFrames {
	switch {
	case m.open != nil:
		return m.open.fullFrames()
	case m.live != nil:
		return FullFrames{Why: "the full bytes were not kept in this view: it watches a tap, whose recording holds them"}
	case m.opts.Recorder != nil:
		return recorderFrames(m.opts.Recorder)
	}
	return FullFrames{Why: "the full bytes were not kept: this session is not recorded (--no-record); record it, or raise --truncate-over, to see such frames whole"}
}

// clippedBody is the body of a frame held cut, in pretty mode: the one read back whole
// from the recording once it is in, until then (or when it cannot be) the head as received.
func (d *Detail) clippedBody(e *traffic.Entry, k hlKey) (bodyView, int) {
	if d.full.Load != nil {
		d.want[k] = nil
		if v, ok := d.cache.get(k); ok {
			if v.full {
				return v, bodyPretty
			}
			return v, bodyHead
		}
	}
	return plainBody(d.screenBytes(e), k.width, "", d.c.Styles.JSON().Escape), bodyHead
}

// fullBodyCmd reads the whole of k's frame back and lays out its body at k's width, with
// the work bounded by the body limits (the fast colorizer over the frame's first bytes).
// The result comes back as a HighlightMsg; when the frame cannot be read, the body is its
// head with the reason.
func (d *Detail) fullBodyCmd(k hlKey) tea.Cmd {
	load, mask := d.full.Load(k.e), d.c.Mask
	head, p := d.screenBytes(k.e), d.c.Styles.JSON()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), fullTimeout)
		defer cancel()
		ev, err := load(ctx)
		var v bodyView
		if err != nil {
			v = plainBody(head, k.width, "", p.Escape)
			v.err = err.Error()
		} else {
			v = fastBody(p, mask.Bytes(ev.Frame.Raw), k.width)
			v.full = true
		}
		return HighlightMsg{Entry: k.e, Width: k.width, Dark: k.dark, body: v}
	}
}

// fullBadge says, for a frame held cut, what the body shows and where the rest is.
func (d *Detail) fullBadge(e *traffic.Entry, v bodyView) string {
	if e.Clipped == 0 {
		return ""
	}
	size := textfmt.Bytes(e.Clipped)
	switch {
	case v.full:
		return fmt.Sprintf("read back whole (%s) from the recording", size)
	case v.err != "":
		return fmt.Sprintf("could not read the full frame (%s) back from the recording: %s", size, v.err)
	case d.raw:
		return fmt.Sprintf("the wire text held in memory: the first %s of %s", textfmt.Bytes(int64(len(e.Ev.Frame.Raw))), size)
	case d.full.Load != nil:
		return fmt.Sprintf("reading the full frame (%s) from the recording…", size)
	}
	return d.full.Why
}

// fullFrames reads frames back from the recording browsed: the entry's event index in the
// window says which line.
func (o *openView) fullFrames() FullFrames {
	return FullFrames{Why: "the full frame is in the recording " + o.r.Path(),
		Load: func(e *traffic.Entry) func(ctx context.Context) (*session.Event, error) {
			i := int(e.Index) - o.lo
			if i < 0 || i >= len(o.evIdx) {
				return func(context.Context) (*session.Event, error) {
					return nil, errors.New("the row is no longer in the window read from the recording: select it again")
				}
			}
			r, idx := o.r, int(o.evIdx[i])
			return func(context.Context) (*session.Event, error) { return recordedFrame(r.Entry(idx)) }
		}}
}
