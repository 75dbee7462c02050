package main

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// conflictMarkers returns the 1-based numbers of the lines of text that a merge left
// unresolved: a line starting "<<<<<<< " or ">>>>>>> ", or a line that is "=======" alone.
func conflictMarkers(text []byte) []int {
	var lines []int
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 0, 64<<10), len(text)+1)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "<<<<<<< ") || strings.HasPrefix(line, ">>>>>>> ") || line == "=======" {
			lines = append(lines, n)
		}
	}
	return lines
}

func TestConflictMarkersFound(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []int
	}{
		{"a\nb\n", nil},
		{"a\n<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> main\n", []int{2, 4, 6}},
		{"=======\r\n", []int{1}},
		{"a ======= b\n========\n<<<<<<<x\n", nil}, // not markers: inside a line, eight signs, no space
		{"ok\n>>>>>>> 1a2b3c (theirs)", []int{2}},  // the last line without a newline
	} {
		got := conflictMarkers([]byte(tc.text))
		if len(got) != len(tc.want) {
			t.Errorf("conflictMarkers(%q) = %v, want %v", tc.text, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("conflictMarkers(%q) = %v, want %v", tc.text, got, tc.want)
				break
			}
		}
	}
}

// trackedFiles lists the repository's files: git's tracked files when git can say, else
// every file under the module root but .git.
func trackedFiles(t *testing.T) []string {
	t.Helper()
	if out, err := exec.Command("git", "ls-files", "-z").Output(); err == nil && len(out) > 0 {
		var files []string
		for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
			files = append(files, filepath.FromSlash(f))
		}
		return files
	}
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestNoConflictMarkers fails when a tracked text file still holds merge-conflict markers.
// Binary files (a NUL byte in the first 8 KiB) are left out.
func TestNoConflictMarkers(t *testing.T) {
	files := trackedFiles(t)
	if len(files) == 0 {
		t.Fatal("no files found")
	}
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			if os.IsNotExist(err) { // deleted in the work tree, not yet committed
				continue
			}
			t.Fatal(err)
		}
		if bytes.IndexByte(b[:min(len(b), 8<<10)], 0) >= 0 {
			continue
		}
		checked++
		if lines := conflictMarkers(b); len(lines) > 0 {
			t.Errorf("%s has merge-conflict markers on lines %v: resolve them", f, lines)
		}
	}
	if checked == 0 {
		t.Fatal("no text files checked")
	}
}
