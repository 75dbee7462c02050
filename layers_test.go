package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The rooms of the house, bottom to top: a package may import its own room and the rooms
// below it, never one above. A sub-package belongs to its top-level room (protocol/query
// is protocol); the main package sits above them all.
var rooms = []string{"protocol", "session", "recordings", "ui", "main"}

// noTerminal are the packages that draw nothing: they depend on no Charm package (Bubble
// Tea, lipgloss, bubbles, the x/ansi helpers) and no chroma, directly or through another
// package. A room is named by its top-level path ("protocol" covers its sub-packages).
var noTerminal = []string{"protocol", "session", "recordings", "ui/traffic", "ui/serve"}

// terminalPackage tells whether an import path is a terminal library.
func terminalPackage(p string) bool {
	return strings.HasPrefix(p, "charm.land/") || strings.HasPrefix(p, "github.com/charmbracelet/") ||
		strings.HasPrefix(p, "github.com/alecthomas/chroma")
}

// goPackage is what `go list -json` says of one package that the rules read.
type goPackage struct {
	ImportPath string
	Imports    []string // the non-test files' direct imports
	Deps       []string // every package it depends on, transitively
}

// modulePackages lists the module's packages with `go list -json ./...` (once for all the
// tests that read them); paths are made relative to the module ("." is the main package,
// "ui/form" …).
func modulePackages(t *testing.T) []goPackage {
	t.Helper()
	pkgs, err := listPackages()
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages; the rules would prove nothing", len(pkgs))
	}
	return pkgs
}

var listPackages = sync.OnceValues(func() ([]goPackage, error) {
	out, err := exec.Command("go", "list", "-m").Output()
	if err != nil {
		return nil, fmt.Errorf("go list -m: %w", err)
	}
	module := strings.TrimSpace(string(out))
	cmd := exec.Command("go", "list", "-json", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if out, err = cmd.Output(); err != nil {
		return nil, fmt.Errorf("go list -json ./...: %w\n%s", err, stderr.String())
	}
	var pkgs []goPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p goPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("go list -json: %w", err)
		}
		p.ImportPath = relPackage(module, p.ImportPath)
		for i, im := range p.Imports {
			p.Imports[i] = relPackage(module, im)
		}
		pkgs = append(pkgs, p)
	}
})

// relPackage is an import path relative to the module, or the path unchanged if it is not
// the module's.
func relPackage(module, p string) string {
	if p == module {
		return "."
	}
	if rest, ok := strings.CutPrefix(p, module+"/"); ok {
		return rest
	}
	return p
}

// ours tells whether a relative path (as relPackage makes) is one of the module's packages.
func ours(pkgs []goPackage, p string) bool {
	return slices.ContainsFunc(pkgs, func(q goPackage) bool { return q.ImportPath == p })
}

// roomOf is the index in rooms of a module package's room, or -1 when it is in none.
func roomOf(p string) int {
	if p == "." {
		return slices.Index(rooms, "main")
	}
	top, _, _ := strings.Cut(p, "/")
	if top == "main" {
		return -1
	}
	return slices.Index(rooms, top)
}

// inRoom tells whether package p is room (a top-level path or a package path) or below it.
func inRoom(p, room string) bool {
	return p == room || strings.HasPrefix(p, room+"/")
}

// TestImportDirection: over every package of the module, no package imports one of a room
// above its own (protocol ← session ← recordings ← ui ← main), every package is in a room,
// and the packages that draw nothing depend on no terminal library. Test files may reach
// up (protocol's tests drive the demo through session/sessiontest); program files may not.
func TestImportDirection(t *testing.T) {
	pkgs := modulePackages(t)
	for _, p := range pkgs {
		r := roomOf(p.ImportPath)
		if r < 0 {
			t.Errorf("%s is in no room: a package lives under %s, or is the main package", p.ImportPath, strings.Join(rooms[:len(rooms)-1], ", "))
			continue
		}
		for _, im := range p.Imports {
			if !ours(pkgs, im) {
				continue
			}
			if ri := roomOf(im); ri > r {
				t.Errorf("%s (%s) imports %s (%s), a room above its own: data flows up, commands come down through interfaces",
					p.ImportPath, rooms[r], im, rooms[ri])
			}
		}
		for _, room := range noTerminal {
			if !inRoom(p.ImportPath, room) {
				continue
			}
			if i := slices.IndexFunc(p.Deps, terminalPackage); i >= 0 {
				t.Errorf("%s depends on %s: it draws nothing, the view is drawn by ui", p.ImportPath, p.Deps[i])
			}
		}
	}
}

// packageRow is a row of ARCHITECTURE.md's package table: "| `ui/form` | …".
var packageRow = regexp.MustCompile("^\\| `([^`]+)`")

// TestPackageTableComplete: ARCHITECTURE.md's package table has a row for every package of
// the module, and names no package that is gone.
func TestPackageTableComplete(t *testing.T) {
	pkgs := modulePackages(t)
	f, err := os.Open("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var table []string
	inTable := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			inTable = line == "## Packages"
		case inTable:
			if m := packageRow.FindStringSubmatch(line); m != nil {
				table = append(table, m[1])
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(table) < 20 {
		t.Fatalf("ARCHITECTURE.md's package table has %d rows; want one per package", len(table))
	}
	for _, p := range pkgs {
		if !slices.Contains(table, p.ImportPath) {
			t.Errorf("ARCHITECTURE.md's package table has no row for %s", p.ImportPath)
		}
	}
	for _, row := range table {
		if !ours(pkgs, row) {
			t.Errorf("ARCHITECTURE.md's package table names %s, which is not a package of the module", row)
		}
	}
}
