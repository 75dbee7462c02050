package sessiontest

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// markerSeq makes each Marker of a test binary unique.
var markerSeq atomic.Int64

// Marker returns a word no other process has in its argv: the badserver's children tool
// puts it in the argv of every grandchild it starts. Any process still carrying it when the
// test ends is killed and reported as a failure, so a failing test leaves nothing behind.
func Marker(t testing.TB) string {
	t.Helper()
	m := fmt.Sprintf("mcpscope-orphan-test-%d-%d", os.Getpid(), markerSeq.Add(1))
	t.Cleanup(func() {
		if left := Marked(m); len(left) > 0 {
			for _, pid := range left {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Errorf("processes marked %s still running at the end of the test: %v", m, left)
		}
	})
	return m
}

// Marked lists the processes that have marker as one of their argv words, read from
// /proc. Zombies (whose argv is gone) are not listed.
func Marked(marker string) []int {
	names, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range names {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		argv, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		if slices.ContainsFunc(bytes.Split(argv, []byte{0}), func(w []byte) bool { return string(w) == marker }) {
			out = append(out, pid)
		}
	}
	return out
}

// WaitMarked waits until exactly n processes carry marker, polling /proc, and fails the test
// after limit.
func WaitMarked(t testing.TB, marker string, n int, limit time.Duration) {
	t.Helper()
	waitProcs(t, marker, limit, func(pids []int) bool { return len(pids) == n }, fmt.Sprintf("%d", n))
}

// WaitNoMarked waits until no process carries marker, and fails the test after limit,
// naming the processes that are left.
func WaitNoMarked(t testing.TB, marker string, limit time.Duration) {
	t.Helper()
	waitProcs(t, marker, limit, func(pids []int) bool { return len(pids) == 0 }, "no")
}

// waitProcs polls Marked until ok holds or limit passes.
func waitProcs(t testing.TB, marker string, limit time.Duration, ok func([]int) bool, want string) {
	t.Helper()
	deadline := time.Now().Add(limit)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		pids := Marked(marker)
		if ok(pids) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s, processes marked %s: %v (%s), want %s", limit, marker, pids, describe(pids), want)
		}
		<-tick.C
	}
}

// describe names each process by its argv, for a failure message.
func describe(pids []int) string {
	var b bytes.Buffer
	for _, pid := range pids {
		argv, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		fmt.Fprintf(&b, "[%d: %s] ", pid, bytes.ReplaceAll(bytes.TrimRight(argv, "\x00"), []byte{0}, []byte{' '}))
	}
	return b.String()
}
