package sessiontest

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// FuzzBriefly runs the fuzz target named target of the package in the current directory for
// execs inputs with the real fuzzing engine, so that every run of the test suite also fuzzes a little
// beyond the seed corpus. The package's test binary runs in a directory of the user cache
// (mcpscope-test/fuzz-HASH, HASH naming the package directory) holding a copy of the seed
// corpus, so a crasher is saved there, never into the source tree; the failure names the file
// to copy into testdata/fuzz to keep it as a seed. It is skipped only with -short; the full
// suite always runs it.
//
// The budget is a count, not a time: with -test.fuzztime as a duration the engine ends the run
// by a context deadline, and on a loaded machine a worker still busy at that moment turns the
// deadline itself into a failure ("context deadline exceeded") with no input to blame. A count
// ends when the inputs are done, however slow the machine; an input that hangs still fails
// (the engine reports a worker that stops answering).
func FuzzBriefly(t *testing.T, target string, execs int) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: brief fuzzing of " + target + " is part of the full suite")
	}
	pkg, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(pkg))
	work := CacheDir(t, "fuzz-"+hex.EncodeToString(sum[:6]))
	seeds := filepath.Join("testdata", "fuzz", target)
	copySeeds(t, seeds, filepath.Join(work, seeds))

	// The running test binary is the package's own: it fuzzes the target itself, in the cache
	// directory, instead of a rebuild by go test -c (which adds nothing: neither builds with the
	// fuzzing instrumentation that only go test -fuzz adds).
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run", "^$", "-test.fuzz", "^"+target+"$",
		"-test.fuzztime", strconv.Itoa(execs)+"x", "-test.fuzzcachedir", filepath.Join(work, "cache"))
	cmd.Dir = work
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("fuzzing %s: %v\n%s\nthe failing input is under %s: copy it into %s to keep it as a seed",
			target, err, out, filepath.Join(work, seeds), seeds)
	}
	t.Logf("%s", out)
}

// copySeeds copies the seed corpus files of src (absent is an empty corpus) into dst.
func copySeeds(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
