package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Children: a server that leaves processes behind.
//
//	children     starts four grandchildren, each with args.marker in its argv: "plain"
//	             (inherits the server's stdout and stderr), "devnull" (stdio on /dev/null,
//	             same process group), "setsid" (a session and group of its own) and
//	             "daemon" (setsid, forks "daemonized" and exits, so that one is orphaned);
//	             answers with their pids, then with args.exit exits 0 itself, or with
//	             args.hold never answers
//
// With BADSERVER_CHILDREN=marker in the environment, the server starts the same
// grandchildren before reading anything and then never reads stdin, so a client is still in
// the handshake.
//
// A grandchild lives until it is killed, or for grandchildLife at most, so that a broken
// test cannot leave it running for long.
func init() {
	register("children", "starts grandchildren marked args.marker (setsid, /dev/null, plain, double fork); args.exit: exit after answering; args.hold: never answer", children)
	if len(os.Args) == 4 && os.Args[1] == "-grandchild" {
		grandchild(os.Args[2])
	}
	if marker := os.Getenv("BADSERVER_CHILDREN"); marker != "" {
		os.Unsetenv("BADSERVER_CHILDREN")
		if _, err := spawnGrandchildren(marker); err != nil {
			fmt.Fprintln(os.Stderr, "badserver:", err)
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, "badserver: children started, not reading stdin")
		hang()
	}
}

// grandchildLife bounds how long a grandchild lives if nobody kills it.
const grandchildLife = 2 * time.Minute

// grandchild is the body of a grandchild process: "daemon" starts the orphan and exits,
// every other kind waits to be killed.
func grandchild(kind string) {
	if kind == "daemon" {
		cmd := exec.Command(os.Args[0], "-grandchild", "daemonized", os.Args[3])
		if err := cmd.Start(); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	time.Sleep(grandchildLife)
	os.Exit(0)
}

// spawnGrandchildren starts one grandchild of each kind and returns their pids by kind
// (the daemonized one's is not known here).
func spawnGrandchildren(marker string) (map[string]int, error) {
	if marker == "" || strings.ContainsAny(marker, " \n") {
		return nil, fmt.Errorf("children: marker %q must be one word", marker)
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	pids := map[string]int{}
	for _, kind := range []string{"plain", "devnull", "setsid", "daemon"} {
		cmd := exec.Command(self, "-grandchild", kind, marker)
		switch kind {
		case "plain":
			cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		case "setsid", "daemon":
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		}
		if err := cmd.Start(); err != nil {
			return nil, fmt.Errorf("children: start %s: %w", kind, err)
		}
		pids[kind] = cmd.Process.Pid
		if kind == "daemon" {
			cmd.Wait() // it exits once the daemonized one runs
		} else {
			cmd.Process.Release() // never waited for: they outlive the server on purpose
		}
	}
	return pids, nil
}

// children is the tool that starts grandchildren.
func children(req request, raw json.RawMessage) {
	var a struct {
		Marker string `json:"marker"`
		Exit   bool   `json:"exit"`
		Hold   bool   `json:"hold"`
	}
	json.Unmarshal(raw, &a)
	pids, err := spawnGrandchildren(a.Marker)
	if err != nil {
		write(errorFrame(req.ID, -32602, err.Error()))
		return
	}
	if a.Hold {
		return
	}
	b, _ := json.Marshal(pids)
	write(resultFrame(req.ID, textResult(string(b))))
	if a.Exit {
		fmt.Fprintln(os.Stderr, "badserver: exiting, children left behind")
		os.Exit(0)
	}
}
