package ui

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/explorer"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// A server of the 2025-11-25 revision may answer a request with error -32042
// (URLElicitationRequiredError): error.data.elicitations lists URL-mode elicitations the
// user must complete first. mcpscope shows them in the dialog of a URL-mode elicitation
// (domain, https warning, open, copy) and sends the original request again, same method
// and params with a new id, when notifications/elicitation/complete has arrived for every
// one of them, or at once on the retry key. The pump reads the errors and the
// notifications off the UI loop (urlElicitEvents); the dialog is urlRequiredDialog.

// methodElicitComplete is the notification that ends an out-of-band elicitation.
const methodElicitComplete = "notifications/elicitation/complete"

// urlNeeded is one -32042 answer: the request it refused and the pages it names.
type urlNeeded struct {
	ReqSeq uint64 // the refused request's event
	ID     string // the response's id, as written
	Pages  []urlElicit
}

// urlElicit is one elicitation of a -32042 answer.
type urlElicit struct {
	ID   string // elicitationId
	Page urlPage
	Done bool // notifications/elicitation/complete arrived for it
}

// urlElicitEvents reads a batch's -32042 answers to mcpscope's requests and the ids of its
// elicitation/complete notifications. It runs in the pump.
func urlElicitEvents(evs []*session.Event) (needed []urlNeeded, done []string) {
	for _, e := range evs {
		if e.Kind != session.EvFrame || e.Frame == nil || e.Dir != protocol.ServerToClient {
			continue
		}
		f := e.Frame
		switch {
		case f.Kind == protocol.KindError && f.Error != nil && f.Error.CodeOK && f.Error.Code == protocol.URLElicitationRequired && e.Corr.RequestSeq != 0:
			var data struct {
				Elicitations []struct {
					Mode          string `json:"mode"`
					Message       string `json:"message"`
					URL           string `json:"url"`
					ElicitationID string `json:"elicitationId"`
				} `json:"elicitations"`
			}
			_ = json.Unmarshal(f.Error.Data, &data) // what cannot be read shows as no page
			n := urlNeeded{ReqSeq: e.Corr.RequestSeq, ID: f.ID.String()}
			for _, el := range data.Elicitations {
				n.Pages = append(n.Pages, urlElicit{ID: el.ElicitationID, Page: newURLPage(el.Message, el.URL)})
			}
			needed = append(needed, n)
		case f.Kind == protocol.KindNotification && f.Method == methodElicitComplete:
			var p struct {
				ElicitationID string `json:"elicitationId"`
			}
			if json.Unmarshal(f.Params, &p) == nil && p.ElicitationID != "" {
				done = append(done, p.ElicitationID)
			}
		}
	}
	return needed, done
}

// urlWait is a refused request waiting for its elicitations to complete.
type urlWait struct {
	gen     int
	reqSeq  uint64
	reqID   string // the refused request's id, as written
	method  string
	target  string          // what the request acts on (a tool's name), or ""
	params  json.RawMessage // the request's params as sent
	noRetry string          // why the request cannot be sent again, or ""
	pages   []urlElicit
	sel     int // the page the keys act on
	arrived time.Time
}

// Refused, PageStates, NoRetry and Bindings make w the explorer's URLWait.
func (w *urlWait) Refused() (gen int, seq uint64) { return w.gen, w.reqSeq }

func (w *urlWait) PageStates() []explorer.URLPageState {
	out := make([]explorer.URLPageState, len(w.pages))
	for i, p := range w.pages {
		out[i] = explorer.URLPageState{ID: p.ID, Done: p.Done}
	}
	return out
}

func (w *urlWait) NoRetry() string { return w.noRetry }

func (w *urlWait) Bindings(k *KeyMap) []key.Binding { return urlRequiredBindings(k, w) }

// complete marks elicitation id done; it reports whether it was one of w's.
func (w *urlWait) complete(id string) bool {
	for i := range w.pages {
		if w.pages[i].ID == id && !w.pages[i].Done {
			w.pages[i].Done = true
			return true
		}
	}
	return false
}

// allDone reports whether every page of w was completed.
func (w *urlWait) allDone() bool {
	return !slices.ContainsFunc(w.pages, func(p urlElicit) bool { return !p.Done })
}

// what names the refused request: "tools/call url_required #5".
func (w *urlWait) what() string {
	s := w.method
	if w.target != "" {
		s += " " + w.target
	}
	return s + " #" + w.reqID
}

// urlElicitUpdate takes in a batch's -32042 answers and completions: each answer to a
// request of the current session opens (or joins) the dialog; each completion marks its
// page, and a request whose pages are all complete is sent again.
func (m *Model) urlElicitUpdate(gen int, needed []urlNeeded, done []string) tea.Cmd {
	if gen != m.gen || m.sess == nil {
		return nil
	}
	var cmds []tea.Cmd
	for _, n := range needed {
		req := m.hist.Lookup(gen, n.ReqSeq)
		if req == nil || req.Ev == nil || req.Ev.Frame == nil || req.Ev.Dir != protocol.ClientToServer {
			continue
		}
		f := req.Ev.Frame
		w := &urlWait{gen: gen, reqSeq: n.ReqSeq, reqID: f.ID.String(), method: f.Method, params: f.Params, pages: n.Pages, arrived: time.Now()}
		if rf := traffic.TargetRequest(req); rf != nil {
			w.target = cleanText(traffic.RequestTarget(rf.Method, rf.Params))
		}
		if req.Clipped > 0 {
			w.noRetry = "the request is held truncated in memory, its params are not all here"
		}
		m.explorer.URLWaitOpened(w)
		if d := dialogOf[*urlRequiredDialog](m); d != nil {
			d.waits = append(d.waits, w)
		} else {
			m.pushDialog(&urlRequiredDialog{waits: []*urlWait{w}})
		}
		cmds = append(cmds, statusCmd(fmt.Sprintf("%s needs %d page(s) opened first (error -32042)", w.what(), len(n.Pages)), false))
		if !m.ticking {
			m.ticking = true
			cmds = append(cmds, tickCmd())
		}
	}
	d := dialogOf[*urlRequiredDialog](m)
	for _, id := range done {
		if d == nil {
			break // nothing waits: an unknown id is ignored, as the spec asks
		}
		for _, w := range slices.Clone(d.waits) {
			if w.complete(id) && w.allDone() {
				cmds = append(cmds, m.retryURLWait(d, w, "elicitation "+id+" complete"))
			}
		}
	}
	return tea.Batch(cmds...)
}

// retryURLWait sends w's request again (same method and params, a new id and a new
// progress token), notes it in the timeline, and takes w off the dialog.
func (m *Model) retryURLWait(d *urlRequiredDialog, w *urlWait, why string) tea.Cmd {
	if w.noRetry != "" {
		return statusCmd("cannot retry "+w.what()+": "+w.noRetry, true)
	}
	if w.gen != m.gen || m.sess == nil {
		return statusCmd("cannot retry "+w.what()+": it belongs to an earlier session", true)
	}
	d.remove(m, w)
	m.hist.AddMarker(m.gen, w.what()+" sent again: "+why)
	m.timeline.Sync()
	return tea.Batch(statusCmd(why+": sending "+w.what()+" again with a new id", false),
		m.explorer.URLWaitSent(w), urlRetryCmd(m.gen, m.sess, w.reqSeq, w.method, w.params))
}

// urlRetryCmd sends a refused request's method and params again (as callCmd does) and
// answers with URLRetriedMsg for the refused request's event seq.
func urlRetryCmd(gen int, s *session.Session, seq uint64, method string, params []byte) tea.Cmd {
	return func() tea.Msg {
		params, _ := freshProgressToken(params) // the original's token must not be reused
		msg := callCmd(gen, s, method, params)().(sentMsg)
		return explorer.URLRetriedMsg{Gen: gen, Seq: seq, Method: method, Resp: msg.Resp, Err: msg.Err, Rev: s.Info().Revision, At: time.Now()}
	}
}

// urlRequiredBindings are the -32042 dialog's bindings for w: the shared ones, described
// for the dialog, disabled where they do not apply.
func urlRequiredBindings(k *KeyMap, w *urlWait) []key.Binding {
	open, copyURL, retry, next, stop := k.Act.OpenURL, urlCopyBinding(k), k.Act.Resend, k.Act.NextField, k.Act.Dismiss
	retry.SetHelp(retry.Help().Key, "retry now")
	next.SetHelp(next.Help().Key, "next page")
	stop.SetHelp(stop.Help().Key, "stop waiting")
	if w.noRetry != "" {
		retry.SetEnabled(false)
	}
	if len(w.pages) < 2 {
		next.SetEnabled(false)
	}
	if len(w.pages) == 0 {
		open.SetEnabled(false)
		copyURL.SetEnabled(false)
	}
	return []key.Binding{open, copyURL, retry, next, stop}
}
