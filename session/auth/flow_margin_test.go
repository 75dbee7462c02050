package auth

import (
	"testing"
	"time"
)

func TestRefreshMargin(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		life time.Duration
		want time.Duration
	}{
		{time.Hour, 30 * time.Second},
		{8 * time.Second, 2 * time.Second},
		{2 * time.Minute, 30 * time.Second},
	} {
		rec := &Record{Saved: now, Expiry: now.Add(c.life)}
		if got := refreshMargin(rec); got != c.want {
			t.Errorf("lifetime %s: margin %s, want %s", c.life, got, c.want)
		}
	}
	if got := refreshMargin(&Record{Expiry: now}); got != 30*time.Second {
		t.Errorf("no saved time: margin %s, want 30s", got)
	}
}
