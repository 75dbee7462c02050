package export

import (
	"strings"

	"github.com/mcpscope/mcpscope/session/fault"
)

// HARFault is one fault a rule applied (a note of kind "fault"), in the log's _faults:
// when, what and by which rule, and the note whole (the bytes as they came and as they
// were passed on).
type HARFault struct {
	PageRef string `json:"pageref,omitempty"`
	Time    string `json:"time"`
	Fault   string `json:"fault"`
	Detail  string `json:"detail"`
}

// harFaults collects the faults of a log and the frames they concern (the frame the note
// follows, each way, as the timeline marks it).
type harFaults struct {
	list []HARFault
	last map[harDir]*Event
	of   map[*Event]string
}

type harDir struct {
	gen int
	out bool
}

// add takes the next event.
func (h *harFaults) add(e *Event) {
	if h.last == nil {
		h.last, h.of = map[harDir]*Event{}, map[*Event]string{}
	}
	switch {
	case e.Kind == "frame":
		h.last[harDir{e.Gen, e.Out()}] = e
		if e.Via == fault.ViaMcpscope {
			h.of[e] = "made by mcpscope in the other side's place"
		}
	case e.Kind == "transport" && e.Note == fault.NoteKind:
		summary, _, _ := strings.Cut(e.Text, "\n")
		h.list = append(h.list, HARFault{PageRef: pageID(e.Gen), Time: harTime(e.Time), Fault: summary, Detail: e.Text})
		n, ok := fault.ParseNote(e.Text)
		if !ok {
			return
		}
		if f := h.last[harDir{e.Gen, n.Dir.String() == "out"}]; f != nil && h.of[f] == "" && n.Concerns(f.Raw()) {
			h.of[f] = summary
		}
	}
}

// entry is the _fault of an entry made of a request and its answer: what a rule did to
// either ("" when nothing).
func (h *harFaults) entry(req, answer *Event) string {
	var parts []string
	for _, e := range []*Event{req, answer} {
		if s := h.of[e]; e != nil && s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "; ")
}
