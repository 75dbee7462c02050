package transport

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// exitCases are shell commands that end in each way a server can.
var exitCases = []string{"exit 0", "exit 3", "kill -TERM $$", "kill -KILL $$", "kill -SEGV $$"}

// TestSupervisedExitMatchesDirect runs each exit case as a direct child and under the
// supervisor: the exit is described identically, so the supervisor changes nothing in what
// is reported.
func TestSupervisedExitMatchesDirect(t *testing.T) {
	for _, script := range exitCases {
		cmd := exec.Command("sh", "-c", script)
		err := cmd.Run()
		want := processExit(cmd.ProcessState, err)
		if got := waitStatusExit(cmd.ProcessState.Sys().(syscall.WaitStatus)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: from the wait status %+v, from the process state %+v", script, got, want)
		}
		p, err := StartProcess(t.Context(), ProcessSpec{Command: "sh", Args: []string{"-c", script}})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Wait(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: supervised %+v, direct %+v", script, got, want)
		}
		<-p.Done()
	}
}

// TestSupervisorStartErrors checks that what cannot be started fails StartProcess with the
// error a direct spawn gives.
func TestSupervisorStartErrors(t *testing.T) {
	dir := t.TempDir()
	notExec := dir + "/script"
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		spec ProcessSpec
		want string
	}{
		{ProcessSpec{Command: "mcpscope-no-such-program"}, `exec: "mcpscope-no-such-program": executable file not found in $PATH`},
		{ProcessSpec{Command: dir + "/missing"}, "fork/exec " + dir + "/missing: no such file or directory"},
		{ProcessSpec{Command: notExec}, "fork/exec " + notExec + ": permission denied"},
		{ProcessSpec{Command: "sh", Dir: dir + "/no-such-dir"}, "chdir " + dir + "/no-such-dir: no such file or directory"},
		{ProcessSpec{Command: "sh", Dir: notExec}, "chdir " + notExec + ": not a directory"},
	} {
		_, direct := startDirect(c.spec)
		_, err := startSupervised(t.Context(), c.spec)
		if err == nil || direct == nil || err.Error() != c.want || direct.Error() != c.want {
			t.Errorf("%+v: supervised error %v, direct %v, want %s", c.spec, err, direct, c.want)
		}
	}
}

// TestDirectSpawnEndsGroup checks the spawn used where there is no supervisor: when the
// server exits, what it left in its group is terminated.
func TestDirectSpawnEndsGroup(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p, err := startDirect(ProcessSpec{Command: "sh", Args: []string{"-c", "sleep 60 </dev/null >/dev/null 2>&1 & echo $!"},
		Stdout: w, Grace: time.Minute})
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	line := make([]byte, 32)
	n, _ := r.Read(line)
	child, err := strconv.Atoi(strings.TrimSpace(string(line[:n])))
	if err != nil {
		t.Fatalf("child pid %q", line[:n])
	}
	if ex := p.Wait(); ex.Info.Code != 0 {
		t.Errorf("exit %+v", ex)
	}
	<-p.Done()
	waitGone(t, child)
}

// TestSupervisedStartHonoursContext gives the supervisor an ended context: the start fails
// with the context's error once the supervisor and what it started are gone.
func TestSupervisedStartHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := startSupervised(ctx, ProcessSpec{Command: "sh", Args: []string{"-c", "sleep 60"}, Grace: time.Second})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("start with an ended context: %v", err)
	}
}
