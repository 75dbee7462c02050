package common

import "testing"

func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{
		"tools/call": "tools_call", "notifications/progress": "notifications_progress",
		"../../etc/passwd": "etc_passwd", "": "frame", "a b\x00c": "a_b_c",
	} {
		if got := SafeName(in); got != want {
			t.Errorf("SafeName(%q) = %q, want %q", in, got, want)
		}
	}
}
