package sessiontest

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// FuzzBriefly runs the fuzz target named target of the package in the current directory for
// d with the real fuzzing engine (go test -fuzz), so that every run of the test suite also
// fuzzes a little beyond the seed corpus. A crasher fails the test with the engine's output,
// and the engine saves it under testdata/fuzz for the seed corpus. It is skipped only with
// -short; the full suite always runs it.
func FuzzBriefly(t *testing.T, target string, d time.Duration) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: brief fuzzing of " + target + " is part of the full suite")
	}
	goTool, err := goCommand()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goTool, "test", "-run", "^$", "-fuzz", "^"+target+"$", "-fuzztime", d.String(), ".")
	cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("fuzzing %s: %v\n%s", target, err, out)
	}
	t.Logf("%s", out)
}
