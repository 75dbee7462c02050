package supervise

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// Options of prctl(2), from <linux/prctl.h>.
const (
	prSetName           = 15
	prSetChildSubreaper = 36
)

// name is what process listings show as the supervisor's command name (at most 15 bytes):
// it was started through /proc/self/exe, which would show as "exe".
var name = []byte("mcpscope-sup\x00")

// killTick is how often the group and the descendants are signalled again while SIGKILL is
// being delivered, to catch what a dying process forked just before.
const killTick = 20 * time.Millisecond

func init() {
	if os.Getenv(EnvKey) != EnvValue || len(os.Args) < 4 || os.Args[0] != Arg0 {
		return
	}
	// Package initialisation runs on the main thread, locked to it: the server's Pdeathsig
	// (which follows the spawning thread) holds until this process exits.
	// syscall.Exit, not os.Exit: nothing is buffered, and a binary built with -race would
	// otherwise sleep a second at exit (GORACE atexit_sleep_ms), which every close waits for.
	syscall.Exit(run(os.Args[1:]))
}

// run is the supervisor's main: args are the grace period in milliseconds, the server's
// path and its argv.
func run(args []string) int {
	os.Unsetenv(EnvKey)
	status := os.NewFile(StatusFD, "status")
	control := os.NewFile(ControlFD, "control")
	if status == nil || control == nil {
		return 2
	}
	// Neither pipe may reach the server: it would keep the status pipe open past our exit.
	syscall.CloseOnExec(StatusFD)
	syscall.CloseOnExec(ControlFD)
	ms, err := strconv.Atoi(args[0])
	if err != nil {
		fmt.Fprintf(status, "error bad grace period %q\n", args[0])
		return 2
	}
	grace := time.Duration(ms) * time.Millisecond

	syscall.RawSyscall(syscall.SYS_PRCTL, prSetName, uintptr(unsafe.Pointer(&name[0])), 0)
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		fmt.Fprintf(status, "error prctl(PR_SET_CHILD_SUBREAPER): %v\n", errno)
		return 2
	}
	// Signals meant for the server (a kill of our pid, a hangup) are passed on to its group.
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)

	runtime.LockOSThread() // already locked during init; kept explicit for Pdeathsig
	pid, err := syscall.ForkExec(args[1], args[2:], &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{0, 1, 2},
		Sys:   &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		fmt.Fprintf(status, "error %v\n", &os.PathError{Op: "fork/exec", Path: args[1], Err: err})
		return 1
	}
	fmt.Fprintf(status, "pid %d\n", pid)
	releaseStdio()
	s := &supervisor{self: os.Getpid(), leader: pid, grace: grace, status: status}
	s.loop(control, sigs)
	return 0
}

// releaseStdio points our standard streams at /dev/null: the server's pipes must reach end
// of file when the server and its descendants are gone, not when we exit.
func releaseStdio() {
	null, err := syscall.Open("/dev/null", syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		syscall.Close(0)
		syscall.Close(1)
		syscall.Close(2)
		return
	}
	for fd := range 3 {
		syscall.Dup3(null, fd, 0)
	}
	syscall.Close(null)
}

// supervisor is the state of the supervising loop.
type supervisor struct {
	self, leader int
	grace        time.Duration
	status       *os.File
	leaderGone   bool // the server has been reaped
	killing      bool // SIGKILL is being delivered to everything that is left
}

// reaped is one child collected by wait4.
type reaped struct {
	pid int
	ws  syscall.WaitStatus
}

// loop reaps children, passes signals on, and ends when no child is left after the server
// has exited.
func (s *supervisor) loop(control *os.File, sigs <-chan os.Signal) {
	children := make(chan reaped)
	none := make(chan struct{}) // wait4 found no child left
	go func() {
		for {
			var ws syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &ws, 0, nil)
			if err == syscall.EINTR {
				continue
			}
			if err != nil {
				close(none)
				return
			}
			children <- reaped{pid, ws}
		}
	}()
	ctl := make(chan byte)
	ctlEOF := make(chan struct{})
	go func() {
		buf := make([]byte, 64)
		for {
			n, err := control.Read(buf)
			for _, b := range buf[:n] {
				ctl <- b
			}
			if err != nil {
				close(ctlEOF)
				return
			}
		}
	}()

	var graceC, tickC <-chan time.Time
	termNext := false // at graceC the server's group gets SIGTERM, not everything SIGKILL
	for {
		select {
		case c := <-children:
			if c.pid == s.leader && !s.leaderGone {
				s.leaderGone = true
				fmt.Fprintf(s.status, "exit %d\n", uint32(c.ws))
				if !s.killing && hasChildren() {
					// What the server left behind gets the same treatment as the server on close.
					s.signalAll(syscall.SIGTERM)
					graceC, termNext = time.After(s.grace), false
				}
			}
		case <-none:
			return
		case b := <-ctl:
			sig := syscall.Signal(b)
			if sig == syscall.SIGKILL {
				tickC = s.killAll(tickC)
			} else if !s.leaderGone {
				syscall.Kill(-s.leader, sig)
			}
		case <-ctlEOF:
			// mcpscope is gone, and with it the server's stdin: the close sequence goes on
			// from there, a grace period to exit, SIGTERM, another, SIGKILL to everything.
			ctlEOF = nil
			if !s.leaderGone && !s.killing {
				graceC, termNext = time.After(s.grace), true
			}
		case sig := <-sigs:
			if !s.leaderGone {
				syscall.Kill(-s.leader, sig.(syscall.Signal))
			}
		case <-graceC:
			graceC = nil
			if termNext && !s.leaderGone {
				syscall.Kill(-s.leader, syscall.SIGTERM)
				graceC, termNext = time.After(s.grace), false
				continue
			}
			tickC = s.killAll(tickC)
		case <-tickC:
			s.signalAll(syscall.SIGKILL)
		}
	}
}

// killAll sends SIGKILL to the group and every descendant, and returns the ticker channel
// that repeats it until no child is left.
func (s *supervisor) killAll(tickC <-chan time.Time) <-chan time.Time {
	s.signalAll(syscall.SIGKILL)
	if s.killing {
		return tickC
	}
	s.killing = true
	return time.NewTicker(killTick).C
}

// signalAll sends sig to the server's process group while the server is not reaped (its
// pid cannot be reused until then) and to every descendant of the supervisor, which covers
// the rest of the group and whatever left it.
func (s *supervisor) signalAll(sig syscall.Signal) {
	if !s.leaderGone {
		syscall.Kill(-s.leader, sig)
	}
	for _, pid := range descendants(s.self) {
		syscall.Kill(pid, sig)
	}
}
