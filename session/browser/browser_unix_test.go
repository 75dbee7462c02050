//go:build !windows

// The openers these tests stand in are shell scripts.

package browser_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/browser"
)

// recorder writes a program at dir/name that records its arguments (NUL-separated) in
// dir/argv, and returns the path of that file.
func recorder(t *testing.T, dir, name string) string {
	t.Helper()
	out := filepath.Join(dir, "argv")
	script := "#!/bin/sh\nprintf '%s\\0' \"$@\" > '" + out + "'\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return out
}

// argv is what the recorder got, or nil when it did not run.
func argv(t *testing.T, out string) []string {
	t.Helper()
	b, err := os.ReadFile(out)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(out)
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}

// TestOpenRefusedReachesNoProgram: through $BROWSER (with %s or without) and through
// xdg-open, a refused address starts no program, and an accepted one is exactly one
// argument, the last, or where %s stood.
func TestOpenRefusedReachesNoProgram(t *testing.T) {
	dir := t.TempDir()
	out := recorder(t, dir, "browse")
	recorder(t, dir, "xdg-open")
	for _, c := range []struct {
		env  string
		want func(u string) []string
	}{
		{filepath.Join(dir, "browse"), func(u string) []string { return []string{u} }},
		{filepath.Join(dir, "browse") + " --new-tab %s --x", func(u string) []string { return []string{"--new-tab", u, "--x"} }},
		{"/nonexistent/browser:" + filepath.Join(dir, "browse") + " -a", func(u string) []string { return []string{"-a", u} }},
		{"", func(u string) []string { return []string{u} }}, // xdg-open (open on macOS: not ours)
	} {
		t.Setenv("BROWSER", c.env)
		if c.env == "" {
			if runtime.GOOS != "linux" {
				continue
			}
			t.Setenv("PATH", dir)
		}
		for _, u := range refused {
			if err := browser.Open(u); !errors.Is(err, browser.ErrRefused) {
				t.Errorf("BROWSER=%q: Open(%q) = %v, want ErrRefused", c.env, u, err)
			}
			if got := argv(t, out); got != nil {
				t.Errorf("BROWSER=%q: Open(%q) ran the opener with %q", c.env, u, got)
			}
		}
		for _, u := range accepted {
			if err := browser.Open(u); err != nil {
				t.Errorf("BROWSER=%q: Open(%q) = %v", c.env, u, err)
			}
			if got := argv(t, out); !slices.Equal(got, c.want(u)) {
				t.Errorf("BROWSER=%q: Open(%q) ran the opener with %q, want %q", c.env, u, got, c.want(u))
			}
		}
	}
}
