//go:build unix

package recordings

import (
	"errors"
	"os"
	"syscall"
)

// ownedByMe reports whether the file belongs to the user running mcpscope.
func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Getuid()
}

// makePrivate makes the tap directory dir (fi its Lstat) this user's alone: it must be
// the user's, and gets mode 0700.
func makePrivate(dir string, fi os.FileInfo) error {
	if !ownedByMe(fi) {
		return errNotMine
	}
	if fi.Mode().Perm() != 0o700 {
		return os.Chmod(dir, 0o700)
	}
	return nil
}

// isPrivate reports whether the directory dir (fi its Lstat) is this user's and no one
// else may write to it.
func isPrivate(_ string, fi os.FileInfo) bool {
	return ownedByMe(fi) && fi.Mode().Perm()&0o022 == 0
}

// restrictSocket gives a tap's socket mode 0600, beside its directory's 0700.
func restrictSocket(path string) error { return os.Chmod(path, 0o600) }

var errNotMine = errors.New("not this user's")
