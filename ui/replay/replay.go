package replay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui"
)

// sideBySideWidth is the width from which the two responses sit side by side.
const sideBySideWidth = 120

// Options configure the replay report.
type Options struct {
	Transcript *recordings.Transcript
	// Session is the live server's session, not yet connected, made with a Responder from
	// recordings.NewResponder; Replay connects it. Its owner closes it.
	Session *session.Session
	Replay  recordings.ReplayOptions
	Target  string // the live server, masked, for the status bar
	// Secrets are the values the command line gave (bearer token, -H values, ...): the
	// screen and the --debug log mask them.
	Secrets []string
}

// doneMsg is the replay's outcome.
type doneMsg struct {
	rep *recordings.Report
	err error
}

// progressMsg is how far the replay has come: done of total requests.
type progressMsg struct{ done, total int }

// RunCmd runs the replay; it ends early when ctx is cancelled. When progress is not nil,
// the replay puts its latest progress there (only the latest is kept).
func RunCmd(ctx context.Context, o Options, progress chan progressMsg) tea.Cmd {
	return func() tea.Msg {
		ro := o.Replay
		if progress != nil {
			prev := ro.Progress
			ro.Progress = func(done, total int) {
				if prev != nil {
					prev(done, total)
				}
				p := progressMsg{done, total}
				for {
					select {
					case progress <- p:
						return
					default:
					}
					select {
					case <-progress: // drop the older one
					default:
					}
				}
			}
		}
		rep, err := recordings.Replay(ctx, o.Transcript, o.Session, ro)
		return doneMsg{rep: rep, err: err}
	}
}

// waitProgressCmd delivers the next progress of the replay.
func waitProgressCmd(ctx context.Context, progress <-chan progressMsg) tea.Cmd {
	return func() tea.Msg {
		select {
		case p := <-progress:
			return p
		case <-ctx.Done():
			return nil
		}
	}
}

// Model is the replay report's program.
type Model struct {
	c    *ui.Common
	keys *KeyMap
	opts Options
	ctx  context.Context
	stop context.CancelFunc

	rep      *recordings.Report
	err      error
	done     bool
	progress chan progressMsg
	at       progressMsg // the latest progress

	cur, off  int  // selected request; first request row shown
	focusResp bool // the responses have the keys, not the list
	live      bool // in a narrow terminal: the live response is shown, not the recorded one
	scroll    int  // first response line shown
	showHelp  bool
	help      help.Model

	lay   layout
	cache cache // the selected request's response lines at the current width
}

// cache holds the laid-out responses of one request at one width.
type cache struct {
	n, w      int
	dark      bool
	rec, live []rline
	ok        bool
}

// New builds the report's model; Init starts the replay.
func New(c *ui.Common, o Options) *Model {
	ctx, stop := context.WithCancel(context.Background())
	return &Model{c: c, keys: NewKeyMap(c.Keys), opts: o, ctx: ctx, stop: stop, help: help.New(),
		progress: make(chan progressMsg, 1)}
}

// Init starts the replay and asks the terminal for its background colour.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(RunCmd(m.ctx, m.opts, m.progress), waitProgressCmd(m.ctx, m.progress), tea.RequestBackgroundColor)
}

// Report is the replay's report (nil until it has finished) and its error.
func (m *Model) Report() (*recordings.Report, error) { return m.rep, m.err }

// Update handles one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
		m.relayout()
		if m.rep != nil {
			m.selected() // the lines are laid out anew: show the first difference again
		}
	case tea.BackgroundColorMsg:
		m.c.Styles = ui.NewStyles(msg.IsDark())
	case progressMsg:
		if m.done {
			return m, nil
		}
		m.at = msg
		return m, waitProgressCmd(m.ctx, m.progress)
	case doneMsg:
		m.rep, m.err, m.done = msg.rep, msg.err, true
		if m.rep != nil && m.err == nil {
			m.cur = m.firstDifferent()
			m.selected()
		}
		m.relayout()
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.MouseWheelMsg:
		if msg.Button == tea.MouseWheelUp {
			m.scrollBy(-3)
		} else if msg.Button == tea.MouseWheelDown {
			m.scrollBy(3)
		}
	}
	return m, nil
}

// firstDifferent is the first request whose status is neither "same" nor "cancelled" (a
// cancel replayed as recorded), else the first.
func (m *Model) firstDifferent() int {
	for i, r := range m.rep.Results {
		if r.Status != recordings.StatusSame && r.Status != recordings.StatusCancelled {
			return i
		}
	}
	return 0
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	if m.showHelp {
		if key.Matches(msg, k.Help, k.Quit, m.c.Keys.Back) {
			m.showHelp = false
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Quit):
		m.stop()
		return tea.Quit
	case key.Matches(msg, k.Help):
		m.showHelp = true
	case m.rep == nil:
	case key.Matches(msg, k.Focus):
		m.focusResp = !m.focusResp
	case key.Matches(msg, k.Side):
		m.live = !m.live
		m.selected()
	case key.Matches(msg, k.NextDiff):
		m.jumpDiff(1)
	case key.Matches(msg, k.PrevDiff):
		m.jumpDiff(-1)
	case key.Matches(msg, k.PageDown):
		m.scrollBy(max(1, m.lay.respH-1))
	case key.Matches(msg, k.PageUp):
		m.scrollBy(-max(1, m.lay.respH-1))
	case m.focusResp && key.Matches(msg, k.Down):
		m.scrollBy(1)
	case m.focusResp && key.Matches(msg, k.Up):
		m.scrollBy(-1)
	case m.focusResp && key.Matches(msg, k.Top):
		m.scroll = 0
	case m.focusResp && key.Matches(msg, k.Bottom):
		m.scrollBy(1 << 30)
	case key.Matches(msg, k.Down):
		m.move(1)
	case key.Matches(msg, k.Up):
		m.move(-1)
	case key.Matches(msg, k.Top):
		m.move(-len(m.rep.Results))
	case key.Matches(msg, k.Bottom):
		m.move(len(m.rep.Results))
	}
	return nil
}

// move selects another request and shows its first difference.
func (m *Model) move(n int) {
	cur := max(0, min(len(m.rep.Results)-1, m.cur+n))
	if cur == m.cur {
		return
	}
	m.cur = cur
	m.selected()
}

// selected shows the selected request's responses from their first difference.
func (m *Model) selected() {
	m.scroll = 0
	m.clampList()
	if rows := m.respLines(); len(rows) > 0 {
		for i, r := range rows {
			if r.mark {
				m.scroll = max(0, i-2)
				break
			}
		}
		m.clampScroll()
	}
}

func (m *Model) clampList() {
	rows := m.lay.listRows
	if rows <= 0 {
		return
	}
	m.off = max(0, min(m.off, m.cur))
	if m.cur >= m.off+rows {
		m.off = m.cur - rows + 1
	}
}

func (m *Model) scrollBy(n int) {
	m.scroll += n
	m.clampScroll()
}

func (m *Model) clampScroll() {
	m.scroll = max(0, min(m.scroll, m.respLen()-m.lay.respH))
}

// jumpDiff scrolls to the next (dir 1) or previous (-1) block of marked lines.
func (m *Model) jumpDiff(dir int) {
	marks := m.marks()
	top := m.scroll + 2 // the line a jump puts a difference on
	i := top + dir
	for ; i >= 0 && i < len(marks); i += dir {
		if marks[i] && (i == 0 || !marks[i-1]) {
			m.scroll = max(0, i-2)
			m.clampScroll()
			return
		}
	}
}

// marks says, line by line, whether the responses shown mark a difference there.
func (m *Model) marks() []bool {
	rec, live := m.lines()
	shown := [][]rline{rec, live}
	if !m.lay.wide {
		shown = [][]rline{m.respLines()}
	}
	var out []bool
	for _, side := range shown {
		for i, r := range side {
			if i >= len(out) {
				out = append(out, false)
			}
			out[i] = out[i] || r.mark
		}
	}
	return out
}

// respLines are the lines of the response shown in a narrow terminal.
func (m *Model) respLines() []rline {
	rec, live := m.lines()
	if m.live {
		return live
	}
	return rec
}

// respLen is the number of response lines the pane can scroll through.
func (m *Model) respLen() int {
	rec, live := m.lines()
	if m.lay.wide {
		return max(len(rec), len(live))
	}
	return len(m.respLines())
}

// lines lays out the selected request's two responses at the pane's width, once per
// (request, width, flavour).
func (m *Model) lines() (rec, live []rline) {
	if m.rep == nil || len(m.rep.Results) == 0 {
		return nil, nil
	}
	w := m.lay.colW - 1 // the first column marks the differing lines
	c, s := &m.cache, m.c.Styles
	if !c.ok || c.n != m.cur || c.w != w || c.dark != s.Dark {
		r := m.rep.Results[m.cur]
		*c = cache{n: m.cur, w: w, dark: s.Dark, ok: true,
			rec:  responseLines(s.JSON(), r.Recorded, r.Differences, w, noResponse(&r, "(no recorded response)")),
			live: responseLines(s.JSON(), r.Live, r.Differences, w, noResponse(&r, "(no live response)"))}
	}
	return c.rec, c.live
}

func (m *Model) relayout() {
	n := 0
	if m.rep != nil {
		n = len(m.rep.Results)
	}
	m.lay = computeLayout(m.c.Width, m.c.Height, n, m.diffLines())
	m.keys.Side.SetEnabled(!m.lay.wide)
	m.help.SetWidth(m.c.Width)
	m.clampList()
	m.clampScroll()
}

// diffLines is how many lines the selected request's differences take above the responses.
func (m *Model) diffLines() int {
	if m.rep == nil || len(m.rep.Results) == 0 {
		return 0
	}
	return len(diffBlock(m.c.Styles, m.c.Mask, m.rep.Results[m.cur], m.c.Width))
}

// Summary counts the requests by status: "12 same, 1 different".
func Summary(rep *recordings.Report) string {
	counts := map[string]int{}
	for _, x := range rep.Results {
		counts[x.Status]++
	}
	var parts []string
	for _, st := range []string{recordings.StatusSame, recordings.StatusCancelled, recordings.StatusDifferent, recordings.StatusMissing, recordings.StatusExtra, recordings.StatusError} {
		if counts[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[st], st))
		}
	}
	if len(parts) == 0 {
		return "nothing replayed"
	}
	return strings.Join(parts, ", ")
}

// errStopped is the outcome of a replay the user left before it finished.
var errStopped = errors.New("the replay was stopped before it finished")

// Run runs the replay report until the user quits and returns the replay's report,
// or why there is none.
func Run(ctx context.Context, o Options, debugPath string) (*recordings.Report, error) {
	var logw io.Writer
	if debugPath != "" {
		f, err := os.OpenFile(debugPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, fmt.Errorf("--debug: %w", err)
		}
		defer f.Close()
		logw = f
	}
	c := ui.NewCommon(logw)
	c.SetMasks(recordings.Options{Secrets: o.Secrets})
	m := New(c, o)
	defer m.stop()
	if _, err := tea.NewProgram(m, tea.WithContext(ctx)).Run(); err != nil && ctx.Err() == nil {
		return nil, fmt.Errorf("interactive view: %w", err)
	}
	rep, err := m.Report()
	if rep == nil && err == nil {
		return nil, errStopped
	}
	return rep, err
}

// Progress is a replay's progress as a line: "[███░░…] 1234 of 5000 requests replayed
// (24%)"; "" before the first request.
func Progress(done, total int) string {
	if total <= 0 || done <= 0 {
		return ""
	}
	const width = 20
	fill := min(width, done*width/total)
	return fmt.Sprintf("[%s%s] %d of %d requests replayed (%d%%)", strings.Repeat("█", fill), strings.Repeat("░", width-fill),
		done, total, done*100/total)
}

// noResponse is what stands for a response the report does not have.
func noResponse(r *recordings.Result, none string) string {
	if r.NotKept {
		return "(answered as recorded; not kept: the report keeps the first 64 MiB of responses that are the same)"
	}
	return none
}
