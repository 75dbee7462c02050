//go:build !unix

package recordings

import "os"

// ownedByMe cannot tell owners apart here; the directory is the user's own.
func ownedByMe(os.FileInfo) bool { return true }

// forwardSignal ends the process: without POSIX signals there is nothing finer to pass on.
func forwardSignal(p *os.Process, _ os.Signal) { p.Kill() }

// shellStatus is the process's exit code.
func shellStatus(ps *os.ProcessState) int { return ps.ExitCode() }
