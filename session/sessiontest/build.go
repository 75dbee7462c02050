package sessiontest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// build is one program built at most once per test binary.
type build struct {
	once sync.Once
	path string
	err  string
}

var (
	buildDirMu sync.Mutex
	buildDir   string // temporary directory holding every built program; removed by Cleanup

	mcpscopeBuild      build
	badserverBuild     build
	changedserverBuild build
	taskserverBuild    build
)

// BuildMCPScope builds the mcpscope command (the module's main package) once per test
// binary and returns the path of the executable.
func BuildMCPScope(t testing.TB) string {
	t.Helper()
	return mcpscopeBuild.get(t, "mcpscope", ".")
}

// BuildBadServer builds testdata/badserver, the server that misbehaves on purpose, once per
// test binary and returns the path of the executable.
func BuildBadServer(t testing.TB) string {
	t.Helper()
	return badserverBuild.get(t, "badserver", "./testdata/badserver")
}

// BuildChangedServer builds testdata/changedserver, the demo server with its echo tool
// changed, once per test binary and returns the path of the executable.
func BuildChangedServer(t testing.TB) string {
	t.Helper()
	return changedserverBuild.get(t, "changedserver", "./testdata/changedserver")
}

// BuildTaskServer builds testdata/taskserver, the server whose tools run as tasks in both
// eras, once per test binary and returns the path of the executable.
func BuildTaskServer(t testing.TB) string {
	t.Helper()
	return taskserverBuild.get(t, "taskserver", "./testdata/taskserver")
}

func (b *build) get(t testing.TB, name, pkg string) string {
	t.Helper()
	root := ModuleRoot(t)
	b.once.Do(func() {
		dir, err := tempBuildDir()
		if err != nil {
			b.err = err.Error()
			return
		}
		goTool, err := goCommand()
		if err != nil {
			b.err = err.Error()
			return
		}
		out := filepath.Join(dir, name)
		if runtime.GOOS == "windows" {
			out += ".exe"
		}
		cmd := exec.Command(goTool, "build", "-o", out, pkg)
		cmd.Dir = root
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.err = "go build " + pkg + ": " + err.Error() + "\n" + string(msg)
			return
		}
		b.path = out
	})
	if b.err != "" {
		t.Fatalf("sessiontest: build %s: %s", name, b.err)
	}
	return b.path
}

// goCommand finds the go tool: the one on $PATH, else the one of the toolchain running the
// tests.
func goCommand() (string, error) {
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	//lint:ignore SA1019 the toolchain that built the test binary is the one to use when go is not on $PATH
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err != nil {
		return "", err
	}
	return p, nil
}

func tempBuildDir() (string, error) {
	buildDirMu.Lock()
	defer buildDirMu.Unlock()
	if buildDir == "" {
		dir, err := os.MkdirTemp("", "mcpscope-test-bin-")
		if err != nil {
			return "", err
		}
		buildDir = dir
	}
	return buildDir, nil
}

// Cleanup removes the programs built by BuildMCPScope and BuildBadServer. Call it from
// TestMain after m.Run; the builds are kept for the whole test binary until then.
func Cleanup() {
	buildDirMu.Lock()
	defer buildDirMu.Unlock()
	if buildDir != "" {
		os.RemoveAll(buildDir)
		buildDir = ""
	}
}

var pinserverBuild build

// BuildPinServer builds testdata/pinserver, the demo server whose tool definitions change
// as MCPSCOPE_PINSERVER_CHANGE says, once per test binary and returns the path of the
// executable.
func BuildPinServer(t testing.TB) string {
	t.Helper()
	return pinserverBuild.get(t, "pinserver", "./testdata/pinserver")
}

var escapeserverBuild build

// BuildEscapeServer builds testdata/escapeserver, the server whose every piece of metadata
// holds escape sequences and characters that hide or reorder text, once per test binary and
// returns the path of the executable.
func BuildEscapeServer(t testing.TB) string {
	t.Helper()
	return escapeserverBuild.get(t, "escapeserver", "./testdata/escapeserver")
}

var appserverBuild build

// BuildAppServer builds testdata/appserver, the MCP Apps server with one broken case per
// check finding (-clean: the twin with none; -big: a 4 MiB page), once per test binary and
// returns the path of the executable.
func BuildAppServer(t testing.TB) string {
	t.Helper()
	return appserverBuild.get(t, "appserver", "./testdata/appserver")
}

var hiddenserverBuild build

// BuildHiddenServer builds testdata/hiddenserver, the server whose definitions hide one kind
// of content each (its argument names the kind; "clean" is the twin with none), once per
// test binary and returns the path of the executable.
func BuildHiddenServer(t testing.TB) string {
	t.Helper()
	return hiddenserverBuild.get(t, "hiddenserver", "./testdata/hiddenserver")
}

var cardserverBuild build

// BuildCardServer builds testdata/cardserver, the small MCP server whose server card
// disagrees with it on purpose, once per test binary and returns the path of the
// executable.
func BuildCardServer(t testing.TB) string {
	t.Helper()
	return cardserverBuild.get(t, "cardserver", "./testdata/cardserver")
}

var eventserverBuild build

// BuildEventServer builds testdata/eventserver, a small server of the Events extension
// written apart from the demo (-bad breaks the extension's rules), once per test binary and
// returns the path of the executable.
func BuildEventServer(t testing.TB) string {
	t.Helper()
	return eventserverBuild.get(t, "eventserver", "./testdata/eventserver")
}
