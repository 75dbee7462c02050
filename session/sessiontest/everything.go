package sessiontest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// EverythingVersion is the pinned version of @modelcontextprotocol/server-everything, the
// reference server of the MCP project (testdata/everything/package.json).
const EverythingVersion = "2026.8.31"

// everythingDir holds the pins of the reference server (package.json, package-lock.json), relative to the module root.
const everythingDir = "testdata/everything"

// Everything makes sure @modelcontextprotocol/server-everything, as pinned in
// testdata/everything, is installed in the user cache directory (mcpscope-test/everything-HASH,
// HASH naming the pins) and returns the path of its dist/index.js (run it with node).
// Without node or npm the test fails: these tests are the coverage of real servers and must
// not be skipped.
func Everything(t testing.TB) string {
	t.Helper()
	return pinnedServer(t, everythingDir, "everything", "server-everything")
}

// pinnedServer installs the @modelcontextprotocol package pinned in pins (a directory of
// the module) into the user cache directory (mcpscope-test/NAME-HASH) when it is not there
// yet, and returns the path of its dist/index.js.
func pinnedServer(t testing.TB, pins, name, pkg string) string {
	t.Helper()
	dir := pinnedInstallDir(t, pins, name)
	index := filepath.Join(dir, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	npmCI(t, dir, index)
	return index
}

// NodePath returns the path of node, failing the test when it is not installed.
func NodePath(t testing.TB) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("sessiontest: node is not on $PATH (%v): install Node.js to run the end-to-end tests against the reference server", err)
	}
	return node
}

// npmCI makes sure the packages pinned by dir's package-lock.json are installed in
// dir/node_modules, of which probe is one file: when probe is missing or npm's record of the
// install is older than the lock file, it runs npm ci there under an exclusive file lock,
// since the tests of several packages run in parallel. Without node or npm the test fails.
func npmCI(t testing.TB, dir, probe string) {
	t.Helper()
	NodePath(t)
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatalf("sessiontest: npm is not on $PATH (%v): install Node.js with npm to run the end-to-end tests against the reference server", err)
	}
	if !installStale(dir, probe) {
		return
	}
	unlock, err := lockFile(filepath.Join(dir, ".install.lock"))
	if err != nil {
		t.Fatalf("sessiontest: lock %s: %v", dir, err)
	}
	defer unlock()
	if installStale(dir, probe) { // another test binary may have installed it meanwhile
		cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("sessiontest: npm ci in %s: %v\n%s", dir, err, out)
		}
	}
	if _, err := os.Stat(probe); err != nil {
		t.Fatalf("sessiontest: npm ci in %s did not install %s: %v", dir, probe, err)
	}
}

// installStale reports whether node_modules needs (re)installing: the probe is missing, or
// npm's record of the install (node_modules/.package-lock.json) is older than the lock file.
func installStale(dir, probe string) bool {
	if _, err := os.Stat(probe); err != nil {
		return true
	}
	lock, err := os.Stat(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return true
	}
	installed, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json"))
	if err != nil {
		return true
	}
	return installed.ModTime().Before(lock.ModTime())
}

// StartEverythingHTTP runs the reference server over HTTP and returns its base URL
// (http://127.0.0.1:PORT). mode is "streamableHttp" (endpoint /mcp) or "sse" (event stream
// at /sse, messages POSTed to /message). The server runs in its own process group, which is
// killed when the test ends.
func StartEverythingHTTP(t testing.TB, mode string) string {
	t.Helper()
	if mode != "streamableHttp" && mode != "sse" {
		t.Fatalf("sessiontest: StartEverythingHTTP: mode %q: want streamableHttp or sse", mode)
	}
	node := NodePath(t)
	index := Everything(t)
	var lastErr string
	for attempt := 0; attempt < 3; attempt++ {
		port, err := freePort()
		if err != nil {
			t.Fatalf("sessiontest: pick a free port: %v", err)
		}
		base, failure := startNodeServer(t, node, index, mode, port)
		if failure == "" {
			return base
		}
		lastErr = failure // most likely the port was taken in between: try another
	}
	t.Fatalf("sessiontest: start the reference server (%s): %s", mode, lastErr)
	return ""
}

// startNodeServer starts one server on port and waits until it accepts connections. It
// returns the base URL, or why the server did not come up.
func startNodeServer(t testing.TB, node, index, mode string, port int) (string, string) {
	t.Helper()
	var output lockedBuffer
	cmd := exec.Command(node, index, mode)
	cmd.Dir = filepath.Dir(index)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	cmd.Stdout = &output
	cmd.Stderr = &output
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		return "", "start node: " + err.Error()
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	stop := func() {
		killProcessGroup(cmd)
		<-exited
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	deadline := time.Now().Add(30 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", addr, 500*time.Millisecond)
		if err == nil {
			conn.Close()
			break
		}
		select {
		case <-exited:
			return "", fmt.Sprintf("the server exited before listening on %s:\n%s", addr, output.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			stop()
			return "", fmt.Sprintf("nothing listened on %s within 30s:\n%s", addr, output.String())
		}
	}
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			t.Logf("reference server (%s) output:\n%s", mode, output.String())
		}
	})
	return "http://" + addr, ""
}

// freePort asks the kernel for a port that is free right now.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// lockedBuffer is a bytes.Buffer safe for the concurrent writes of a child's stdout and
// stderr.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
