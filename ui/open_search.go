package ui

import (
	"context"
	"sort"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// A filter is applied to an opened recording by recordings.Search: the file is read in
// chunks on every CPU, the query's literal text is looked for in the bytes (see
// traffic.Query.Prefilter), and only the lines that hold it are decoded. A term that needs the
// rows around its event (tool:, slow:, has:progress) first gets a pass of its own over the
// lines that can tie events together (traffic.Query.Relate). Matches come to the view as they
// are found, in the file's order, and a new filter cancels the search under way.

// openSearchMsg: the matches a search found since the last message.
type openSearchMsg struct {
	token   int
	next    int     // how far the search has got: its passes together, in events of the recording
	matches []int32 // ascending
	done    bool    // the search is over: hsIdx is set, or err
	hsIdx   []int32
	err     error
	ch      <-chan openSearchMsg
}

// searchCmd starts the search for the events that pass pred. The search runs until it is
// done or the next filter cancels it; the background check of every line waits for it,
// so that the search has every CPU.
func (o *openView) searchCmd(pred *Timeline) tea.Cmd {
	ctx, cancel := context.WithCancel(context.Background())
	o.cancel, o.searching = cancel, true
	token, r := o.token, o.r
	return func() tea.Msg {
		ch := make(chan openSearchMsg, 1)
		go runSearch(ctx, r, token, pred, ch)
		return waitSearch(ch)()
	}
}

// waitSearch waits for the search's next message.
func waitSearch(ch <-chan openSearchMsg) tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-ch
		if !ok {
			return nil
		}
		msg.ch = ch
		return msg
	}
}

// runSearch searches r and sends what it finds on ch: at once when the view has taken
// the previous message, gathered while it has not, so a slow view never holds the search
// up for long and a fast one sees each match as it is found.
func runSearch(ctx context.Context, r *recordings.Reader, token int, pred *Timeline, ch chan<- openSearchMsg) {
	defer close(ch)
	// Each relation's pass, then the search: the progress of all of them, in events.
	passes, n := pred.query.Relations()+1, r.Len()
	scaled := func(pass, next int) int { return (pass*n + next) / passes }
	q, terms, err := pred.query.Relate(ctx, r, func(pass, next int) {
		select {
		case ch <- openSearchMsg{token: token, next: scaled(pass, next)}:
		default:
		}
	})
	if err != nil {
		select {
		case ch <- openSearchMsg{token: token, done: true, err: err}:
		case <-ctx.Done():
		}
		return
	}
	bound := *pred
	bound.query = q
	pf := q.Prefilter()
	pf.Terms = terms
	q.Bypass(&pf)
	var mu sync.Mutex
	starts := map[int]int{} // the first state event of each session: where its handshake is
	test := func(i int, e recordings.Entry) bool {
		gen := max(1, e.Gen)
		if e.Event.Kind == session.EvState {
			mu.Lock()
			if s, ok := starts[gen]; !ok || i < s {
				starts[gen] = i
			}
			mu.Unlock()
		}
		ent := traffic.NewEntry(gen, e.Event)
		ent.Index = uint64(i) // the relations judge an event by its line
		return bound.passes(ent)
	}
	out := openSearchMsg{token: token}
	err = r.Search(ctx, 0, pf, test, func(s recordings.SearchStep) bool {
		out.matches = append(out.matches, s.Matches...)
		out.next = scaled(passes-1, s.Next)
		select {
		case ch <- out:
			out = openSearchMsg{token: token, next: out.next}
		default:
		}
		return true
	})
	out.done, out.err = true, err
	if err == nil {
		out.hsIdx = searchHandshakes(r, starts)
	}
	select {
	case ch <- out:
	case <-ctx.Done():
	}
}

// searchHandshakes lists the events of each session's handshake (a filtered save keeps
// them): read from the start of the recording and from the first state event of each
// later session.
func searchHandshakes(r *recordings.Reader, starts map[int]int) []int32 {
	type start struct{ gen, at int }
	var list []start
	first := 0
	if e, err := r.Entry(0); err == nil {
		first = max(1, e.Gen)
		list = append(list, start{first, 0})
	}
	for gen, at := range starts {
		if gen != first {
			list = append(list, start{gen, at})
		}
	}
	sort.Slice(list, func(a, b int) bool { return list[a].at < list[b].at })
	var out []int32
	for _, s := range list {
		hs := handshakes{}
		for i := s.at; i < min(r.Len(), s.at+openHandshake); i++ {
			e, err := r.Entry(i)
			if err != nil || max(1, e.Gen) != s.gen {
				continue
			}
			if hs.take(s.gen, e.Event) {
				out = append(out, int32(i))
			} else if t := hs[s.gen]; t != nil && t.done {
				break
			}
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a] < out[b] })
	return out
}

// openSearched takes in what the search found and waits for more.
func (m *Model) openSearched(msg openSearchMsg) tea.Cmd {
	o := m.open
	o.src = append(o.src, msg.matches...)
	o.scanNext = msg.next
	var cmds []tea.Cmd
	if msg.done {
		o.scanNext = o.r.Len()
		o.hsIdx = msg.hsIdx
		o.searching = false
		cmds = append(cmds, o.resumeCheck())
		if msg.err != nil && msg.err != context.Canceled {
			cmds = append(cmds, statusCmd("search: "+msg.err.Error(), true))
		}
	} else {
		cmds = append(cmds, waitSearch(msg.ch))
	}
	switch {
	case o.stale && len(o.src) > 0 && !o.loading:
		cmds = append(cmds, o.loadCmd(0, 0))
	case o.stale && msg.done && len(o.src) == 0:
		cmds = append(cmds, m.openWindow(openWindowMsg{token: o.token}))
	default:
		cmds = append(cmds, m.openFollow())
	}
	return tea.Batch(cmds...)
}
