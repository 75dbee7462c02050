package ui_test

import (
	"bytes"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/sys/unix"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// openPTY opens a pseudo-terminal of w×h cells and returns its controlling side and the
// terminal the program gets.
func openPTY(tb testing.TB, w, h int) (ptm, pts *os.File) {
	tb.Helper()
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		tb.Fatalf("open /dev/ptmx: %v", err)
	}
	fd := int(ptm.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		tb.Fatalf("unlock pty: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		tb.Fatalf("pty number: %v", err)
	}
	pts, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		tb.Fatalf("open pts: %v", err)
	}
	if err := unix.IoctlSetWinsize(int(pts.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: uint16(h), Col: uint16(w)}); err != nil {
		tb.Fatalf("set pty size: %v", err)
	}
	return ptm, pts
}

// timeToReady runs bin with args on a w×h pseudo-terminal and returns the times from just
// before exec to the first frame (the first output with a visible letter once escape
// sequences are taken out) and to the first output that holds the status line's "ready";
// then it sends q and waits for the program to exit.
func timeToReady(tb testing.TB, bin string, w, h int, env []string, args ...string) (first, ready time.Duration) {
	tb.Helper()
	ptm, pts := openPTY(tb, w, h)
	defer ptm.Close()
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pts, pts, pts
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		tb.Fatalf("start %s: %v", bin, err)
	}
	pts.Close()
	// A program that never shows ready is killed, which ends the reads below.
	stuck := time.AfterFunc(30*time.Second, func() { _ = cmd.Process.Kill() })
	defer stuck.Stop()
	var seen []byte
	buf := make([]byte, 64<<10)
	for ready == 0 {
		n, err := ptm.Read(buf)
		seen = append(seen, buf[:n]...)
		if first == 0 && strings.IndexFunc(ansi.Strip(string(seen)), unicode.IsLetter) >= 0 {
			first = time.Since(start)
		}
		// The status line's first word, in its own colour: " ready" and the next escape.
		if bytes.Contains(seen, []byte(" ready\x1b[")) || bytes.Contains(seen, []byte(" ready ")) {
			ready = time.Since(start)
			break
		}
		if err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			tb.Fatalf("%s: no \"ready\" on the screen: %v; it wrote %q", bin, err, seen[max(0, len(seen)-2000):])
		}
	}
	go func() { // drain, so the program never blocks on a full terminal while quitting
		for {
			if _, err := ptm.Read(buf); err != nil {
				return
			}
		}
	}()
	_, _ = ptm.Write([]byte("q"))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		tb.Fatalf("%s did not quit on q", bin)
	}
	return first, ready
}

// BenchmarkTUIReady times the interactive view on the demo server (`mcpscope` with no
// arguments: the demo spawned over stdio) from exec to its first frame and to the first
// frame that shows "ready" in its status line, on a pseudo-terminal of 80×24 and of 160×48,
// beside the same times of its floor, testdata/teafloor (a minimal Bubble Tea v2 program
// whose first frame says ready), and process start (`mcpscope version`). Reported as medians:
// first-ratio (target ≤ 1.3) and ready-ratio (≤ 1.5) are over the floor's first frame; and
// the slowest ready (target ≤ 100 ms).
func BenchmarkTUIReady(b *testing.B) {
	bin, floor := sessiontest.BuildMCPScope(b), sessiontest.BuildTeaFloor(b)
	env := append(os.Environ(), "TERM=xterm-256color", "XDG_STATE_HOME="+b.TempDir(), "XDG_CACHE_HOME="+b.TempDir())
	for _, size := range []struct {
		name string
		w, h int
	}{{"80x24", 80, 24}, {"160x48", 160, 48}} {
		b.Run(size.name, func(b *testing.B) {
			var firsts, readies, floors, starts []time.Duration
			for b.Loop() {
				start := time.Now()
				if err := exec.Command(bin, "version").Run(); err != nil {
					b.Fatal(err)
				}
				starts = append(starts, time.Since(start))
				_, fl := timeToReady(b, floor, size.w, size.h, env)
				floors = append(floors, fl)
				first, ready := timeToReady(b, bin, size.w, size.h, env)
				firsts, readies = append(firsts, first), append(readies, ready)
			}
			fl := medianOf(floors)
			b.ReportMetric(msOf(medianOf(firsts)), "ms-first-frame")
			b.ReportMetric(msOf(medianOf(readies)), "ms-ready")
			b.ReportMetric(msOf(slices.Max(readies)), "ms-ready-max")
			b.ReportMetric(msOf(fl), "ms-floor")
			b.ReportMetric(float64(medianOf(firsts))/float64(fl), "first-ratio")
			b.ReportMetric(float64(medianOf(readies))/float64(fl), "ready-ratio")
			b.ReportMetric(msOf(medianOf(starts)), "ms-process-start")
		})
	}
}

func medianOf(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func msOf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
