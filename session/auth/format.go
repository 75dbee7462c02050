package auth

import (
	"fmt"
	"time"
)

// ExpiryText says when a token expires relative to now ("in 42m", "expired 3h10m ago",
// "no expiry given" for a zero time), to the second under a minute and to the minute
// above.
func ExpiryText(expiry, now time.Time) string {
	if expiry.IsZero() {
		return "no expiry given"
	}
	d := expiry.Sub(now)
	if d >= 0 {
		return "in " + shortDuration(d)
	}
	return "expired " + shortDuration(-d) + " ago"
}

// shortDuration rounds d for people, to the nearest unit shown: seconds under a minute, minutes under a day, then
// days and hours.
func shortDuration(d time.Duration) string {
	if d >= time.Minute {
		d = d.Round(time.Minute) // a token of 5m just issued is "in 5m", not "in 4m"
	} else {
		d = d.Round(time.Second)
	}
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 24*time.Hour:
		h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
		if m == 0 {
			return fmt.Sprintf("%dh", h)
		}
		return fmt.Sprintf("%dh%dm", h, m)
	}
	days, h := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour)
	if h == 0 {
		return fmt.Sprintf("%dd", days)
	}
	return fmt.Sprintf("%dd%dh", days, h)
}
