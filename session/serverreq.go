package session

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/protocol"
)

// Bounds on the server→client requests being answered. A server that sends requests faster
// than their answers get through (typically one that does not read its stdin) would
// otherwise cost a goroutine and a buffered answer per request.
const (
	// DefaultServerRequestWorkers is how many server requests are answered at once when
	// Config.ServerRequestWorkers is 0.
	DefaultServerRequestWorkers = 32
	// DefaultServerRequestQueueBytes bounds the requests waiting for a worker when
	// Config.ServerRequestQueueBytes is 0.
	DefaultServerRequestQueueBytes = 16 << 20
	// ServerRequestOverhead is what one waiting request costs on top of its size on the
	// wire (its event, parsed frame and table entry); the queue bound counts both.
	ServerRequestOverhead = 512
	// refusalQueueBytes bounds the refusals waiting to be written; each counts its id and
	// refusalOverhead. A refusal that does not fit is not written, and is counted.
	refusalQueueBytes = 1 << 20
	refusalOverhead   = 128
	// CodeOverloaded is the JSON-RPC error code of a refused server request (the
	// implementation-defined server error range of JSON-RPC 2.0).
	CodeOverloaded = -32000
)

// ServerRequestStats counts what the server asked and how mcpscope coped.
type ServerRequestStats struct {
	Received        uint64 // server→client requests seen
	Answering       int    // being answered now
	PeakAnswering   int
	Queued          int   // waiting for a worker
	QueuedBytes     int64 // their cost as counted against the bound
	PeakQueuedBytes int64
	Refused         uint64 // answered at once with CodeOverloaded (or would have been)
	Unanswered      uint64 // refused, but the refusal could not even be queued for writing
	Floods          uint64 // flood episodes: the queue was full at least once
	Flooded         uint64 // requests of the flood episodes that are over, counted from the queue at the first refusal
}

// srvJob is one server request waiting for, or being handled by, a worker.
type srvJob struct {
	r    *protocol.Frame
	ev   *Event // set once the carrying event is published
	size int64
}

// srvRefusal is one refusal waiting to be written.
type srvRefusal struct {
	id  protocol.ID
	seq uint64
}

// serverRequests is the bounded intake of server→client requests, guarded by Session.mu.
type serverRequests struct {
	workers  int
	maxBytes int64
	queue    []*srvJob // FIFO from head
	head     int
	stats    ServerRequestStats

	refusals  []srvRefusal
	rbytes    int64
	refusing  bool   // the refusal writer runs
	flooding  bool   // a flood episode is on: the queue overflowed and has not drained yet
	floodSeq  uint64 // event of the first request refused in the current flood
	floodFrom ServerRequestStats
	summary   string // the last flood's summary
}

type admission uint8

const (
	admitRun admission = iota + 1
	admitQueue
	admitRefuse
)

// admitLocked decides what happens to a server request as it arrives: answered now, queued,
// or refused. The first refusal of a flood adds the flood finding to the frame.
func (s *Session) admitLocked(m *protocol.Frame) (admission, *srvJob) {
	q := &s.sreq
	q.stats.Received++
	job := &srvJob{r: m, size: int64(len(m.Raw)) + ServerRequestOverhead}
	if q.stats.Answering < q.workers && q.stats.Queued == 0 {
		q.stats.Answering++
		q.stats.PeakAnswering = max(q.stats.PeakAnswering, q.stats.Answering)
		return admitRun, job
	}
	if q.stats.QueuedBytes+job.size <= q.maxBytes {
		q.queue = append(q.queue, job)
		q.stats.Queued++
		q.stats.QueuedBytes += job.size
		q.stats.PeakQueuedBytes = max(q.stats.PeakQueuedBytes, q.stats.QueuedBytes)
		return admitQueue, job
	}
	q.stats.Refused++
	if !q.flooding {
		q.flooding = true
		q.stats.Floods++
		q.floodFrom = q.stats
		m.Findings = append(m.Findings, protocol.NewFinding(protocol.FindRequestFlood,
			"server flooded requests %s: %d being answered, %d (%s) queued; "+
				"this and further requests are refused with error %d until the queue drains",
			s.notReading(), q.stats.Answering, q.stats.Queued, byteSize(q.stats.QueuedBytes), CodeOverloaded))
	}
	return admitRefuse, job
}

// ServerRequests returns the counts of server→client requests.
func (s *Session) ServerRequests() ServerRequestStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sreq.stats
}

// startServe acts on an admission once the request's event is published (s.mu not held).
func (s *Session) startServe(a admission, job *srvJob) {
	switch a {
	case admitRun:
		s.wg.Add(1)
		go s.serveLoop(job)
	case admitRefuse:
		s.refuse(job)
	}
}

// serveLoop answers job, then whatever is queued, until the queue is empty.
func (s *Session) serveLoop(job *srvJob) {
	defer s.wg.Done()
	for job != nil {
		s.answer(job)
		s.mu.Lock()
		job = s.nextJobLocked()
		s.mu.Unlock()
	}
}

// nextJobLocked takes the oldest queued request that was not cancelled meanwhile; when there
// is none the worker ends (and a flood, if one was on, is over).
func (s *Session) nextJobLocked() *srvJob {
	q := &s.sreq
	for q.head < len(q.queue) {
		job := q.queue[q.head]
		q.queue[q.head] = nil
		q.head++
		q.stats.Queued--
		q.stats.QueuedBytes -= job.size
		if q.head > 1024 && q.head*2 > len(q.queue) {
			q.queue = append(q.queue[:0:0], q.queue[q.head:]...)
			q.head = 0
		}
		if in := s.incoming[job.r.ID.Key()]; in != nil && in.cancelled {
			delete(s.incoming, job.r.ID.Key())
			continue // the server withdrew it: no response is sent
		}
		return job
	}
	q.queue, q.head = nil, 0
	q.stats.Answering--
	s.floodOverLocked()
	return nil
}

// floodOverLocked ends a flood episode once the queue has drained: one event says how many
// requests were refused while it lasted.
func (s *Session) floodOverLocked() {
	q := &s.sreq
	if !q.flooding || q.stats.Queued > 0 || q.refusing {
		return
	}
	// The flood counts from the requests already waiting when the first one was refused.
	flooded := q.stats.Received - q.floodFrom.Received + 1 + uint64(q.floodFrom.Queued) + uint64(q.floodFrom.Answering)
	q.stats.Flooded += flooded
	refused := q.stats.Refused - q.floodFrom.Refused + 1
	unanswered := q.stats.Unanswered - q.floodFrom.Unanswered
	text := fmt.Sprintf("server flooded %d requests %s: %d refused with error %d",
		flooded, s.notReading(), refused, CodeOverloaded)
	if unanswered > 0 {
		text += fmt.Sprintf(" (%d of them left unanswered: even the refusals could not be written)", unanswered)
	}
	text += fmt.Sprintf("; at most %d were answered at once and %s queued", q.stats.PeakAnswering, byteSize(q.stats.PeakQueuedBytes))
	s.emit(&Event{Kind: EvError, Text: text, Corr: Correlation{RequestSeq: q.floodSeq}})
	q.flooding, q.floodSeq, q.summary = false, 0, text
}

// notReading says how a flooding server fails to take its answers.
func (s *Session) notReading() string {
	if s.tr != nil && s.tr.Name() == "stdio" {
		return "while not reading its stdin"
	}
	return "faster than it took their answers"
}

// FloodSummary is the summary of the last flood of server requests that is over, or "" when
// there was none: how many requests, how many refused, the peaks.
func (s *Session) FloodSummary() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sreq.summary
}

// answer runs one request through the Responder and sends the answer.
func (s *Session) answer(job *srvJob) {
	r, ev := job.r, job.ev
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	key := r.ID.Key()
	s.mu.Lock()
	s.incoming[key] = &incoming{seq: ev.Seq, cancel: cancel}
	allowed := s.clientAllowsLocked(r.Method)
	rev := s.info.Revision
	s.mu.Unlock()
	var result json.RawMessage
	var rerr *RPCError
	if !allowed {
		rerr = &RPCError{Code: protocol.MethodNotFound, Message: "mcpscope did not declare the capability for " + r.Method}
	} else {
		result, rerr = s.cfg.Responder.Respond(ctx, &ServerRequest{Method: r.Method, Params: r.Params, ID: r.ID, Event: ev, Revision: rev})
	}
	s.mu.Lock()
	delete(s.incoming, key)
	s.mu.Unlock()
	if ctx.Err() != nil && s.ctx.Err() == nil {
		return // the server cancelled it: no response is sent
	}
	s.respond(r.ID, result, rerr, ev.Seq)
}

// refuse queues the overload error for a refused request; one writer sends them in order.
func (s *Session) refuse(job *srvJob) {
	cost := int64(len(job.r.ID.Raw)) + refusalOverhead
	s.mu.Lock()
	q := &s.sreq
	if q.floodSeq == 0 {
		q.floodSeq = job.ev.Seq
	}
	if q.rbytes+cost > refusalQueueBytes {
		q.stats.Unanswered++
		s.mu.Unlock()
		return
	}
	q.refusals = append(q.refusals, srvRefusal{id: job.r.ID, seq: job.ev.Seq})
	q.rbytes += cost
	start := !q.refusing
	q.refusing = true
	s.mu.Unlock()
	if start {
		s.wg.Add(1)
		go s.writeRefusals()
	}
}

// writeRefusals sends the queued refusals until none is left.
func (s *Session) writeRefusals() {
	defer s.wg.Done()
	msg := fmt.Sprintf("mcpscope is overloaded: the server sent more requests than it reads answers to (%d being answered, %s queued); request refused",
		s.sreq.workers, byteSize(s.sreq.maxBytes))
	for {
		s.mu.Lock()
		q := &s.sreq
		if len(q.refusals) == 0 {
			q.refusals, q.rbytes, q.refusing = nil, 0, false
			s.floodOverLocked()
			s.mu.Unlock()
			return
		}
		rf := q.refusals[0]
		q.refusals = q.refusals[1:]
		q.rbytes -= int64(len(rf.id.Raw)) + refusalOverhead
		s.mu.Unlock()
		s.respond(rf.id, nil, &RPCError{Code: CodeOverloaded, Message: msg}, rf.seq)
	}
}

// byteSize renders n bytes for a person: "512 B", "3.2 KiB", "16 MiB".
func byteSize(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/(1<<10))) + " KiB"
	case n < 1<<30:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/(1<<20))) + " MiB"
	}
	return trimZero(fmt.Sprintf("%.1f", float64(n)/(1<<30))) + " GiB"
}

func trimZero(s string) string {
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		return s[:len(s)-2]
	}
	return s
}
