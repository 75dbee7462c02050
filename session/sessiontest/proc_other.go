//go:build !unix

package sessiontest

import (
	"os"
	"os/exec"
)

// setProcessGroup does nothing where process groups do not exist.
func setProcessGroup(*exec.Cmd) {}

// killProcessGroup kills cmd's process.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// lockFile creates path and returns a no-op release: without flock the tests of several
// packages must not install the reference server at the same time.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}

// ProcessAlive reports whether a process with this pid exists.
func ProcessAlive(pid int) bool {
	_, err := os.FindProcess(pid)
	return err == nil
}
