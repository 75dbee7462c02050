package check

import (
	"slices"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// maxFramesPerItem bounds the frames one item lists.
const maxFramesPerItem = 8

// evidence turns what the session saw into findings: the findings on every frame the server
// sent (stdout noise, JSON-RPC shape, revision rules, tool headers, late and duplicate
// responses), responses to cancelled requests, stderr volume and latency per method.
func (r *runner) evidence(all []*session.Event) {
	running := map[uint64]string{}
	atOnce := map[uint64]bool{} // cancelled by check the moment they were sent
	for _, c := range r.cancelled {
		if c.running {
			running[c.seq] = c.method
		} else {
			atOnce[c.seq] = true
		}
	}
	merged := map[string]int{} // code and message → index in Items
	var stderrLines, stderrBytes int
	var firstStderr *session.Event
	for _, e := range all {
		switch e.Kind {
		case session.EvStderr:
			stderrLines++
			stderrBytes += len(e.Text) + 1
			if firstStderr == nil {
				firstStderr = e
			}
			continue
		case session.EvHTTP:
			for _, f := range e.Findings {
				r.merge(merged, f, e)
			}
			continue
		case session.EvFrame:
		default:
			continue
		}
		if e.Dir != protocol.ServerToClient || e.Frame == nil {
			continue
		}
		frames := append([]*protocol.Frame{e.Frame}, e.Frame.Batch...)
		for _, fr := range frames {
			for _, f := range fr.Findings {
				if f.Code == protocol.FindLateResponse {
					if m, ok := running[e.Corr.RequestSeq]; ok {
						r.add(protocol.NewFinding(protocol.FindCancelIgnored,
							"%s was answered after notifications/cancelled, although it had been running for %s",
							m, r.o.CallWait), r.event(e.Corr.RequestSeq), e)
						continue
					}
					// check cancelled this request as it sent it; an answer crossing the
					// notification is the race the specification asks both sides to bear,
					// and check's own doing.
					if atOnce[e.Corr.RequestSeq] {
						continue
					}
					// The era probe mcpscope gave up on (a server still starting when its
					// short wait ended): the answer is late by mcpscope's choice, not the
					// server's fault.
					if e.Corr.Probe {
						continue
					}
				}
				r.merge(merged, f, e)
			}
		}
	}
	r.run.StderrLines, r.run.StderrBytes = stderrLines, stderrBytes
	if stderrLines > r.o.StderrLines {
		f := protocol.NewFinding(protocol.FindStderrVolume, "the server wrote %d lines (%d bytes) on stderr during the check",
			stderrLines, stderrBytes)
		r.add(f, firstStderr)
	}
	r.timing(all)
}

// merge adds a frame finding, or the frame to an item with the same code and message.
func (r *runner) merge(merged map[string]int, f protocol.Finding, e *session.Event) {
	key := f.Code + "\x00" + f.Message
	if i, ok := merged[key]; ok {
		if it := &r.run.Items[i]; len(it.Frames) < maxFramesPerItem && !slices.Contains(it.Frames, e.Seq) {
			it.Frames = append(it.Frames, e.Seq)
		}
		return
	}
	merged[key] = len(r.run.Items)
	r.add(f, e)
}

// timing sums up latency per method and flags the methods over their threshold.
func (r *runner) timing(all []*session.Event) {
	lat := map[string][]time.Duration{}
	slow := map[string][]*session.Event{}
	var methods []string
	for _, e := range all {
		if e.Kind != session.EvFrame || e.Dir != protocol.ServerToClient || e.Corr.Method == "" ||
			e.Corr.Probe || e.Corr.Latency <= 0 || !e.Frame.Kind.IsResponse() {
			continue
		}
		m := e.Corr.Method
		if _, ok := lat[m]; !ok {
			methods = append(methods, m)
		}
		lat[m] = append(lat[m], e.Corr.Latency)
		if e.Corr.Latency > r.limit(m) {
			slow[m] = append(slow[m], e)
		}
	}
	slices.Sort(methods)
	for _, m := range methods {
		ds := lat[m]
		slices.Sort(ds)
		r.run.Timing = append(r.run.Timing, Timing{Method: m, Count: len(ds), Median: ds[len(ds)/2], Max: ds[len(ds)-1], Limit: r.limit(m)})
		if evs := slow[m]; len(evs) > 0 {
			if len(evs) > maxFramesPerItem {
				evs = evs[:maxFramesPerItem]
			}
			r.add(protocol.NewFindingOn(protocol.FindSlow, r.timingEvidence(), "%s: %d of %d answers took longer than %s (slowest %s)",
				m, len(slow[m]), len(ds), r.limit(m), ds[len(ds)-1].Round(time.Millisecond)), evs...)
		}
	}
}

// limit is the --slow threshold of method.
func (r *runner) limit(method string) time.Duration {
	if d, ok := r.o.Slow[method]; ok {
		return d
	}
	return r.o.Slow[""]
}

// timingEvidence is the evidence of a timing finding: strict when --strict-timing asks for
// timings to count against the server.
func (r *runner) timingEvidence() protocol.Evidence {
	if r.o.StrictTiming {
		return protocol.EvidenceStrictTiming
	}
	return protocol.EvidenceNone
}
