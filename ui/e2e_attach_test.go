package ui_test

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui"
)

// TestTmuxAttach starts a tap between a scripted host and the demo server, attaches the
// interactive view to it in a terminal, and watches the host's traffic appear as it
// happens: the handshake, the tools/list pages, the explorer's tools, then the tap's end.
func TestTmuxAttach(t *testing.T) {
	// A socket's path must be short, which a test's TempDir may not be.
	dir, err := os.MkdirTemp("", "mcpscope-attach-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	t.Setenv("XDG_RUNTIME_DIR", dir) // the terminal's mcpscope finds the tap there
	host := ui.StartTapHost(t, "e2e", dir)

	tm := startTerm(t, 100, 30, "attach", "e2e")
	tm.waitFor("the view attached to the tap", func(s string) bool {
		return strings.Contains(statusLine(s), "attached to e2e (live)")
	})
	host.Handshake()
	tm.waitFor("the host's initialize, live", func(s string) bool {
		return bodyHas(s, "initialize", "req") && bodyHas(s, "initialize", "res")
	})
	tools := host.ListTools()
	tm.waitFor("the host's tools/list rows, live", func(s string) bool {
		return bodyHas(s, "tools/list", "req") && bodyHas(s, "tools/list", "res") &&
			strings.Contains(statusLine(s), "mcpscope-demo")
	})
	if tools == 0 {
		t.Fatalf("the demo listed no tools")
	}
	tm.keys("2")
	tm.waitFor("the explorer with the tools the host listed", func(s string) bool {
		return bodyContains(s, "echo") && bodyContains(s, "Add two numbers") && strings.Contains(s, fmt.Sprintf("tools %d", tools))
	})
	tm.keys("1")
	host.End()
	tm.waitFor("the end of the tap", func(s string) bool {
		return strings.Contains(statusLine(s), "tap ended")
	})
	tm.quit()
}

// TestTmuxAttachReducedEnv starts the tap as hosts start servers, with a reduced
// environment (HOME, PATH and USER only: no XDG_RUNTIME_DIR), and attaches from a terminal
// whose environment has XDG_RUNTIME_DIR: the view finds the tap in the per-user location
// the tap chose, and a tap that is not there is reported with the places searched.
func TestTmuxAttachReducedEnv(t *testing.T) {
	runtimeDir, err := os.MkdirTemp("", "mcpscope-attach-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(runtimeDir) })
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir)
	t.Setenv(recordings.TapDirEnv, "")
	home := t.TempDir()
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("reduced%d", os.Getpid())
	host := ui.StartTapHostEnv(t, name, []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "USER=" + u.Username})
	recDir := filepath.Join(home, ".local", "state", "mcpscope", "recordings")
	if want := filepath.Join(recDir, name+"-"); !strings.Contains(host.Stderr(), want) {
		t.Errorf("the tap does not say it records under %s:\n%s", want, host.Stderr())
	}

	taps, err := recordings.ListTaps()
	if err != nil {
		t.Fatal(err)
	}
	var sock, rec string
	for _, tp := range taps {
		if tp.Name == name {
			sock, rec = tp.Socket, tp.Recording
		}
	}
	if filepath.Dir(rec) != recDir {
		t.Errorf("the tap's recording %q: want one in %s, where the tap records", rec, recDir)
	}
	if sock == "" || strings.HasPrefix(sock, runtimeDir) {
		t.Fatalf("the tap's socket %q: want one found outside this environment's XDG_RUNTIME_DIR %s (taps: %v)", sock, runtimeDir, taps)
	}

	bin := sessiontest.BuildMCPScope(t)
	out, err := exec.Command(bin, "attach", "--list").Output()
	if err != nil || !strings.Contains(string(out), name) || !strings.Contains(string(out), rec) {
		t.Errorf("attach --list does not name the tap and its recording %s: %v\n%s", rec, err, out)
	}
	missing := exec.Command(bin, "attach", "--ndjson", name+"-none")
	var stderr strings.Builder
	missing.Stderr = &stderr
	err = missing.Run()
	if code := missing.ProcessState.ExitCode(); code != 3 || !strings.Contains(stderr.String(), filepath.Join(runtimeDir, "mcpscope")) ||
		!strings.Contains(stderr.String(), filepath.Dir(sock)) {
		t.Errorf("attach to a tap that is not running: exit %d (%v), want 3 and the places searched:\n%s", code, err, stderr.String())
	}

	tm := startTerm(t, 100, 30, "attach", name)
	tm.waitFor("the view attached to the tap", func(s string) bool {
		return strings.Contains(statusLine(s), "attached to "+name+" (live)")
	})
	host.Handshake()
	tm.waitFor("the host's initialize, live", func(s string) bool {
		return bodyHas(s, "initialize", "req") && bodyHas(s, "initialize", "res")
	})
	tm.keys("3")
	tm.waitFor("the server page naming the tap's recording", func(s string) bool {
		squeezed := strings.NewReplacer(" ", "", "\n", "").Replace(strings.Join(body(s), "\n"))
		return bodyContains(s, "recording") && strings.Contains(squeezed, rec)
	})
	tm.keys("1")
	host.End()
	tm.waitFor("the end of the tap", func(s string) bool {
		return strings.Contains(statusLine(s), "tap ended")
	})
	tm.quit()
}
