package recordings

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestTapDirs: the runtime directory comes first, then the temporary directories; the
// override is the only one; without XDG_RUNTIME_DIR a new tap does not use it.
func TestTapDirs(t *testing.T) {
	t.Setenv(TapDirEnv, "")
	run, tmp := t.TempDir(), t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", run)
	t.Setenv("TMPDIR", tmp)
	dirs := TapDirs()
	uid := fmt.Sprintf("mcpscope-%d", os.Getuid())
	if dirs[0] != filepath.Join(run, "mcpscope") || TapDir() != dirs[0] {
		t.Errorf("dirs %v, tap dir %s: want %s first", dirs, TapDir(), filepath.Join(run, "mcpscope"))
	}
	for _, want := range []string{filepath.Join(tmp, uid), "/tmp/" + uid} {
		if !slices.Contains(dirs, want) {
			t.Errorf("dirs %v lack %s", dirs, want)
		}
	}
	t.Setenv("XDG_RUNTIME_DIR", "")
	if d := TapDir(); strings.HasPrefix(d, run) {
		t.Errorf("without XDG_RUNTIME_DIR the tap dir is %s", d)
	}
	t.Setenv(TapDirEnv, run)
	if got := TapDirs(); len(got) != 1 || got[0] != run || TapDir() != run {
		t.Errorf("with %s: %v, %s", TapDirEnv, got, TapDir())
	}
}

// TestTapDirNotOwnedAlone: a directory others may write to is not searched, so a socket
// placed there is not attached to.
func TestTapDirNotOwnedAlone(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "taps")
	t.Setenv(TapDirEnv, dir)
	sessiontest.ServeUnixOnce(t, tapSocket(dir, "planted"), `{"mcpscope_recording":1,"server":"x"}`+"\n")
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if taps, err := ListTaps(); err != nil || len(taps) != 0 {
		t.Errorf("ListTaps in a world-writable directory: %v, %v", taps, err)
	}
	if _, err := Dial("planted"); err == nil {
		t.Errorf("Dial attached to a socket in a world-writable directory")
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if taps, err := ListTaps(); err != nil || len(taps) != 1 || taps[0].Name != "planted" {
		t.Errorf("ListTaps in the user's own directory: %v, %v", taps, err)
	}
}
