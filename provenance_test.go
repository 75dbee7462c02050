package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Every line of mcpscope is written by its authors; a library is a module in go.mod, never
// a copy in the tree. A copy shows itself by its licence file or by a line that names
// another author or project as the source: these find both.
var (
	licenceName = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice|unlicense|copyright|authors|patents)([-._].*)?$`)
	copiedText  = regexp.MustCompile(`(?i)copyright|licen[cs]ed\s+under|spdx-license-identifier|` +
		`(apache|mit|bsd|isc)\s+licen[cs]e|mozilla\s+public|gnu\s+(lesser\s+)?general\s+public|` +
		`permission\s+is\s+hereby\s+granted|all\s+rights\s+reserved|` +
		`\b(copied|forked|ported|vendored|adapted|derived|taken|lifted)\s+from\s+(https?://|github\.com/|gitlab\.com/|[a-z0-9_.-]+/[a-z0-9_.-]+)|` +
		`\ba\s+copy\s+of\s+(https?://|github\.com/|[a-z0-9_.-]+/[a-z0-9_.-]+)`)
)

// licenceFile tells whether a file's name is a licence's (LICENSE, COPYING.txt,
// LICENCE-MIT …); source files (license.go) are not.
func licenceFile(name string) bool {
	return licenceName.MatchString(name) && filepath.Ext(name) != ".go"
}

// provenanceFile is this file: it holds the phrases as examples, so it is not searched.
const provenanceFile = "provenance_test.go"

// copiedLines returns the 1-based numbers of the lines of text that say they come from
// elsewhere. The expression runs only on lines holding one of its words, which keeps the
// search of the whole tree quick.
func copiedLines(text []byte) []int {
	var lines []int
	for n, line := range bytes.Split(text, []byte("\n")) {
		lower := bytes.ToLower(line)
		if !slices.ContainsFunc(copiedWords, func(w string) bool { return bytes.Contains(lower, []byte(w)) }) {
			continue
		}
		if copiedText.Match(line) {
			lines = append(lines, n+1)
		}
	}
	return lines
}

// copiedWords are words each match of copiedText holds.
var copiedWords = []string{"copyright", "licen", "public", "granted", "reserved", "from", "copy"}

func TestCopiedLinesFound(t *testing.T) {
	for text, want := range map[string]bool{
		"// Copyright 2009 The Go Authors. All rights reserved.":                          true,
		"// Package jsonschema is santhosh-tekuri/jsonschema v6.0.2 (Apache License 2.0)": true,
		"// SPDX-License-Identifier: MIT":                                                 true,
		"// copied from github.com/someone/lib/blob/main/x.go":                            true,
		"// Forked from charmbracelet/bubbles v0.18":                                      true,
		"// This is a copy of golang.org/x/exp/slices":                                    true,
		"   Licensed under the Apache License, Version 2.0":                               true,
		"Permission is hereby granted, free of charge, to any person":                     true,
		"// TestNoStylesCache checks that nothing derived from Styles is cached":          false,
		"// Put keeps a copy of rec.":                                                     false,
		"// Server says which server a Set was taken from; Compare does not look at it.":  false,
		`	"github.com/santhosh-tekuri/jsonschema/v6"`:                                     false,
	} {
		if got := len(copiedLines([]byte(text))) > 0; got != want {
			t.Errorf("copiedLines(%q) found %v, want %v", text, got, want)
		}
	}
	for name, want := range map[string]bool{
		"LICENSE": true, "LICENSE.txt": true, "license.md": true, "LICENCE-MIT": true, "COPYING": true,
		"NOTICE": true, "AUTHORS": true, "licenses.go": false, "license_test.go": false, "notices.go": false, "notice.go": false,
	} {
		if got := licenceFile(name); got != want {
			t.Errorf("licenceFile matches %q: %v, want %v", name, got, want)
		}
	}
}

// TestNoCopiedCode fails when a directory below the top holds a licence file (a copied
// project brings its own) or a tracked text file says it is a copy of, or derived from,
// another project or names another copyright holder. The module's own licence, if it has
// one, sits at the top.
func TestNoCopiedCode(t *testing.T) {
	files := trackedFiles(t)
	if len(files) < 100 {
		t.Fatalf("only %d files found in the repository; the search would prove nothing", len(files))
	}
	for _, f := range files {
		if filepath.Dir(f) != "." && licenceFile(filepath.Base(f)) {
			t.Errorf("%s: a licence file below the top of the repository: a copied project? "+
				"Use the library as a module in go.mod instead", f)
		}
		if f == provenanceFile {
			continue
		}
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Dir(f) == "." && licenceFile(f) {
			// The module's own licence: its words are a licence's, its holder is us.
			if !bytes.Contains(text, []byte("mcpscope authors")) {
				t.Errorf("%s: the module's licence names another holder than the mcpscope authors", f)
			}
			continue
		}
		if bytes.IndexByte(text[:min(len(text), 8000)], 0) >= 0 {
			continue // binary
		}
		if lines := copiedLines(text); len(lines) > 0 {
			lines = lines[:min(len(lines), 5)]
			t.Errorf("%s: lines %v say they come from another project or author:\n  %s\nwrite it ourselves, "+
				"or use the library as a module", f, lines, strings.TrimSpace(lineOf(text, lines[0])))
		}
	}
}

// lineOf is the n-th (1-based) line of text.
func lineOf(text []byte, n int) string {
	return string(bytes.Split(text, []byte("\n"))[n-1])
}
