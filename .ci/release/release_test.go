package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"debug/buildinfo"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
	"time"
)

// self is this test binary: a real Go executable with build information.
func self(t *testing.T) []byte {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestInspectSelf(t *testing.T) {
	x, err := inspect(self(t))
	if err != nil {
		t.Fatal(err)
	}
	if x.goos != runtime.GOOS || x.goarch != runtime.GOARCH {
		t.Errorf("inspect: %s/%s, want %s/%s", x.goos, x.goarch, runtime.GOOS, runtime.GOARCH)
	}
	if _, err := inspect([]byte("#!/bin/sh\necho not a binary\n")); err == nil {
		t.Errorf("inspect accepted a shell script")
	}
}

// TestInspectStripped builds a small program with and without -s -w: inspect sees the
// symbol table and the DWARF information of the one, and neither in the other.
func TestInspectStripped(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module hello\n\ngo 1.26\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() { println(\"hello\") }\n"), 0o644)
	for _, c := range []struct {
		ldflags string
		want    bool
	}{{"", true}, {"-s -w", false}} {
		out := filepath.Join(dir, "hello")
		cmd := exec.Command("go", "build", "-ldflags="+c.ldflags, "-o", out, ".")
		cmd.Dir = dir
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, b)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		x, err := inspect(data)
		if err != nil {
			t.Fatal(err)
		}
		if x.symbols != c.want || x.dwarf != c.want {
			t.Errorf("-ldflags %q: symbols %v, DWARF %v; want %v", c.ldflags, x.symbols, x.dwarf, c.want)
		}
	}
}

// writeArchives writes a .tar.gz and a .zip in dir, each with README.md, LICENSE and bin
// under a top directory, as GoReleaser lays them out.
func writeArchives(t *testing.T, dir string, bin []byte) (tgz, zipPath string) {
	t.Helper()
	files := []struct {
		name string
		mode int64
		data []byte
	}{{"README.md", 0o644, []byte("# mcpscope\n")}, {"LICENSE", 0o644, []byte("MIT\n")}, {"mcpscope", 0o755, bin}}

	tgz = filepath.Join(dir, "mcpscope_1.2.3_linux_amd64.tar.gz")
	f, err := os.Create(tgz)
	if err != nil {
		t.Fatal(err)
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	for _, e := range files {
		if err := tw.WriteHeader(&tar.Header{Name: "mcpscope_1.2.3/" + e.name, Mode: e.mode, Size: int64(len(e.data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(e.data)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	gz.Close()
	f.Close()

	zipPath = filepath.Join(dir, "mcpscope_1.2.3_windows_amd64.zip")
	f, err = os.Create(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, e := range files {
		name := e.name
		if name == "mcpscope" {
			name += ".exe"
		}
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(e.data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return tgz, zipPath
}

// TestArchiveSBOM writes the SBOM of archives holding this test binary: it names the
// archive and the binary by their SHA-256 and lists every module of the binary's build
// information, and the same input writes the same document.
func TestArchiveSBOM(t *testing.T) {
	bin := self(t)
	bi, err := buildinfo.ReadFile(must(os.Executable()))
	if err != nil {
		t.Fatal(err)
	}
	tgz, zipPath := writeArchives(t, t.TempDir(), bin)
	created := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for _, archive := range []string{tgz, zipPath} {
		doc, err := archiveSBOM(archive, created)
		if err != nil {
			t.Fatalf("%s: %v", archive, err)
		}
		if doc.SPDXVersion != "SPDX-2.3" || doc.CreationInfo.Created != "2026-12-01T10:00:00Z" || doc.Name != filepath.Base(archive) {
			t.Errorf("%s: document %s %q created %s", archive, doc.SPDXVersion, doc.Name, doc.CreationInfo.Created)
		}
		if len(doc.Files) != 1 || doc.Files[0].Checksums[0].ChecksumValue != sha256Hex(bin) {
			t.Errorf("%s: files %+v do not name the binary by its SHA-256", archive, doc.Files)
		}
		raw, _ := os.ReadFile(archive)
		if doc.Packages[0].Checksums[0].ChecksumValue != sha256Hex(raw) || doc.Packages[0].PrimaryPackagePurpose != "ARCHIVE" {
			t.Errorf("%s: first package %+v is not the archive", archive, doc.Packages[0])
		}
		var names []string
		for _, p := range doc.Packages {
			names = append(names, p.Name+"@"+p.VersionInfo)
		}
		for _, m := range bi.Deps {
			if m.Replace != nil {
				m = m.Replace
			}
			if !slices.Contains(names, m.Path+"@"+m.Version) {
				t.Errorf("%s: the SBOM lacks %s %s", archive, m.Path, m.Version)
			}
		}
		if len(doc.Packages) != len(bi.Deps)+3 {
			t.Errorf("%s: %d packages for %d modules", archive, len(doc.Packages), len(bi.Deps))
		}
		again, _ := archiveSBOM(archive, created)
		a, _ := json.Marshal(doc)
		b, _ := json.Marshal(again)
		if string(a) != string(b) {
			t.Errorf("%s: two SBOMs of the same archive differ", archive)
		}
	}
}

func TestLdflagValue(t *testing.T) {
	bi := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "-ldflags", Value: "-s -w -X github.com/mcpscope/mcpscope/session.version=1.2.3 -X github.com/mcpscope/mcpscope/session.commit=abc"}}}
	if v := ldflagValue(bi, "github.com/mcpscope/mcpscope/session.version"); v != "1.2.3" {
		t.Errorf("version %q", v)
	}
	if v := ldflagValue(bi, "github.com/mcpscope/mcpscope/session.date"); v != "" {
		t.Errorf("date %q, want none", v)
	}
	bi.Main.Version = "v1.0.0"
	if v := stampedVersion(bi); v != "1.2.3" {
		t.Errorf("stampedVersion %q", v)
	}
	bi.Settings = nil
	if v := stampedVersion(bi); v != "v1.0.0" {
		t.Errorf("stampedVersion without -X %q", v)
	}
}

// TestNpmPackages makes the npm packages of a release whose six archives hold this test
// binary: a main package whose optional dependencies are the six platform packages, each
// of those with its os and cpu and the executable binary.
func TestNpmPackages(t *testing.T) {
	dir := t.TempDir()
	tgz, zipPath := writeArchives(t, dir, self(t))
	r := &release{dist: dir, version: "1.2.3-snapshot-abc1234", commit: "abc"}
	for _, p := range npmPlatforms {
		path := tgz
		if p.goos == "windows" {
			path = zipPath
		}
		r.artifacts = append(r.artifacts, artifact{Name: filepath.Base(path), Path: path, Goos: p.goos, Goarch: p.goarch, Type: "Archive"})
	}
	top := t.TempDir()
	os.WriteFile(filepath.Join(top, "README.md"), []byte("# mcpscope\n"), 0o644)
	os.WriteFile(filepath.Join(top, "LICENSE"), []byte("MIT\n"), 0o644)
	dirs, err := npmPackages(r, top, filepath.Join(dir, "npm"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 1+len(npmPlatforms) {
		t.Fatalf("%d packages", len(dirs))
	}
	var main packageJSON
	if err := readJSON(filepath.Join(dirs[0], "package.json"), &main); err != nil {
		t.Fatal(err)
	}
	if main.Name != "mcpscope" || main.Version != r.version || main.Bin["mcpscope"] != "bin/mcpscope.js" || len(main.OptionalDependencies) != 6 {
		t.Errorf("main package %+v", main)
	}
	if fi, err := os.Stat(filepath.Join(dirs[0], "bin", "mcpscope.js")); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("launcher: %v, %v", fi, err)
	}
	for i, p := range npmPlatforms {
		var pkg packageJSON
		if err := readJSON(filepath.Join(dirs[i+1], "package.json"), &pkg); err != nil {
			t.Fatal(err)
		}
		if pkg.Name != p.name() || main.OptionalDependencies[pkg.Name] != r.version || !slices.Equal(pkg.OS, []string{p.os}) || !slices.Equal(pkg.CPU, []string{p.cpu}) {
			t.Errorf("platform package %+v", pkg)
		}
		fi, err := os.Stat(filepath.Join(dirs[i+1], "bin", p.executable()))
		if err != nil || fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: binary %v, %v", pkg.Name, fi, err)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
