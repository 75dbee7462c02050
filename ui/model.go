package ui

import (
	"encoding/json"
	"errors"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/query"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/recordings/pin"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/transport"
	"github.com/mcpscope/mcpscope/ui/explorer"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// Options configure the program.
type Options struct {
	// NewSession builds a fresh, unconnected session on the selected server; it is called
	// at start and for every restart.
	NewSession func() (*session.Session, error)
	// NewSessionIn, when set, builds a session that forces protocol revision rev; the
	// server page's era key restarts with it (nil: that key is off).
	NewSessionIn  func(rev string) (*session.Session, error)
	TransportName string // shown until the handshake says more
	Target        string // the server command or URL, masked
	HistoryLimit  int
	// HistoryBytes bounds the bytes of frames the history holds (≤0:
	// traffic.DefaultHistoryBytes); TruncateOver is the frame size past which a frame is held cut
	// to its head (≤0: traffic.DefaultTruncateOver), its full bytes read back from the recording
	// when the detail pane shows it.
	HistoryBytes, TruncateOver int64

	// Recorder records every session (nil: not recorded).
	Recorder *Recorder
	// RecordHeader and RecordOptions describe the server and the masking of secrets for
	// the recordings saved from memory (when there is no Recorder).
	RecordHeader  recordings.Header
	RecordOptions recordings.Options
	// Recording, when set, is browsed read-only instead of a live session: no session is
	// started, and keys that act on one are disabled.
	Recording *recordings.Reader
	// Live, when set, is a tap watched read-only instead of a live session (Target names
	// the tap): its events stream in, and keys that act on a session are disabled.
	Live *LiveFeed
	// Asker answers what the server asks (sampling, elicitation, roots) through dialogs;
	// it must be the sessions' Responder. nil: the sessions answer headless.
	Asker *Asker
	// Servers, when set, are the servers the server picker offers to switch to; with
	// Servers.Current -1 the view starts on the picker, connected to none.
	Servers *ServerList
	// Server is how the headless commands select the same server, for "copy as command".
	Server ServerArgs
	// ArgsFile keeps the arguments each form last sent, per server (Target): a 0600 file in
	// the user's state directory; "" keeps them for this run only.
	ArgsFile string
	// AppCSP is how the policy of an app A hosts is built: "strict" ("" too) or "reference"
	// (apphost.Config.CSP).
	AppCSP string
	// Pin, when set, is the definitions of a pin file (PinName): the explorer marks the
	// items that changed since.
	Pin     *pin.Set
	PinName string
	// Breakpoints, when set, are on the wire of every session NewSession makes
	// (fault.WrapBreaking), or a live tap's (Live.Breakpoints): b and B set and list
	// them, and held messages are shown.
	Breakpoints fault.Control
}

type page int

const (
	pageTraffic page = iota
	pageExplorer
	pageServer
	pageTasks
	pageServers
	pageStats
	pageAuth
)

type focus int

const (
	focusTimeline focus = iota
	focusDetail
)

// Messages.
type (
	// SessionStartedMsg: a new session exists and its events are being pumped.
	SessionStartedMsg struct {
		Gen  int
		Sess *session.Session
		Sub  *session.Subscription
		Err  error
	}
	// ConnectedMsg: the handshake of session Gen ended.
	ConnectedMsg struct {
		Gen int
		Err error
	}
	// ListsMsg: the server's lists, fetched after the handshake.
	ListsMsg struct {
		Gen   int
		Lists map[session.ListKind][]json.RawMessage
		Errs  map[session.ListKind]error
	}
	// TickMsg redraws live timers.
	TickMsg time.Time
	// clearStatusMsg ends the status message it names.
	clearStatusMsg int
)

// statusTimeout is how long a status message stays in the footer.
const statusTimeout = 4 * time.Second

// Model is the root of the program.
type Model struct {
	c    *Common
	opts Options

	sess      *session.Session
	gen       int
	state     session.State
	stateText string
	noStdout  bool   // the current server closed its stdout while still running
	link      string // what the HTTP transport knows of reaching the server (session.NoteLink); "" while reachable
	info      session.ServerInfo
	connErr   error
	lastPump  time.Time
	savedUpTo uint64            // the history's next Index when the session was last saved (quit asks past it)
	life      life              // where the model is in the life of its sessions (lifecycle.go)
	switchTo  *switchPlan       // the next session's is another server's (the picker), or nil
	protocol  protocol.Revision // the revision the era key forced for the sessions to come, or ""

	hist     *traffic.History
	timeline *Timeline
	detail   *Detail
	explorer *explorer.Explorer
	server   *ServerPage
	tasks    *TasksPage
	auth     *AuthPage
	servers  *ServersPage
	stats    *StatsPage
	statsGen int // the first session the live stats count (the last switch of server)

	layout    Layout
	page      page
	focus     focus // the traffic page's focus; it stays while another page shows
	detailMax bool  // the detail pane has the whole body (Maximize)

	dialogs   []Dialog        // the dialog stack, bottom first: the last one has the keys
	filter    textinput.Model // the timeline's filter, edited in the filter dialog
	help      help.Model
	status    StatusMsg
	statusSeq int // which status message a clearStatusMsg clears
	ticking   bool
	brk       breakState                 // held messages (breakpoints.go)
	requests  session.ServerRequestStats // the current session's server→client requests, as last seen

	open  *openView // the recording browsed read-only, or nil
	asker *Asker    // answers what the server asks through dialogs, or nil
	live  *liveView // the tap watched read-only, or nil
}

// NewModel builds the program's model.
func NewModel(c *Common, opts Options) *Model {
	h := traffic.NewHistory(opts.HistoryLimit)
	h.MaxBytes, h.TruncateOver = opts.HistoryBytes, opts.TruncateOver
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = query.Placeholder()
	m := &Model{c: c, opts: opts, hist: h, filter: ti, help: help.New()}
	m.help.Styles = c.Styles.Footer
	c.SetMasks(opts.RecordOptions)
	m.timeline = NewTimeline(c, h)
	if opts.Recorder != nil {
		m.timeline.SpillFile = opts.Recorder.Path
	}
	m.detail = NewDetail(c)
	m.explorer = explorer.NewExplorer(c)
	m.explorer.SetHistory(h)
	m.explorer.SetLastArgs(opts.ArgsFile, opts.Target)
	m.explorer.SetAppCSP(opts.AppCSP)
	if opts.Pin != nil {
		m.explorer.SetPin(opts.Pin, opts.PinName)
	}
	m.detail.results = m.explorer.ResultEnv
	m.server = NewServerPage(c)
	if opts.Pin != nil {
		m.server.SetPin(opts.Pin, opts.PinName)
	}
	if opts.Recorder != nil {
		m.server.SetRecording(opts.Recorder.Path)
	}
	m.tasks = NewTasksPage(c)
	m.explorer.SetTaskLookup(m.tasks)
	m.auth = NewAuthPage(c)
	m.servers = NewServersPage(c, opts.Servers)
	m.stats = NewStatsPage(c)
	m.state = session.StateConnecting
	m.initOpen()
	m.initLive()
	if why := m.offlineReason(); why != "" {
		m.auth.SetController(0, nil, nil, why)
	}
	if m.open != nil || m.live != nil {
		m.servers.offline = m.offlineReason()
	}
	m.initEra()
	m.detail.full = m.fullFramesFor()
	if opts.Recorder != nil {
		opts.Recorder.indexFrames(h.TruncateBound())
	}
	return m
}

// Init starts the first session and asks the terminal for its background colour.
func (m *Model) Init() tea.Cmd { return m.guard(m.start()) }

// start is what Init starts: the session, or the opened recording's first window.
func (m *Model) start() tea.Cmd {
	ask := m.askInit()
	if m.open != nil {
		return tea.Batch(m.openInit(), tea.RequestBackgroundColor)
	}
	if m.live != nil {
		return tea.Batch(m.liveInit(), tea.RequestBackgroundColor)
	}
	if m.opts.Servers != nil {
		if i := m.opts.Servers.Current; i < 0 || i >= len(m.opts.Servers.Servers) {
			m.page, m.state, m.stateText = pageServers, session.StateClosed, "not connected: pick a server"
			return tea.Batch(tea.RequestBackgroundColor, ask)
		}
		m.servers.SetCurrent(m.opts.Servers.Current, true)
	}
	m.step(lifeStart)
	return tea.Batch(startSessionCmd(m.opts.NewSession, m.opts.Recorder, 1), tea.RequestBackgroundColor, ask, m.explorer.LoadLastArgsCmd())
}

// Session returns the current session (for closing it when the program ends).
func (m *Model) Session() *session.Session { return m.sess }

// Update handles one message.
// After it, the explorer asks for the layout its result needs at the size and palette
// the message left (ui/explorer/explorer_result.go).
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer m.maskPanic()
	cmd := m.route(msg)
	m.refitFooter()
	return m, m.guard(tea.Batch(cmd, m.explorer.RenderCmd()))
}

// route hands a message to the top dialog, then to the interactions, then to update.
func (m *Model) route(msg tea.Msg) tea.Cmd {
	dcmd, ok := m.dialogUpdate(msg)
	if ok {
		return dcmd
	}
	if cmd, ok := m.interactUpdate(msg); ok {
		return tea.Batch(dcmd, cmd)
	}
	return tea.Batch(dcmd, m.update(msg))
}

// update handles a message no dialog took.
func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case TaskUpdateMsg:
		m.explorer.TaskUpdated(msg)
		return m.tasks.Update(msg)
	case TasksListedMsg, TaskCancelledMsg:
		return m.tasks.Update(msg)
	case AuthChangedMsg, authDoneMsg, authTickMsg, authShowMsg:
		return tea.Batch(m.auth.Update(msg), m.authDialog())
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
		m.relayout()
		return m.detail.Refresh()
	case HighlightMsg:
		return m.detail.Update(msg)
	case tea.BackgroundColorMsg:
		m.c.Styles = NewStyles(msg.IsDark())
		m.help.Styles = m.c.Styles.Footer
		for _, e := range m.hist.Entries() {
			e.Row = traffic.RowCache{}
		}
		return m.detail.Restyle()
	case eraRestartMsg:
		return m.restartInEra(msg)
	case authRestartMsg:
		if m.opts.NewSession == nil && m.opts.NewSessionIn == nil {
			return nil
		}
		return m.restartSaying(restartStatus + " to log in")
	case SessionStartedMsg:
		m.c.Log.Printf("session %d started (err: %v)", msg.Gen, msg.Err)
		return m.sessionStarted(msg)
	case EventsMsg:
		return m.events(msg)
	case ConnectedMsg:
		if msg.Gen != m.gen {
			return nil
		}
		m.c.Log.Printf("session %d connect: err=%v", msg.Gen, msg.Err)
		if msg.Err != nil {
			m.connErr = msg.Err
			m.detail.SetFailure(m.c.Mask.String(failureText(msg.Err)))
			if !m.layout.Split {
				m.focus = focusDetail
				m.relayout()
			}
			return nil
		}
		m.connErr = nil
		return listAllCmd(m.gen, m.sess)
	case ListsMsg:
		m.c.Log.Printf("session %d lists: %d kinds, errors %v", msg.Gen, len(msg.Lists), msg.Errs)
		if msg.Gen == m.gen {
			m.explorer.SetLists(msg.Lists, msg.Errs)
			m.server.SetApps(m.explorer.AppsTally(), m.sess)
			return m.explorer.CountTokensCmd()
		}
		return nil
	case holdDecidedMsg: // the hold dialog had gone (the decision's note came first)
		if msg.Err != nil {
			return tea.Batch(m.holdsChanged(), statusCmd(msg.What+": "+msg.Err.Error(), true))
		}
		return m.holdsChanged()
	case TickMsg:
		if t := time.Time(msg); t.After(m.timeline.Now) {
			m.timeline.Now = t
		}
		if m.hist.InFlight() > 0 || dialogOf[*askQueue](m) != nil || dialogOf[*appAskQueue](m) != nil || dialogOf[*urlRequiredDialog](m) != nil || len(m.brk.held) > 0 {
			return tickCmd()
		}
		m.ticking = false
		return nil
	case StatusMsg:
		msg.Text = m.c.Mask.String(msg.Text)
		m.c.Log.Printf("status: %s (error=%v)", msg.Text, msg.Error)
		m.status = msg
		m.statusSeq++
		seq := m.statusSeq
		return tea.Tick(statusTimeout, func(time.Time) tea.Msg { return clearStatusMsg(seq) })
	case StatusDoneMsg:
		if m.status.Text == m.c.Mask.String(msg.Text) {
			m.status = StatusMsg{}
		}
		return nil
	case clearStatusMsg:
		if int(msg) == m.statusSeq {
			m.status = StatusMsg{}
		}
		return nil
	case statsMsg:
		return m.stats.Update(msg)
	case explorer.URLRetriedMsg:
		// The run that made the request ends with the answer; the status line says how it
		// ended wherever the request was made.
		status := func() tea.Msg { return sentMsg{Gen: msg.Gen, Method: msg.Method, Err: msg.Err, Resp: msg.Resp} }
		return tea.Batch(m.explorer.Update(msg), status)
	case explorer.ExplorerTickMsg, explorer.ExplorerMsg:
		return m.explorer.Update(msg)
	case explorer.ShowEntryMsg:
		return m.showEntry(msg.Entry)
	case openWindowMsg, openSearchMsg, openInfoMsg, openCheckMsg:
		return m.openUpdate(msg)
	case liveEventsMsg:
		return m.liveEvents(msg)
	case SavedMsg:
		return m.saved(msg)
	case saveFrameAskMsg:
		return m.openSavePrompt("save frame to: ", msg.p.fileName(), &msg.p)
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.MouseWheelMsg:
		if m.page == pageTraffic && m.layout.Split && msg.X >= m.layout.Detail.X {
			return m.detail.Update(msg)
		}
		if m.page == pageTraffic && (m.focus == focusTimeline || m.layout.Split) {
			return tea.Batch(m.timeline.Update(msg), m.openFollow())
		}
		return m.focused(msg)
	}
	return m.focused(msg)
}

// focused sends msg to the pane that has focus (and data messages to their owners).
func (m *Model) focused(msg tea.Msg) tea.Cmd { return m.focusedPane().Update(msg) }

func (m *Model) sessionStarted(msg SessionStartedMsg) tea.Cmd {
	m.gen, m.sess = msg.Gen, msg.Sess
	m.server.ClearHosted() // the hosts closed with the session
	m.explorer.SetSession(msg.Sess, msg.Gen)
	m.tasks.SetSession(msg.Sess, msg.Gen)
	authCmd := tea.Batch(m.authStarted(msg), m.authDialog())
	if msg.Err != nil {
		m.step(lifeFailed)
		m.state, m.stateText = session.StateClosed, msg.Err.Error()
		m.connErr = msg.Err
		m.detail.SetFailure(m.c.Mask.String(failureText(msg.Err)))
		return nil
	}
	m.info = session.ServerInfo{}
	m.state, m.stateText = session.StateConnecting, ""
	m.step(lifeStarted)
	return tea.Batch(PumpCmd(msg.Gen, msg.Sess, msg.Sub, time.Time{}), connectCmd(msg.Gen, msg.Sess), authCmd)
}

// events takes in one batch from the pump and asks for the next. Events of an older
// session (after a restart) still enter the history, but only the current one's change
// the status.
func (m *Model) events(msg EventsMsg) tea.Cmd {
	for _, ev := range msg.Events {
		m.hist.Add(msg.Gen, ev)
		if msg.Gen == m.gen {
			m.observeFaultRules(ev)
			if name, url, ok := session.AppHostedURL(ev); ok {
				m.server.AddHosted(name, url)
			}
		}
		if ev.Kind == session.EvState && ev.State == session.StateClosed {
			m.hist.EndGeneration(msg.Gen, "session closed: "+ev.Text)
		}
		if msg.Gen == m.gen && ev.Kind == session.EvState {
			m.state = ev.State
			if ev.State == session.StateClosed {
				m.stateText = ev.Text
			}
			if ev.State == session.StateConnecting {
				m.noStdout, m.link = false, ""
			}
			if ev.Note == session.NoteLink {
				m.link = ev.Text
			}
		}
		if msg.Gen == m.gen && ev.Kind == session.EvTransport && ev.Note == transport.NoteStdoutClosed {
			m.noStdout = true
		}
	}
	if msg.Gen == m.gen {
		m.requests = msg.Requests
	}
	if msg.Info != nil && msg.Gen == m.gen {
		m.info = *msg.Info
		m.hist.SetEraHint(msg.Gen, m.info)
		m.server.SetHandshake(HandshakeEntries(m.hist, m.gen))
		m.server.SetInfo(m.info)
		m.server.SetRoots(rootsOfferOf(msg.Sess, m.asker))
	}
	m.explorer.Observe(msg.Gen, msg.Events)
	if msg.Gen >= m.statsGen {
		m.stats.Observe(msg.Events)
		if m.page == pageStats {
			m.stats.Refresh()
		}
	}
	cmds := []tea.Cmd{m.tasks.Observe(msg.Gen, msg.Events, m.hist)}
	if msg.Lists != nil && msg.Gen == m.gen {
		cmds = append(cmds, m.explorer.UpdateLists(msg.Lists), m.explorer.CountTokensCmd())
		m.server.SetApps(m.explorer.AppsTally(), m.sess)
	}
	cmds = append(cmds, m.urlElicitUpdate(msg.Gen, msg.URLNeeded, msg.ElicitDone), m.holdsObserve(msg.Events))
	m.timeline.Sync()
	if sel := m.timeline.Selected(); sel != nil {
		cmds = append(cmds, m.detail.SetEntry(sel))
	}
	if !msg.Closed {
		m.lastPump = time.Now()
		cmds = append(cmds, PumpCmd(msg.Gen, msg.Sess, msg.Sub, m.lastPump))
	} else if msg.Gen == m.gen {
		if m.step(lifePumpEnded) == lifeRestarting {
			cmds = append(cmds, m.startNext())
		}
	}
	if m.hist.InFlight() > 0 && !m.ticking {
		m.ticking = true
		cmds = append(cmds, tickCmd())
	}
	if d := dialogOf[*confirmDialog](m); d != nil && !d.unsaved && m.hist.InFlight() == 0 {
		// The user asked to quit while requests were in flight; they have all finished.
		return tea.Quit
	}
	return tea.Batch(cmds...)
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	for _, handle := range []func(tea.KeyPressMsg) (tea.Cmd, bool){
		m.captureKey, m.openKey, m.interactKey, m.liveKey, m.globalKey,
	} {
		if cmd, ok := handle(msg); ok {
			return cmd
		}
	}
	return m.paneKey(msg)
}

// captureKey gives every key to the explorer while it captures them (its search input or
// a call form has focus).
func (m *Model) captureKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if m.page == pageExplorer && m.explorer.Capturing() {
		return m.explorer.Update(msg), true
	}
	return nil, false
}

// paneKey gives a key no one else took to the focused pane; on the timeline, the detail
// follows the selection.
func (m *Model) paneKey(msg tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := m.copyAppURL(msg); ok {
		return cmd
	}
	hidden := len(m.timeline.Hidden())
	before := m.timeline.Selected()
	cmd := m.focused(msg)
	if m.page == pageTraffic && m.focus == focusTimeline {
		show := m.detail.SetEntry
		if sel := m.timeline.Selected(); sel != before {
			show = m.detail.Pick
		}
		cmd = tea.Batch(cmd, show(m.timeline.Selected()), m.openMoved(hidden))
	}
	return cmd
}

// cycle moves focus through the panes, in the order of the page table (pages): timeline,
// detail, explorer, server, tasks, servers, stats, auth.
func (m *Model) cycle(back bool) {
	order := focusCycle
	cur := 0
	for i, o := range order {
		if o.p == m.page && (len(pages[o.p].focuses) < 2 || o.f == m.focus) {
			cur = i
		}
	}
	step := 1
	if back {
		step = len(order) - 1
	}
	next := order[(cur+step)%len(order)]
	m.page, m.focus = next.p, next.f
	m.detailMax = m.detailMax && m.detailOpen()
}

// detailOpen reports whether the traffic page shows the detail: it has the focus. The
// focus stays while another page shows, so the traffic page is as it was on coming back.
func (m *Model) detailOpen() bool { return m.focus == focusDetail }

func (m *Model) relayout() {
	m.layout = ComputeLayout(m.c.Width, m.c.Height, m.detailOpen())
	if m.detailMax && m.page == pageTraffic {
		m.layout = m.layout.Maximized()
	}
	m.layout = m.fitFooter(m.layout)
	l := m.layout
	m.timeline.SetSize(l.Timeline.W, l.Timeline.H)
	m.timeline.SetFocused(m.focus == focusTimeline)
	m.detail.SetSize(l.Detail.W, l.Detail.H)
	m.detail.SetFocused(m.focus == focusDetail)
	m.explorer.SetSize(l.Body.W, l.Body.H)
	m.server.SetSize(l.Body.W, l.Body.H)
	m.tasks.SetSize(l.Body.W, l.Body.H)
	m.auth.SetSize(l.Body.W, l.Body.H)
	m.servers.SetSize(l.Body.W, l.Body.H)
	m.stats.SetSize(l.Body.W, l.Body.H)
	m.filter.SetWidth(max(10, l.Footer.W-2))
	m.help.SetWidth(l.Footer.W)
	m.sizeDialogs(l)
}

// failureText explains a failed connection or handshake.
func failureText(err error) string {
	var b strings.Builder
	b.WriteString("Connection failed\n\n")
	b.WriteString(err.Error())
	b.WriteString("\n")
	var ce *session.ConnectError
	if errors.As(err, &ce) && len(ce.Stderr) > 0 {
		b.WriteString("\nLast lines the server wrote on stderr:\n")
		for _, l := range ce.Stderr {
			b.WriteString("  " + l + "\n")
		}
	}
	b.WriteString("\nThe timeline shows what was sent and what came back: pick a row (enter) to see it in full.\nPress R to retry.")
	return b.String()
}
