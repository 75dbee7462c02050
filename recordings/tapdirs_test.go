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

// TestTapDirTaken: when the usual tap directory was taken by another user (theirs, or not
// a directory at all), a tap still starts, in a fresh private directory it announces, and
// attach finds it there.
func TestTapDirTaken(t *testing.T) {
	t.Setenv(TapDirEnv, "")
	run := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", run)
	t.Setenv("TMPDIR", t.TempDir())
	taken := filepath.Join(run, "mcpscope")
	if os.Getuid() == 0 {
		// Another user's directory, as root can make one.
		if err := os.Mkdir(taken, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(taken, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	} else if err := os.WriteFile(taken, []byte("not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
	tp, err := NewTap(TapConfig{Name: "moved", ExactName: true})
	if err != nil {
		t.Fatalf("a tap whose directory was taken failed to start: %v", err)
	}
	defer tp.Close()
	if tp.Moved() == "" || !strings.Contains(tp.Moved(), taken) {
		t.Errorf("Moved() = %q: the tap does not say its directory was taken", tp.Moved())
	}
	dir := filepath.Dir(tp.Socket())
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 || !strings.HasPrefix(filepath.Base(dir), fmt.Sprintf("mcpscope-%d-", os.Getuid())) {
		t.Fatalf("the tap listens in %s (%v, %v): want a private mcpscope-UID-… directory", dir, fi, err)
	}
	taps, err := ListTaps()
	if err != nil || !slices.ContainsFunc(taps, func(x TapInfo) bool { return x.Name == "moved" }) {
		t.Errorf("attach --list does not find the moved tap: %v, %v", taps, err)
	}
	l, err := Dial("moved")
	if err != nil {
		t.Fatalf("attach to the moved tap: %v", err)
	}
	l.Close()
}

// TestTapSocketOwnerOnly: a tap's viewer socket (which also takes breakpoint decisions) is
// 0600 in a 0700 directory: no other user can watch the traffic or steer it.
func TestTapSocketOwnerOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "taps")
	t.Setenv(TapDirEnv, dir)
	tp, err := NewTap(TapConfig{Name: "private", ExactName: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tp.Close()
	sock, err := os.Lstat(tp.Socket())
	if err != nil || sock.Mode().Perm() != 0o600 {
		t.Errorf("socket %s: %v, %v; want mode 0600", tp.Socket(), sock, err)
	}
	if fi, err := os.Lstat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("tap directory %s: %v, %v; want mode 0700", dir, fi, err)
	}
}
