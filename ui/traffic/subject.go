package traffic

import (
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/query"
	"github.com/mcpscope/mcpscope/session"
)

// entrySubject is a row as the query language sees it (query.Subject). It holds one
// pointer, so making it a Subject allocates nothing; the tool of a call is read from its
// params only when a tool: term asks.
type entrySubject struct{ *Entry }

var _ query.Subject = entrySubject{}

func (s entrySubject) entry() *Entry { return s.Entry }

func (s entrySubject) Frame() *protocol.Frame {
	if s.Ev == nil {
		return nil
	}
	return s.Ev.Frame
}

func (s entrySubject) Dir() protocol.Direction { return s.Ev.Dir }

func (s entrySubject) Event() string {
	if s.Ev == nil {
		return ""
	}
	return s.Ev.Kind.String()
}

func (s entrySubject) Method() string {
	if s.Frame() == nil {
		return ""
	}
	return EntryMethod(s.entry())
}

func (s entrySubject) Tool() string {
	if rf := TargetRequest(s.entry()); rf != nil {
		return RequestTarget(MethodToolsCall, rf.Params)
	}
	return ""
}

func (s entrySubject) Texts() [3]string {
	if s.Ev == nil {
		return [3]string{}
	}
	t := [3]string{s.Ev.Text, s.Ev.Note}
	if s.Ev.HTTP != nil {
		t[2] = s.Ev.HTTP.URL
	}
	return t
}

func (s entrySubject) Findings() bool  { return s.HasFindings() }
func (s entrySubject) Error() bool     { return s.entry().IsError() }
func (s entrySubject) ToolError() bool { return s.ToolErr }
func (s entrySubject) Progress() bool {
	return s.Entry.Progress != nil || (s.Ev != nil && s.Ev.Corr.Progress != nil)
}
func (s entrySubject) Latency() time.Duration { return s.entry().Latency() }

func (s entrySubject) Lane() string {
	switch {
	case s.Ev == nil:
		return ""
	case s.Ev.Lane == session.LaneApp:
		return query.LaneApp
	case s.Ev.Corr.AppSeq != 0:
		return query.LaneFromApp
	case s.Ev.Kind == session.EvHTTP && s.Ev.HTTP != nil && s.Ev.HTTP.Purpose == "webhook":
		return query.LaneWebhook
	}
	return ""
}
