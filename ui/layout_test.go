package ui

import "testing"

func TestComputeLayout(t *testing.T) {
	cases := []struct {
		name       string
		w, h       int
		detail     bool
		wantSplit  bool
		timeline   Rect
		detailRect Rect
	}{
		{"80x24 timeline", 80, 24, false, false, Rect{X: 0, Y: 1, W: 80, H: 22}, Rect{}},
		{"80x24 detail open", 80, 24, true, false, Rect{}, Rect{X: 0, Y: 1, W: 80, H: 22}},
		{"160x48 split", 160, 48, false, true, Rect{X: 0, Y: 1, W: 88, H: 46}, Rect{X: 88, Y: 1, W: 72, H: 46}},
		{"tiny is clamped", 5, 2, false, false, Rect{X: 0, Y: 1, W: MinWidth, H: MinHeight - 2}, Rect{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := ComputeLayout(c.w, c.h, c.detail)
			if l.Split != c.wantSplit || l.Timeline != c.timeline || l.Detail != c.detailRect {
				t.Errorf("got %+v", l)
			}
			if l.Status.H != 1 || l.Footer.H != 1 || l.Status.Y != 0 || l.Footer.Y != max(c.h, MinHeight)-1 {
				t.Errorf("status/footer misplaced: %+v", l)
			}
			if l.Body.H+l.Status.H+l.Footer.H != max(c.h, MinHeight) {
				t.Errorf("rows do not add up: %+v", l)
			}
			if l.Split && l.Timeline.W+l.Detail.W != l.Body.W {
				t.Errorf("columns do not add up: %+v", l)
			}
		})
	}
}
