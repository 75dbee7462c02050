package explorer

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol/events"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/form"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// The Events extension's tab: the event types a server lists with events/list, each with
// its delivery modes and schemas; enter opens a form of the type's inputSchema (the same
// form engine as tools) and subscribes: one poll from the cursor of the previous one where
// poll is offered, else a push stream held for a few occurrences. Occurrences are checked
// against the payloadSchema; their findings are on the frames in the timeline, where a
// stream's notifications are paired to its events/stream request. Webhook delivery runs
// headless (mcpscope events webhook).

// Bounds of a push stream the explorer holds.
const (
	exStreamEvents = 3
	exStreamHold   = 20 * time.Second
)

// setEventsTab adds the events tab, after the four core lists, when the server declares
// the Events extension, and removes it otherwise.
func (x *Explorer) setEventsTab(on bool) {
	at := -1
	for i, t := range x.tabs {
		if t.kind == session.ListEvents {
			at = i
		}
	}
	switch {
	case on && at < 0:
		pos := min(len(session.ListKinds), len(x.tabs))
		x.tabs = append(x.tabs[:pos], append([]*exTab{{kind: session.ListEvents}}, x.tabs[pos:]...)...)
	case !on && at >= 0:
		x.tabs = append(x.tabs[:at], x.tabs[at+1:]...)
		x.cur = min(x.cur, len(x.tabs)-1)
	}
}

// eventBadges are an event type's modes, and a mark when its entry breaks the rules.
func (x *Explorer) eventBadges(it *exItem) []badge {
	s := x.c.Styles
	if it.event == nil {
		return nil
	}
	var out []badge
	for _, m := range it.event.Delivery {
		out = append(out, badge{m, s.Badge})
	}
	if len(it.event.Findings) > 0 {
		out = append(out, badge{"✗entry", s.BadgeError})
	}
	return out
}

// eventLines is an event type's detail: what is wrong with the entry, and its modes.
func eventLines(s *Styles, t *events.Type, prefix string, w int) []string {
	var out []string
	for _, f := range t.Findings {
		out = append(out, textfmt.Hanging(s.Error, prefix+"• ", f.Message, w)...)
	}
	modes := make([]string, 0, len(events.Modes))
	for _, m := range events.Modes {
		mark := "✗"
		if t.Offers(m) {
			mark = "✓"
		}
		modes = append(modes, mark+" "+m)
	}
	return append(out, prefix+s.Text.Render(strings.Join(modes, "   ")))
}

// eventForm opens the form of an event type's inputSchema; submitting subscribes.
func (x *Explorer) eventForm(it *exItem) tea.Cmd {
	t := it.event
	mode := ""
	switch {
	case t == nil:
		return statusCmd("this event type could not be read", true)
	case t.Offers(events.ModePoll):
		mode = events.ModePoll
	case t.Offers(events.ModePush):
		mode = events.ModePush
	default:
		return statusCmd(fmt.Sprintf("%s is delivered by webhook only: run mcpscope events webhook %s", t.Name, t.Name), true)
	}
	submit := func(args json.RawMessage) tea.Cmd {
		sub := session.EventSub{Name: t.Name, Arguments: args}
		if mode == events.ModePoll {
			if x.eventCursors == nil {
				x.eventCursors = &cursorBook{m: map[string]*string{}}
			}
			key := runKey(it) + "\x00" + string(args)
			sub.Cursor = x.eventCursors.get(key)
			book := x.eventCursors
			return x.start(it, "events/poll", t.Name, "", pollEventsCmd(x.sess, x.gen, x.runSeq+1, sub, *t, func(c *string) {
				book.set(key, c)
			}))
		}
		return x.start(it, "events/stream", t.Name, "", streamEventsCmd(x.sess, x.gen, x.runSeq+1, sub, *t))
	}
	sch, err := form.Parse(t.InputSchema)
	if err != nil {
		return statusCmd(fmt.Sprintf("%s: cannot build a form from its inputSchema: %v", t.Name, err), true)
	}
	if sch.Empty() {
		return submit(json.RawMessage(`{}`))
	}
	return x.openForm(it, sch, "events/"+mode+" "+t.Name, nil, submit)
}

// cursorBook keeps the cursor each polled event type resumes from, by item and arguments;
// the poll that learns one runs off the UI loop.
type cursorBook struct {
	mu sync.Mutex
	m  map[string]*string
}

func (b *cursorBook) get(k string) *string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.m[k]
}

func (b *cursorBook) set(k string, c *string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.m) > 256 {
		clear(b.m) // bounded: a long session forgets old cursors and polls from now
	}
	b.m[k] = c
}

// pollEventsCmd polls once off the UI loop; remember keeps the cursor for the next poll.
func pollEventsCmd(s *session.Session, gen, run int, sub session.EventSub, t events.Type, remember func(*string)) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		res, resp, err := s.PollEvents(ctx, sub, 0, events.NewTracker(t))
		if err == nil {
			remember(res.Cursor)
		}
		return CallDoneMsg{Gen: gen, Run: run, Resp: resp, Err: err, Rev: s.Info().Revision, At: time.Now()}
	}
}

// streamEventsCmd holds a push stream off the UI loop until a few occurrences arrived or
// its time is up, then cancels it.
func streamEventsCmd(s *session.Session, gen, run int, sub session.EventSub, t events.Type) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), exStreamHold)
		defer cancel()
		n := 0
		resp, err := s.StreamEvents(ctx, sub, events.NewTracker(t), 0, func(it session.StreamItem) {
			if it.Note.Occurrence != nil {
				if n++; n == exStreamEvents {
					cancel()
				}
			}
		})
		if err != nil && ctx.Err() != nil {
			err = fmt.Errorf("the push stream was held for %d occurrence(s), then cancelled by mcpscope; its notifications are in the timeline", n)
		}
		return CallDoneMsg{Gen: gen, Run: run, Resp: resp, Err: err, Rev: s.Info().Revision, At: time.Now()}
	}
}
