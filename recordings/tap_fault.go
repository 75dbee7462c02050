package recordings

import (
	"bytes"
	"io"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/transport"
)

// A stdio tap with fault rules (TapConfig.Faults), or that viewers can attach to (their
// breakpoints hold there), forwards each direction through a fault.Stream: while a rule
// or an enabled breakpoint is there, line by line (a line none acts on keeps its exact
// bytes, but waits for its newline); else chunk by chunk, as it comes. The frames are recorded as they came; each fault is
// recorded after its frame as a note (kind "fault") with the bytes delivered instead, and
// an answer mcpscope made in the other side's place as a frame that came via "mcpscope".

// faultStreams are the writers the tap's pumps copy to when it has fault rules: host stdin
// to serverIn, server stdout to hostOut. closeStdin closes the server's stdin. What they
// record (faults, answers mcpscope made) is published through the tap's log, after the
// stream has moved on: it gets copies of the stream's buffers.
func (t *Tap) faultStreams(serverIn, hostOut io.Writer, closeStdin func()) (toServer, toHost *fault.Stream) {
	if hostOut == nil {
		hostOut = io.Discard
	}
	in, out := &fault.Locked{W: serverIn}, &fault.Locked{W: hostOut}
	report := func(a *fault.Applied) {
		c := *a // the stream may reuse its buffers once Report returns
		c.Original, c.Answer = bytes.Clone(a.Original), bytes.Clone(a.Answer)
		c.Delivered = make([][]byte, len(a.Delivered))
		for i, d := range a.Delivered {
			c.Delivered[i] = bytes.Clone(d)
		}
		if a.Delivered == nil {
			c.Delivered = nil
		}
		t.faultReport(&c)
	}
	made := func(dir protocol.Direction) func([]byte) {
		return func(raw []byte) {
			t.madeAnswer(dir, bytes.Clone(raw))
		}
	}
	toServer = &fault.Stream{Engine: t.cfg.Faults, Dir: protocol.ClientToServer, Out: in, Back: out,
		Disconnect: closeStdin, Report: report, Max: int(t.cfg.MaxFrame), Note: t.note, Made: made(protocol.ServerToClient)}
	toHost = &fault.Stream{Engine: t.cfg.Faults, Dir: protocol.ServerToClient, Out: out, Back: in,
		Report: report, Max: int(t.cfg.MaxFrame), Note: t.note, Made: made(protocol.ClientToServer), Disconnect: func() {
			if c, ok := hostOut.(io.Closer); ok {
				c.Close()
			}
		}}
	return toServer, toHost
}

// madeAnswer records an answer mcpscope made at a breakpoint, going dir.
func (t *Tap) madeAnswer(dir protocol.Direction, raw []byte) {
	t.frame(dir, raw, transport.RecvInfo{Via: fault.ViaMcpscope, Size: int64(len(raw))})
}

// faultReport records a fault and the answer mcpscope made, if any.
func (t *Tap) faultReport(a *fault.Applied) {
	t.note(fault.NoteKind, fault.Describe(a))
	if a.Answer != nil {
		back := protocol.ServerToClient
		if a.Dir == protocol.ServerToClient {
			back = protocol.ClientToServer
		}
		t.frame(back, a.Answer, transport.RecvInfo{Via: fault.ViaMcpscope, Size: int64(len(a.Answer))})
	}
}
