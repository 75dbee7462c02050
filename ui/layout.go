package ui

// Layout is where everything goes for one terminal size. It is a pure function of its
// inputs so it can be table-tested and recomputed on every resize.
type Layout struct {
	Status   Rect // the status bar: always the first line
	Body     Rect // the page
	Timeline Rect // traffic page: the timeline
	Detail   Rect // traffic page: the detail pane (zero when hidden)
	Footer   Rect // the help line, or the filter input while filtering
	Split    bool // timeline and detail side by side
}

// Minimum size the layout is designed for; smaller terminals get a clamped layout.
const (
	MinWidth  = 20
	MinHeight = 6
	// SideBySide is the width from which timeline and detail sit side by side.
	SideBySide = 140
)

// ComputeLayout lays out a w×h terminal. detailOpen asks for the detail pane on narrow
// terminals, where it takes the whole body; wide terminals always show it beside the
// timeline.
func ComputeLayout(w, h int, detailOpen bool) Layout {
	w, h = max(w, MinWidth), max(h, MinHeight)
	l := Layout{
		Status: Rect{X: 0, Y: 0, W: w, H: 1},
		Footer: Rect{X: 0, Y: h - 1, W: w, H: 1},
		Body:   Rect{X: 0, Y: 1, W: w, H: h - 2},
	}
	switch {
	case w >= SideBySide:
		tw := w * 55 / 100
		l.Split = true
		l.Timeline = Rect{X: 0, Y: 1, W: tw, H: l.Body.H}
		l.Detail = Rect{X: tw, Y: 1, W: w - tw, H: l.Body.H}
	case detailOpen:
		l.Detail = l.Body
	default:
		l.Timeline = l.Body
	}
	return l
}

// Maximized is l with the detail pane given the whole body and the timeline hidden.
func (l Layout) Maximized() Layout {
	l.Split, l.Timeline, l.Detail = false, Rect{}, l.Body
	return l
}
