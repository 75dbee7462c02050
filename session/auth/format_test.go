package auth

import (
	"testing"
	"time"
)

func TestExpiryText(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{42 * time.Second, "in 42s"},
		{42 * time.Minute, "in 42m"},
		{3*time.Hour + 10*time.Minute, "in 3h10m"},
		{2 * time.Hour, "in 2h"},
		{49 * time.Hour, "in 2d1h"},
		{-5 * time.Minute, "expired 5m ago"},
	} {
		if got := ExpiryText(now.Add(c.d), now); got != c.want {
			t.Errorf("%v: %q, want %q", c.d, got, c.want)
		}
	}
	if got := ExpiryText(time.Time{}, now); got != "no expiry given" {
		t.Errorf("zero: %q", got)
	}
}

func TestMatchResource(t *testing.T) {
	keys := []Key{
		{Resource: "https://api.example.com", Issuer: "i1"},
		{Resource: "https://api.example.com/mcp/", Issuer: "i2"},
		{Resource: "https://api.example.com/mcpx", Issuer: "i3"},
		{Resource: "https://other.example.com/mcp", Issuer: "i4"},
	}
	got := MatchResource("https://API.example.com/mcp", keys)
	if len(got) != 2 || got[0].Issuer != "i1" || got[1].Issuer != "i2" {
		t.Errorf("matched %v", got)
	}
}
