package ui

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDisabledKeySaysWhy: on a recording, restart and the keys that send to a server are
// off; pressing one shows why in the status line and changes nothing else, and a key that is
// not disabled shows no reason.
func TestDisabledKeySaysWhy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.jsonl")
	writeRecording(t, path, goldenTraffic(t))
	m := openModel(t, path, 120, 30)
	rows := m.hist.Len()
	for _, c := range []struct{ key, want string }{
		{"R", "R (restart server) is off: a recording is being browsed, there is no server to act on"},
		{"r", "r (re-send request) is off: a recording is being browsed"},
		{":", ": (new request…) is off: a recording is being browsed"},
	} {
		cmd := pressKey(m, c.key)
		if cmd == nil {
			t.Fatalf("pressing %s on a recording did nothing", c.key)
		}
		m.Update(cmd()) // the status message; its clearing tick is not run
		if scr := plainScreen(m); !strings.Contains(scr, c.want) {
			t.Errorf("pressing %s: the screen lacks %q:\n%s", c.key, c.want, scr)
		}
		if m.gen != 0 || m.sess != nil || dialogOf[*composer](m) != nil || m.hist.Len() != rows {
			t.Errorf("pressing %s on a recording changed the session, a dialog or the rows", c.key)
		}
	}
	m.c.Keys.Enable(&m.c.Keys.Act.Compose)
	if why := m.c.Keys.DisabledReason(keyPress(":"), &m.c.Keys.Act.Compose); why != "" || !m.c.Keys.Act.Compose.Enabled() {
		t.Errorf("an enabled key still gives a reason: %q", why)
	}
}
