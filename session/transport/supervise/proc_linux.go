package supervise

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// Arguments of waitid(2), from <linux/wait.h>.
const (
	pAll    = 0
	wNoHang = 0x1
	wExited = 0x4
	wNoWait = 0x1000000
)

// hasChildren reports whether the supervisor has any child left, without reaping it: when
// it has none, nothing is left below it and there is nothing to look for in /proc.
func hasChildren() bool {
	var info [128]byte // siginfo_t
	_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pAll, 0, uintptr(unsafe.Pointer(&info[0])), wExited|wNoHang|wNoWait, 0, 0)
	return errno != syscall.ECHILD
}

// descendants lists every process below root in the process tree, read from /proc. A
// process that exits during the scan is simply missing; one forked after it is found by the
// next scan.
func descendants(root int) []int {
	dir, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := dir.Readdirnames(-1)
	dir.Close()
	children := map[int][]int{}
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid == root {
			continue
		}
		if ppid, ok := parentOf(pid); ok {
			children[ppid] = append(children[ppid], pid)
		}
	}
	var out []int
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// parentOf reads the parent pid of pid from /proc/pid/stat: the fourth field, counted after
// the command name in parentheses, which may itself hold spaces and parentheses.
func parentOf(pid int) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	fields := bytes.Fields(b[i+1:])
	if len(fields) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(string(fields[1]))
	return ppid, err == nil
}
