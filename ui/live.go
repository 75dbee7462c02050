package ui

import (
	"encoding/json"
	"errors"
	"io"
	"sync"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// A live tap is watched read-only: the events the tap streams (the ones it kept, then each
// new one) enter the history as a session's would, the explorer's lists are the last
// */list results the host asked for (every page of each), and the server page shows the
// handshake the host made. Nothing is ever sent: the view only listens.

// liveQueue and liveBytes bound the events read from the tap and not yet taken by the view.
// When either is reached the reader stops reading, the tap's own per-viewer queue fills, and
// the tap drops this viewer's oldest events and sends a gap line in their place rather than
// slowing down.
const (
	liveQueue = 8192
	liveBytes = session.DefaultSubscriptionBytes
)

// liveGen is the generation of a tap's events in the history: a tap is one session.
const liveGen = 1

// LiveFeed reads a live tap's events for the interactive view. A goroutine takes them from
// the tap's connection into a queue bounded by count and bytes; the view takes one batch at
// a time with liveNextCmd. Close stops the goroutine and disconnects; whoever makes the
// feed closes it.
type LiveFeed struct {
	l    *recordings.Live
	name string
	stop chan struct{}
	done chan struct{}
	once sync.Once

	mu    sync.Mutex
	q     session.Queue[liveItem] // lossless: the reader waits while it is full
	ended bool                    // the reader stopped: the tap's stream ended or the feed closed
	err   error                   // why the stream ended, when not cleanly
	wake  chan struct{}           // items arrived or the reader stopped
	room  chan struct{}           // the view took items
}

// liveItem is one event read from the tap, or a line that could not be decoded.
type liveItem struct {
	ev      *session.Event
	problem string
}

// NewLiveFeed starts reading l, the tap called name.
func NewLiveFeed(l *recordings.Live, name string) *LiveFeed { return newLiveFeed(l, name, liveBytes) }

// newLiveFeed is NewLiveFeed holding at most maxBytes of events (and liveQueue events).
func newLiveFeed(l *recordings.Live, name string, maxBytes int64) *LiveFeed {
	f := &LiveFeed{l: l, name: name, stop: make(chan struct{}), done: make(chan struct{}),
		q:    session.Queue[liveItem]{MaxItems: liveQueue, MaxBytes: maxBytes, Lossless: true},
		wake: make(chan struct{}, 1), room: make(chan struct{}, 1)}
	go f.run()
	return f
}

// Name is the tap's name.
func (f *LiveFeed) Name() string { return f.name }

// Header is the tap's recording header.
func (f *LiveFeed) Header() recordings.Header { return f.l.Header() }

// Recording is the file the tap records to ("" when none).
func (f *LiveFeed) Recording() string { return f.l.Recording() }

// Close disconnects from the tap and waits for the reader to stop.
func (f *LiveFeed) Close() {
	f.once.Do(func() {
		close(f.stop)
		_ = f.l.Close()
	})
	<-f.done
}

func (f *LiveFeed) run() {
	defer close(f.done)
	var err error
	defer func() {
		f.mu.Lock()
		f.ended, f.err = true, err
		f.mu.Unlock()
		poke(f.wake)
	}()
	for {
		e, nerr := f.l.Next()
		it := liveItem{ev: e.Event}
		var size int64
		switch {
		case nerr == nil:
			size = e.Event.Size()
		case e.Line > 0: // a line that does not decode: shown, and the stream goes on
			it.problem = nerr.Error()
			size = int64(len(it.problem))
		default:
			if !errors.Is(nerr, io.EOF) {
				err = nerr
			}
			return
		}
		f.mu.Lock()
		f.q.Push(it, 0, size, time.Time{})
		full := f.q.Full()
		f.mu.Unlock()
		poke(f.wake)
		for full {
			select {
			case <-f.room:
			case <-f.stop:
				return
			}
			f.mu.Lock()
			full = f.q.Full()
			f.mu.Unlock()
		}
	}
}

// take removes up to max queued items; ended says the reader stopped and nothing is left.
func (f *LiveFeed) take(max int) (items []liveItem, ended bool, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, _, items = f.q.Take(max)
	if len(items) > 0 {
		poke(f.room)
	}
	return items, f.ended && f.q.Len() == 0, f.err
}

// poke wakes the one waiter of c, if any, without blocking.
func poke(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// liveEventsMsg is one batch of the tap's events.
type liveEventsMsg struct {
	items []liveItem
	ended bool  // the tap's stream ended after these
	err   error // why, when not cleanly
}

// liveNextCmd waits for the next batch: at least pumpInterval after the last one, it blocks
// until an event arrives, then takes what has arrived, up to maxBatch. The model issues it
// again after each batch, as it does PumpCmd.
func liveNextCmd(f *LiveFeed, last time.Time) tea.Cmd {
	return func() tea.Msg {
		if wait := pumpInterval - time.Since(last); wait > 0 {
			time.Sleep(wait)
		}
		for {
			items, ended, err := f.take(maxBatch)
			if len(items) > 0 || ended {
				msg := liveEventsMsg{items: items, ended: ended}
				if ended {
					msg.err = err
				}
				return msg
			}
			<-f.wake
		}
	}
}

// liveView is the state of a tap watched read-only.
type liveView struct {
	feed   *LiveFeed
	ended  bool
	err    error
	hs     []*traffic.Entry // the handshake the host made: its request, the answer, initialized
	lists  *liveLists
	listed bool // the explorer has had its first lists
}

// initLive sets the model up for a live tap: keys that act on a session are disabled, so
// help does not offer them; ctrl+w saves the events in memory under the tap's header.
func (m *Model) initLive() {
	if m.opts.Live == nil {
		return
	}
	m.live = &liveView{feed: m.opts.Live, lists: newLiveLists()}
	m.c.Keys.Disable(&m.c.Keys.Restart, m.offlineReason())
	m.gen = liveGen
	m.state = session.StateReady
	m.opts.RecordHeader = m.opts.Live.Header()
	m.server.SetRecording(m.opts.Live.Recording()) // the tap's own recording
	m.info.Transport = m.opts.RecordHeader.Transport
}

// liveInit asks for the first batch.
func (m *Model) liveInit() tea.Cmd { return liveNextCmd(m.live.feed, time.Time{}) }

// liveEvents takes in one batch from the tap and asks for the next.
func (m *Model) liveEvents(msg liveEventsMsg) tea.Cmd {
	lv := m.live
	if lv == nil {
		return nil
	}
	hsChanged, changed := false, map[session.ListKind]bool{}
	for _, it := range msg.items {
		if it.ev == nil {
			m.hist.AddMarker(liveGen, it.problem)
			continue
		}
		e, _ := m.hist.Add(liveGen, it.ev)
		m.observeFaultRules(it.ev)
		m.stats.Observe([]*session.Event{it.ev})
		hsChanged = lv.takeHandshake(e) || hsChanged
		if k, ok := lv.lists.take(e, it.ev); ok {
			changed[k] = true
		}
	}
	if msg.ended {
		lv.ended, lv.err = true, msg.err
		m.state = session.StateClosed
		m.hist.EndGeneration(liveGen, "the tap ended")
	}
	if hsChanged {
		m.info = recordedInfo(lv.hs)
		m.info.Transport = m.opts.RecordHeader.Transport
		m.server.SetHandshake(lv.hs)
		m.server.SetInfo(m.info)
	}
	var cmds []tea.Cmd
	if len(changed) > 0 {
		cmds = append(cmds, m.liveLists(changed))
	}
	cmds = append(cmds, m.holdsObserve(liveHoldNotes(msg.items)))
	m.timeline.Sync()
	if sel := m.timeline.Selected(); sel != nil {
		cmds = append(cmds, m.detail.SetEntry(sel))
	}
	if !msg.ended {
		m.lastPump = time.Now()
		cmds = append(cmds, liveNextCmd(lv.feed, m.lastPump))
	}
	if m.hist.InFlight() > 0 && !m.ticking {
		m.ticking = true
		cmds = append(cmds, tickCmd())
	}
	return tea.Batch(cmds...)
}

// takeHandshake follows the host's handshake: an initialize (or server/discover) request
// starts it again, its answer and notifications/initialized complete it. It reports
// whether e was part of it.
func (lv *liveView) takeHandshake(e *traffic.Entry) bool {
	f := e.Ev.Frame
	if f == nil {
		return false
	}
	switch {
	case e.IsRequest() && (f.Method == "initialize" || f.Method == "server/discover"):
		lv.hs = []*traffic.Entry{e}
	case len(lv.hs) == 0:
		return false
	case f.Kind.IsResponse() && e.Pair == lv.hs[0]:
		lv.hs = append(lv.hs, e)
	case f.Method == "notifications/initialized":
		lv.hs = append(lv.hs, e)
	default:
		return false
	}
	return true
}

// liveLists shows the lists that changed: the first time, every list so far (a kind the
// server offers but the host has not listed yet says so); then each relisted kind, with
// the explorer's notice of what changed.
func (m *Model) liveLists(changed map[session.ListKind]bool) tea.Cmd {
	lv := m.live
	if lv.listed {
		upd := map[session.ListKind][]json.RawMessage{}
		for k := range changed {
			upd[k] = lv.lists.done[k]
		}
		cmd := m.explorer.UpdateLists(upd)
		m.server.SetApps(m.explorer.AppsTally(), nil)
		return tea.Batch(cmd, m.explorer.CountTokensCmd())
	}
	lv.listed = true
	errs := map[session.ListKind]error{}
	for _, k := range session.ListKinds {
		if _, ok := lv.lists.done[k]; !ok && m.info.Capabilities != nil && offers(m.info, k) {
			errs[k] = errNotListedYet
		}
	}
	m.explorer.SetLists(lv.lists.done, errs)
	m.server.SetApps(m.explorer.AppsTally(), nil)
	return m.explorer.CountTokensCmd()
}

// errNotListedYet stands for a list the host has not asked for since the view attached.
var errNotListedYet = errors.New("the host has not asked for it yet (the view shows the lists the host asks for)")

// liveKey handles the keys that differ on a live tap: quitting never asks, since nothing
// the view does is in flight. ok is false for every other key.
func (m *Model) liveKey(msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	if m.live == nil || !key.Matches(msg, m.c.Keys.Quit) {
		return nil, false
	}
	return tea.Quit, true
}

// liveTitle names the tap in the status bar, and says when it has ended.
func (m *Model) liveTitle() []string {
	s := m.c.Styles
	parts := []string{s.StatusWarn.Render(" attached to " + textfmt.Clip(m.live.feed.Name(), 40) + " (live)")}
	switch {
	case m.live.err != nil:
		parts = append(parts, s.StatusBad.Render("tap ended: "+m.live.err.Error()))
	case m.live.ended:
		parts = append(parts, s.StatusBad.Render("tap ended"))
	}
	return parts
}
