package transport

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// jobHelper, in the environment, makes this test binary a helper process instead of
// running tests: "parent" starts a "sleeper" copy of itself, prints the sleeper's pid and
// then sleeps, or exits at once with jobHelper+"_EXIT" set; "sleeper" sleeps.
const jobHelper = "MCPSCOPE_JOB_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(jobHelper) {
	case "parent":
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), jobHelper+"=sleeper")
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		fmt.Println(child.Process.Pid)
		if os.Getenv(jobHelper+"_EXIT") == "" {
			time.Sleep(time.Hour)
		}
		os.Exit(0)
	case "sleeper":
		time.Sleep(time.Hour)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// startTree starts the helper parent as a server and returns it and its child's pid.
func startTree(t *testing.T, exitAtOnce bool) (*Process, int) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	env := []string{jobHelper + "=parent"}
	if exitAtOnce {
		env = append(env, jobHelper+"_EXIT=1")
	}
	p, err := StartProcess(t.Context(), ProcessSpec{Command: os.Args[0], Env: env, Stdout: w, Grace: 200 * time.Millisecond})
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(r).ReadString('\n')
	child, cerr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || cerr != nil {
		t.Fatalf("the helper's child pid: %q, %v", line, err)
	}
	return p, child
}

// waitEnded waits for the process pid to end; a process that cannot be opened has ended.
func waitEnded(t *testing.T, pid int) {
	t.Helper()
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return
	}
	defer windows.CloseHandle(h)
	if ev, err := windows.WaitForSingleObject(h, 30_000); ev != windows.WAIT_OBJECT_0 {
		t.Fatalf("process %d still runs (wait: %#x, %v)", pid, ev, err)
	}
}

// TestJobEndsTreeOnSignal: a signal ends the server and what it started.
func TestJobEndsTreeOnSignal(t *testing.T) {
	p, child := startTree(t, false)
	p.Signal(syscall.SIGTERM)
	<-p.Done()
	waitEnded(t, p.Pid())
	waitEnded(t, child)
}

// TestJobEndsLeftovers: the server exits by itself, and what it left running is ended
// once the grace period is over.
func TestJobEndsLeftovers(t *testing.T) {
	p, child := startTree(t, true)
	if ex := p.Wait(); ex.Info.Code != 0 {
		t.Errorf("the server's exit: %+v", ex)
	}
	<-p.Done()
	waitEnded(t, child)
}
