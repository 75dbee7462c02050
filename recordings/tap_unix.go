//go:build unix

package recordings

import (
	"os"
	"syscall"
)

// ownedByMe reports whether the file belongs to the user running mcpscope.
func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Getuid()
}
