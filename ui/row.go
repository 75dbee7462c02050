package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
)

// rowCache keeps one rendered row for one width.
type rowCache struct {
	width int
	s     string
}

// Column widths of a timeline row.
const (
	colTime = 9 // "+1234.567"
	colDir  = 1
	colKind = 6
	colID   = 6
	colSize = 6
	colLat  = 8
)

// rowText renders e as one line of exactly width cells. start is the session's first event
// time (rows show time relative to it); now drives the elapsed timer of pending requests.
func rowText(s *Styles, e *Entry, width int, start, now time.Time) string {
	if e.Marker != "" {
		return fitRow(s.Accent.Render("──── "+e.Marker+" "+strings.Repeat("─", max(0, width))), width)
	}
	ev := e.Ev
	rel := s.Muted.Render(fmt.Sprintf("%*s", colTime, relTime(ev.Time, start)))
	var dir, kind, label, id, size, lat, badge string
	switch ev.Kind {
	case session.EvFrame:
		f := ev.Frame
		dir = dirArrow(s, ev.Dir)
		kind = kindLabel(s, f.Kind)
		label = f.Method
		if label == "" {
			label = ev.Corr.Method
		}
		if !f.ID.IsZero() {
			id = "#" + f.ID.String()
		}
		size = humanSize(int64(len(f.Raw)), ev.Recv.Size)
		switch {
		case ev.Corr.Latency > 0:
			lat = humanDuration(ev.Corr.Latency)
		case f.Kind == protocol.KindRequest && !e.Answered && e.Failed == "":
			lat = s.Accent.Render("⏱" + humanDuration(now.Sub(ev.Time)))
		case e.Failed != "":
			lat = s.Error.Render("✗ failed")
		}
		if e.Progress != nil {
			badge += progressBadge(s, e.Progress)
		}
		if ev.Corr.Progress != nil {
			label += " " + progressText(ev.Corr.Progress)
		}
		if n := len(session.AllFindings(f)); n > 0 {
			badge += s.BadgeFinding.Render(fmt.Sprintf(" ⚠%d", n))
		}
	case session.EvStderr:
		kind = s.Stderr.Render(pad("stderr", colKind))
		label = s.Stderr.Render(ev.Text)
	case session.EvHTTP:
		h := ev.HTTP
		kind = s.Transport.Render(pad("http", colKind))
		label = s.Transport.Render(httpLine(h))
		lat = humanDuration(h.Duration)
		if h.Status >= 400 || h.Err != "" {
			label = s.Error.Render(httpLine(h))
		}
	case session.EvTransport:
		kind = s.Transport.Render(pad("net", colKind))
		label = s.Transport.Render(ev.Note + ": " + ev.Text)
	case session.EvExit:
		kind = s.Error.Render(pad("exit", colKind))
		label = s.Error.Render(ev.Text)
	case session.EvState:
		kind = s.Muted.Render(pad("state", colKind))
		label = s.Muted.Render(stateLine(ev))
	case session.EvError:
		kind = s.Error.Render(pad("ERROR", colKind))
		label = s.Error.Render(ev.Text)
	case session.EvLists:
		kind = s.Muted.Render(pad("list", colKind))
		label = s.Muted.Render(ev.Note + ": " + ev.Text)
	}
	if dir == "" {
		dir = " "
	}
	right := fmt.Sprintf("%*s %*s %*s", colID, clip(id, colID), colSize, size, colLat, lat) + badge
	fixed := colTime + 1 + colDir + 1 + colKind + 1
	labelW := max(4, width-fixed-ansi.StringWidth(right)-1)
	line := rel + " " + dir + " " + kind + " " + padANSI(ansi.Truncate(label, labelW, "…"), labelW) + " " + right
	return fitRow(line, width)
}

func stateLine(ev *session.Event) string {
	if ev.Text == "" {
		return ev.State.String()
	}
	return ev.State.String() + ": " + ev.Text
}

func httpLine(h *transport.HTTPExchange) string {
	if h.Err != "" {
		return fmt.Sprintf("%s %s ✗ %s", h.Method, shortURL(h.URL), h.Err)
	}
	return fmt.Sprintf("%s %s → %d", h.Method, shortURL(h.URL), h.Status)
}

// shortURL drops the scheme and host when the path says enough.
func shortURL(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		if j := strings.IndexByte(u[i+3:], '/'); j >= 0 {
			return u[i+3+j:]
		}
	}
	return u
}

func dirArrow(s *Styles, d protocol.Direction) string {
	if d == protocol.ClientToServer {
		return s.Request.Render("→")
	}
	return s.Response.Render("←")
}

func kindLabel(s *Styles, k protocol.Kind) string {
	switch k {
	case protocol.KindRequest:
		return s.Request.Render(pad("req", colKind))
	case protocol.KindNotification:
		return s.Notification.Render(pad("note", colKind))
	case protocol.KindResult:
		return s.Response.Render(pad("res", colKind))
	case protocol.KindError:
		return s.Error.Render(pad("error", colKind))
	case protocol.KindBatch:
		return s.Accent.Render(pad("batch", colKind))
	}
	return s.Finding.Render(pad("bad", colKind))
}

func progressBadge(s *Styles, p *session.Progress) string {
	return " " + s.Accent.Render(progressText(p))
}

// progressText is a small bar with the numbers: "[███░░] 3/5 message".
func progressText(p *session.Progress) string {
	if p.Total <= 0 {
		t := fmt.Sprintf("%g", p.Progress)
		if p.Message != "" {
			t += " " + p.Message
		}
		return t
	}
	const cells = 8
	done := int(float64(cells) * min(1, p.Progress/p.Total))
	t := "[" + strings.Repeat("█", done) + strings.Repeat("░", cells-done) + "] " + fmt.Sprintf("%g/%g", p.Progress, p.Total)
	if p.Message != "" {
		t += " " + p.Message
	}
	return t
}

func relTime(t, start time.Time) string {
	if start.IsZero() || t.Before(start) {
		return "+0.000"
	}
	d := t.Sub(start)
	return fmt.Sprintf("+%.3f", d.Seconds())
}

func humanDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000)
	case d < time.Minute:
		return fmt.Sprintf("%.2fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}

func humanSize(n, wire int64) string {
	if wire > n {
		n = wire
	}
	switch {
	case n < 1000:
		return fmt.Sprintf("%dB", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1fK", float64(n)/1000)
	case n < 1000*1000*1000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	}
	return fmt.Sprintf("%.1fG", float64(n)/1e9)
}

func pad(s string, w int) string {
	if len(s) >= w {
		return s[:w]
	}
	return s + strings.Repeat(" ", w-len(s))
}

func clip(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// padANSI pads a styled string with spaces to width cells.
func padANSI(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// fitRow makes a styled line exactly width cells wide.
func fitRow(s string, width int) string {
	if ansi.StringWidth(s) > width {
		s = ansi.Truncate(s, width, "")
	}
	return padANSI(s, width)
}
