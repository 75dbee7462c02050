package session

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/skills"
	"github.com/mcpscope/mcpscope/session/transport"
)

// incoming is a server→client request being answered (cancel set) or queued for a worker.
type incoming struct {
	seq       uint64
	cancel    context.CancelFunc
	cancelled bool // the server withdrew it while it was queued
}

// admitted is a server request and what its admission decided.
type admitted struct {
	a   admission
	job *srvJob
}

type delivery struct {
	p *pending
}

// received correlates, annotates and publishes one incoming frame, then hands responses to
// their callers and server→client requests to the Responder.
func (s *Session) received(f *protocol.Frame, info transport.RecvInfo, at time.Time) {
	s.mu.Lock()
	f.Findings = append(f.Findings, protocol.Check(f, protocol.ServerToClient, s.checkContextLocked(""))...)
	if info.SessionChanged != "" {
		f.Findings = append(f.Findings, protocol.NewFinding(protocol.FindSessionChanged,
			"the HTTP response carrying this message changed Mcp-Session-Id (%s)", info.SessionChanged))
	}
	ev := &Event{Kind: EvFrame, Dir: protocol.ServerToClient, Frame: f, Recv: info, Time: at}
	var deliveries []delivery
	var requests []admitted
	var refresh []ListKind
	members := []*protocol.Frame{f}
	if f.Kind == protocol.KindBatch {
		members = f.Batch
	}
	for _, m := range members {
		switch m.Kind {
		case protocol.KindResult, protocol.KindError:
			if p := s.matchResponseLocked(m, &ev.Corr, at, m == f); p != nil {
				deliveries = append(deliveries, delivery{p: p})
			}
		case protocol.KindRequest:
			a, job := s.admitLocked(m)
			requests = append(requests, admitted{a, job})
		case protocol.KindNotification:
			s.eventNoteLocked(m, &ev.Corr, m == f)
			if k, ok := s.notificationLocked(m, &ev.Corr, m == f); ok {
				refresh = append(refresh, k)
			}
		}
	}
	s.emit(ev)
	for _, r := range requests {
		r.job.ev = ev
		if r.a == admitQueue {
			s.incoming[r.job.r.ID.Key()] = &incoming{seq: ev.Seq}
		}
	}
	for _, m := range members {
		if m.Kind == protocol.KindNotification && (m.Method == "notifications/tasks/status" || m.Method == "notifications/tasks") {
			s.taskNotificationLocked(m, ev)
		}
	}
	s.mu.Unlock()

	for _, d := range deliveries {
		d.p.done <- outcome{ev: ev}
	}
	for _, r := range requests {
		s.startServe(r.a, r.job)
	}
	for _, k := range refresh {
		s.refreshList(k)
	}
}

// matchResponseLocked pairs a response with its pending request, or flags it.
func (s *Session) matchResponseLocked(m *protocol.Frame, corr *Correlation, at time.Time, top bool) *pending {
	key := m.ID.Key()
	if p := s.pending[key]; p != nil {
		s.dropPendingLocked(p, finAnswered)
		s.contentFindingsLocked(m, p.method)
		if p.method == "server/discover" && m.Kind == protocol.KindResult {
			m.Findings = append(m.Findings, protocol.CheckDiscoverResult(m.Result)...)
		}
		if p.check != nil && m.Kind == protocol.KindResult {
			m.Findings = append(m.Findings, p.check(m.Result)...)
		}
		if top {
			*corr = Correlation{Method: p.method, RequestSeq: p.seq, Latency: at.Sub(p.sent), ChainSeq: p.chainSeq, Probe: p.probe, AppSeq: p.appSeq}
		}
		return p
	}
	if s.matchBatchLocked(m, corr, at, top) {
		return nil
	}
	if fin, ok := s.finished.get(key); ok {
		if top {
			corr.Method, corr.RequestSeq, corr.Probe = fin.method, fin.seq, fin.probe
		}
		switch fin.state {
		case finAnswered:
			m.Findings = append(m.Findings, protocol.NewFinding(protocol.FindDuplicateResponse,
				"a second response to request %s (%s), which was already answered", m.ID, fin.method))
		default:
			m.Findings = append(m.Findings, protocol.NewFinding(protocol.FindLateResponse,
				"a response to request %s (%s) after mcpscope gave up on it (%s)", m.ID, fin.method, fin.state))
		}
		return nil
	}
	if m.Kind == protocol.KindError && (m.ID.IsZero() || m.ID.Kind() == protocol.IDNull) {
		// An error about a message the server could not read: legal, nothing to pair. While
		// the era probe is the only request out, it is the probe's answer (an HTTP server
		// of the earlier era refusing it).
		if p := s.onlyPendingLocked(); p != nil && p.probe && top {
			corr.Method, corr.RequestSeq, corr.Probe = p.method, p.seq, true
		}
		return nil
	}
	m.Findings = append(m.Findings, protocol.NewFinding(protocol.FindUnknownID,
		"response id %s matches no request mcpscope sent", m.ID))
	return nil
}

func (f finishState) String() string {
	switch f {
	case finCancelled:
		return "cancelled"
	case finTimedOut:
		return "timed out"
	case finAbandoned:
		return "abandoned"
	}
	return "answered"
}

// notificationLocked handles the notifications the session itself cares about. It reports
// a list to refresh for list_changed notifications.
func (s *Session) notificationLocked(m *protocol.Frame, corr *Correlation, top bool) (ListKind, bool) {
	switch m.Method {
	case "notifications/progress":
		var p struct {
			Token    json.RawMessage `json:"progressToken"`
			Progress float64         `json:"progress"`
			Total    float64         `json:"total"`
			Message  string          `json:"message"`
		}
		if json.Unmarshal(m.Params, &p) != nil {
			return "", false
		}
		tok := tokenKey(p.Token)
		if pr := s.progress[tok]; pr != nil {
			if pr.timer != nil {
				pr.timer.Reset(pr.timeout)
			}
			if top {
				corr.RequestSeq, corr.Method = pr.seq, pr.method
			}
		}
		if top {
			corr.Progress = &Progress{Token: tok, Progress: p.Progress, Total: p.Total, Message: p.Message}
		}
	case "notifications/cancelled":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			key := protocol.ID{Raw: p.RequestID}.Key()
			if in := s.incoming[key]; in != nil {
				in.cancelled = true
				if in.cancel != nil {
					in.cancel()
				}
				if top {
					corr.RequestSeq = in.seq
				}
			}
		}
	case "notifications/tools/list_changed":
		return ListTools, s.listed[ListTools]
	case "notifications/prompts/list_changed":
		return ListPrompts, s.listed[ListPrompts]
	case "notifications/resources/list_changed":
		return ListResources, s.listed[ListResources]
	}
	return "", false
}

// tokenKey is the map key of a progress token: the string itself, or the number's text.
func tokenKey(raw json.RawMessage) string {
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return str
	}
	return strings.TrimSpace(string(raw))
}

// respond sends the response to a server→client request.
func (s *Session) respond(id protocol.ID, result json.RawMessage, rerr *RPCError, reqSeq uint64) {
	var raw []byte
	var err error
	if rerr != nil {
		raw, err = protocol.EncodeError(id, rerr.Code, rerr.Message, rawOrNil(rerr.Data))
	} else {
		if result == nil {
			result = json.RawMessage(`{}`)
		}
		raw, err = protocol.EncodeResult(id, result)
	}
	if err != nil {
		s.errorEvent("encode response to %s: %v", id, err)
		return
	}
	s.mu.Lock()
	stateless, version := s.info.Stateless, string(s.info.Revision)
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
	defer cancel()
	_ = s.sendUntracked(ctx, transport.Outgoing{Raw: raw, IsResponse: true, ProtocolVersion: version, Stateless: stateless}, reqSeq)
}

func rawOrNil(r json.RawMessage) any {
	if len(r) == 0 {
		return nil
	}
	return r
}

// contentFindingsLocked flags content blocks of a type the negotiated revision does not
// define, in tools/call and prompts/get results. The frame is shown as it came all the same.
func (s *Session) contentFindingsLocked(m *protocol.Frame, method string) {
	if m.Kind == protocol.KindResult {
		switch method {
		case "tools/list":
			m.Findings = append(m.Findings, protocol.ToolHeaderFindings(m.Result)...)
			return
		case "skills/list", "skills/get":
			m.Findings = append(m.Findings, skills.EntryFindings(m.Result)...)
			return
		}
	}
	if m.Kind != protocol.KindResult || (method != "tools/call" && method != "prompts/get") {
		return
	}
	rev := s.info.Revision
	if rev == "" {
		return
	}
	types := protocol.ContentBlockTypes(m.Result)
	for _, t := range types {
		if !protocol.KnownContentType(rev, t) {
			m.Findings = append(m.Findings, protocol.NewFinding(protocol.FindUnknownContent,
				"content type %q is not defined in protocol %s", t, rev))
		}
	}
}

// onlyPendingLocked is the one pending request, if exactly one is pending.
func (s *Session) onlyPendingLocked() *pending {
	if len(s.pending) != 1 {
		return nil
	}
	for _, p := range s.pending {
		return p
	}
	return nil
}
