package recordings

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// TapDirEnv names the environment variable that, when set, is the one directory taps listen
// in and attach searches (instead of the per-user locations of TapDirs).
const TapDirEnv = "MCPSCOPE_TAP_DIR"

// TapDirs lists, in the order they are searched, the per-user directories where a tap may
// have put its socket: $XDG_RUNTIME_DIR/mcpscope, /run/user/UID/mcpscope (the runtime
// directory systemd makes, used by a tap whose host passed no XDG_RUNTIME_DIR),
// mcpscope-UID in $TMPDIR and in /tmp. Hosts start servers with a reduced environment (often
// only HOME, PATH and USER), so a tap and a viewer may not agree on any one of them.
// $MCPSCOPE_TAP_DIR, when set, is the only one.
func TapDirs() []string {
	if d := os.Getenv(TapDirEnv); d != "" {
		return []string{filepath.Clean(d)}
	}
	var dirs []string
	add := func(d string) {
		d = filepath.Clean(d)
		for _, o := range dirs {
			if o == d {
				return
			}
		}
		dirs = append(dirs, d)
	}
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" && filepath.IsAbs(d) {
		add(filepath.Join(d, "mcpscope"))
	}
	if d := systemdRuntimeDir(); d != "" {
		add(filepath.Join(d, "mcpscope"))
	}
	add(tempTapDir())
	if runtime.GOOS != "windows" {
		add(fmt.Sprintf("/tmp/mcpscope-%d", os.Getuid()))
	}
	// The private directories of taps whose usual one was taken by another user.
	for _, tmp := range []string{os.TempDir(), "/tmp"} {
		m, _ := filepath.Glob(filepath.Join(tmp, fmt.Sprintf("mcpscope-%d-*", os.Getuid())))
		for _, d := range m {
			if ownDir(d) {
				add(d)
			}
		}
	}
	return dirs
}

// TapDir is the directory a new tap listens in: $MCPSCOPE_TAP_DIR when set, else
// $XDG_RUNTIME_DIR/mcpscope, else /run/user/UID/mcpscope when that runtime directory
// exists and is this user's, else mcpscope-UID in the temporary directory. It is created
// with mode 0700.
func TapDir() string {
	if d := os.Getenv(TapDirEnv); d != "" {
		return filepath.Clean(d)
	}
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "mcpscope")
	}
	if d := systemdRuntimeDir(); d != "" {
		return filepath.Join(d, "mcpscope")
	}
	return tempTapDir()
}

// tempTapDir is the tap directory in the temporary directory: mcpscope-UID, or on Windows,
// where the temporary directory is the user's own and there are no user ids, mcpscope.
func tempTapDir() string {
	if runtime.GOOS == "windows" {
		return filepath.Join(os.TempDir(), "mcpscope")
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("mcpscope-%d", os.Getuid()))
}

// systemdRuntimeDir is /run/user/UID when it is a directory of this user that only this
// user may enter (what systemd-logind makes for a logged-in user), else "".
func systemdRuntimeDir() string {
	if runtime.GOOS != "linux" {
		return ""
	}
	d := fmt.Sprintf("/run/user/%d", os.Getuid())
	fi, err := os.Stat(d)
	if err != nil || !fi.IsDir() || !ownedByMe(fi) || fi.Mode().Perm()&0o077 != 0 {
		return ""
	}
	return d
}

// ensureTapDir creates TapDir and makes it this user's alone (mode 0700; on Windows, an
// access control list of this user only). When another user took it first (a directory
// of theirs, a file, a link), the tap does not fail its host's server: it listens in a
// fresh private directory, mcpscope-UID-RANDOM in the temporary directory, which TapDirs
// (so attach --list) also searches, and moved says why.
func ensureTapDir() (dir, moved string, err error) {
	dir = TapDir()
	why := ""
	if err := os.MkdirAll(dir, 0o700); err != nil {
		why = err.Error()
	} else if fi, err := os.Lstat(dir); err != nil {
		why = err.Error()
	} else if !fi.IsDir() {
		why = dir + " is not a directory"
	} else if err := makePrivate(dir, fi); errors.Is(err, errNotMine) {
		why = dir + " is not a directory of this user"
	} else if err != nil {
		return "", "", fmt.Errorf("tap directory: %w", err)
	} else {
		return dir, "", nil
	}
	if os.Getenv(TapDirEnv) != "" {
		return "", "", fmt.Errorf("tap directory $%s: %s", TapDirEnv, why)
	}
	fresh, err := os.MkdirTemp("", fmt.Sprintf("mcpscope-%d-", os.Getuid()))
	if err != nil {
		return "", "", fmt.Errorf("tap directory: %s, and a private one could not be made: %w", why, err)
	}
	fi, err := os.Lstat(fresh)
	if err == nil {
		err = makePrivate(fresh, fi)
	}
	if err != nil {
		return "", "", fmt.Errorf("tap directory: %w", err)
	}
	return fresh, fmt.Sprintf("the tap directory %s cannot be used (%s): listening in %s instead (attach finds it)", TapDir(), why, fresh), nil
}

// ownDir reports whether dir is a directory (not a link) of this user that no one else may
// write to: a viewer attaches only to sockets in such a directory, so another user cannot
// stand in for a tap by making /tmp/mcpscope-UID first.
func ownDir(dir string) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	return isPrivate(dir, fi)
}

// liveElsewhere reports the socket of a live tap called name in another directory of
// TapDirs than dir, or "".
func liveElsewhere(dir, name string) string {
	for _, d := range TapDirs() {
		if p := tapSocket(d, name); d != dir && ownDir(d) && alive(p) {
			return p
		}
	}
	return ""
}
