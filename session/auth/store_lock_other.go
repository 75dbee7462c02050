//go:build !unix && !windows

package auth

import "sync"

// lockMu stands in for a file lock where the system has none: it keeps this process's
// writers apart, not other processes'.
var lockMu sync.Mutex

// lockFile takes the process-wide lock.
func lockFile(string) (func(), error) {
	lockMu.Lock()
	return lockMu.Unlock, nil
}

// syncDir does nothing here.
func syncDir(string) {}
