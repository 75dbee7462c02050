package serve

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// Bounds of send_raw.
const (
	defaultRawWait = time.Second
	maxRawWait     = 30 * time.Second
	maxRawBytes    = 4 << 20
	rawFollowed    = 50 // most events returned after the one sent
)

// RawIn is send_raw's input.
type RawIn struct {
	Session string `json:"session"`
	Text    string `json:"text" jsonschema:"the exact text to send as one message: any JSON-RPC, or not JSON at all"`
	WaitMS  int    `json:"wait_ms,omitempty" jsonschema:"for what is not a request with a fresh id, how long to collect what follows (default 1000, at most 30000)"`
	Bounds
}

// RawOut is send_raw's result.
type RawOut struct {
	SentSeq  uint64    `json:"sent_seq" jsonschema:"the event of what was sent"`
	Answer   *Answer   `json:"answer,omitempty" jsonschema:"a request's response and exchange"`
	Followed []Event   `json:"followed" jsonschema:"events after the one sent, within wait_ms (or until the response)"`
	Findings []Finding `json:"findings" jsonschema:"findings on what was sent and on what followed"`
}

func (s *Server) sendRaw(ctx context.Context, in RawIn) (RawOut, error) {
	l, err := s.reg.get(in.Session)
	if err != nil {
		return RawOut{}, err
	}
	if len(in.Text) > maxRawBytes {
		return RawOut{}, fmt.Errorf("text is %d bytes; send_raw takes at most %d", len(in.Text), maxRawBytes)
	}
	// A subscription of its own sees what was sent and what followed, in order.
	sub := l.sess().SubscribeWith(session.SubscribeOptions{Events: 4096, Bytes: 16 << 20})
	defer sub.Close()
	wait := defaultRawWait
	if in.WaitMS > 0 {
		wait = min(time.Duration(in.WaitMS)*time.Millisecond, maxRawWait)
	}
	rctx := ctx
	if in.TimeoutMS > 0 {
		var cancel context.CancelFunc
		rctx, cancel = context.WithTimeout(ctx, time.Duration(in.TimeoutMS)*time.Millisecond)
		defer cancel()
	}
	resp, err := l.sess().SendRaw(rctx, []byte(in.Text))
	out := RawOut{Followed: []Event{}, Findings: []Finding{}}
	var until uint64 // with a response, what follows ends there
	if resp != nil && resp.Request != nil {
		a, aerr := l.answer(resp, err, in.Bounds)
		if aerr != nil {
			return RawOut{}, aerr
		}
		out.Answer = &a
		until = a.Exchange.ResponseSeq
		if until == 0 {
			until = a.Exchange.RequestSeq
		}
	} else if err != nil {
		return RawOut{}, err
	}
	deadline, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	for {
		evs, ok := sub.Next(deadline, 64)
		for _, ev := range evs {
			if out.SentSeq == 0 {
				if ev.Kind == session.EvFrame && ev.Dir == protocol.ClientToServer && string(ev.Frame.Raw) == in.Text {
					out.SentSeq = ev.Seq
					out.Findings = append(out.Findings, findingsOf(ev)...)
				}
				continue
			}
			if len(out.Followed) < rawFollowed && ev.Seq != 0 {
				out.Followed = append(out.Followed, l.row(traffic.NewEntry(1, ev), defaultBodyBytes))
				out.Findings = append(out.Findings, findingsOf(ev)...)
			}
			if until != 0 && ev.Seq >= until {
				ok = false
			}
		}
		if !ok || deadline.Err() != nil {
			break
		}
	}
	if out.SentSeq != 0 {
		l.saw(out.SentSeq)
	}
	return out, nil
}
