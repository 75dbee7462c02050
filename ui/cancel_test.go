package ui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/ui/explorer"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// lastFrame is the newest history entry whose frame holds every part, or nil.
func lastFrame(m *Model, parts ...string) *traffic.Entry {
	es := m.hist.Entries()
	for i := len(es) - 1; i >= 0; i-- {
		e := es[i]
		if e.Ev == nil || e.Ev.Frame == nil {
			continue
		}
		all := true
		for _, p := range parts {
			all = all && bytes.Contains(e.Ev.Frame.Raw, []byte(p))
		}
		if all {
			return e
		}
	}
	return nil
}

// footerCancel is the cancel binding of the help line, if it is there.
func footerCancel(m *Model) (key.Binding, bool) {
	for _, b := range m.shortKeys() {
		if b.Enabled() && b.Help().Key == m.c.Keys.Act.Cancel.Help().Key {
			return b, true
		}
	}
	return key.Binding{}, false
}

// TestCancelTaskWhereShown cancels running tasks with c wherever the call is shown: the
// explorer, the detail T opens, a timeline row. Each sends tasks/cancel, the footer names
// the key while it applies, and a press when nothing runs says why.
func TestCancelTaskWhereShown(t *testing.T) {
	for _, rev := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(rev, func(t *testing.T) {
			m, d := taskModelIn(t, rev)
			running := func(id string) {
				t.Helper()
				d.until(30*time.Second, "task "+id+" followed", func() bool {
					r := m.tasks.byID[id]
					return r != nil && r.following && strings.Contains(exDetail(m), "Task "+id+" working")
				})
			}
			cancelled := func(id string) {
				t.Helper()
				d.until(30*time.Second, "task "+id+" cancelled", func() bool {
					r := m.tasks.byID[id]
					return r != nil && r.task.Status == "cancelled" && !r.following &&
						lastFrame(m, `"tasks/cancel"`, `"`+id+`"`) != nil
				})
			}

			// The explorer.
			callSleep(d, "30")
			running("task-1")
			if b, ok := footerCancel(m); !ok || b.Help().Desc != "cancel task (tasks/cancel)" {
				t.Errorf("the explorer's footer does not offer the cancel: %v", ansi.Strip(m.footer()))
			}
			d.keys("c")
			cancelled("task-1")
			d.until(10*time.Second, "the explorer's outcome", func() bool {
				return strings.Contains(exDetail(m), "task task-1 cancelled")
			})
			if _, ok := footerCancel(m); ok {
				t.Errorf("the footer offers a cancel after the task ended")
			}
			d.keys("c")
			d.until(10*time.Second, "why c is off", func() bool {
				return strings.Contains(m.status.Text, "is off: the call has ended")
			})

			// The detail that T opens.
			callSleep(d, "30")
			running("task-2")
			d.keys("T")
			d.until(10*time.Second, "the detail", func() bool { return m.page == pageTraffic && m.focus == focusDetail })
			shown := m.timeline.Selected()
			d.until(10*time.Second, "a poll after the row shown", func() bool {
				e := lastFrame(m, `"tasks/get"`)
				return e != nil && e.Index > shown.Index
			})
			if m.timeline.Selected() != shown {
				t.Errorf("the row T showed did not stay selected as new rows came in")
			}
			if _, ok := footerCancel(m); !ok {
				t.Errorf("the detail's footer does not offer the cancel")
			}
			d.keys("c")
			cancelled("task-2")

			// The timeline row of the request that created the task.
			callSleep(d, "30")
			running("task-3")
			d.keys("1", "esc")
			if !m.timeline.Select(m.hist.Lookup(m.gen, m.tasks.byID["task-3"].reqSeq)) || m.focus != focusTimeline {
				t.Fatalf("cannot select the creating request's row")
			}
			if _, ok := footerCancel(m); !ok {
				t.Errorf("the timeline's footer does not offer the cancel")
			}
			d.keys("c")
			cancelled("task-3")
		})
	}
}

// TestCancelExplorerCall cancels a plain call from the explorer while it runs: the server
// is told with notifications/cancelled and the explorer says the call was cancelled.
func TestCancelExplorerCall(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	m, d := r.m, r.d
	d.keys("2")
	if _, ok := footerCancel(m); ok {
		t.Errorf("the footer offers a cancel before anything was sent")
	}
	d.keys("c")
	if !strings.Contains(m.status.Text, "is off: nothing was sent for this item") {
		d.until(10*time.Second, "why c is off", func() bool {
			return strings.Contains(m.status.Text, "is off: nothing was sent for this item")
		})
	}
	d.selectItem(0, "slow")
	d.keys("enter", "ctrl+s")
	r.until("the slow call in flight", func() bool {
		run := selectedCall(m)
		e := (*traffic.Entry)(nil)
		if run != nil {
			e = run.Request
		}
		return e != nil && e.Waiting()
	})
	if b, ok := footerCancel(m); !ok || b.Help().Desc != "cancel request" {
		t.Errorf("the explorer's footer does not offer the cancel: %v", ansi.Strip(m.footer()))
	}
	d.keys("c")
	r.until("the cancellation", func() bool {
		run := selectedCall(m)
		return run.Done && run.Err == explorer.ErrCancelledByUser && r.frame("notifications/cancelled", "cancelled by the user") != nil
	})
	if got := exDetail(m); !strings.Contains(got, "cancelled by the user") || strings.Contains(got, "request failed") {
		t.Errorf("the explorer's outcome:\n%s", got)
	}
}
