package main

import (
	"bufio"
	"bytes"
	"debug/buildinfo"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// targets are the release's platforms: every one must have its archive.
var targets = [][2]string{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// verifyCommand checks a release build in DIST: an archive per target holding README.md,
// LICENSE and an mcpscope binary for that target's OS and architecture (as its own
// headers say), stripped, built with -trimpath and stamped with the release's version and
// commit; checksums.txt naming each archive with its SHA-256; an SPDX document per archive
// describing that archive and the modules of its binary; and a Homebrew cask that Ruby
// parses (`ruby -c`).
func verifyCommand(args []string) error {
	if len(args) != 1 {
		return errors.New("usage: verify DIST")
	}
	r, err := readRelease(args[0])
	if err != nil {
		return err
	}
	sums, err := readChecksums(filepath.Join(r.dist, "checksums.txt"))
	if err != nil {
		return err
	}
	var problems []string
	for _, t := range targets {
		a, ok := r.archive(t[0], t[1])
		if !ok {
			problems = append(problems, fmt.Sprintf("%s/%s: no archive", t[0], t[1]))
			continue
		}
		line, err := verifyArchive(r, a, sums)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s/%s %s: %v", t[0], t[1], a.Name, err))
			continue
		}
		fmt.Println("ok", line)
	}
	if n := len(r.byType("Archive")); n != len(targets) {
		problems = append(problems, fmt.Sprintf("%d archives, want %d", n, len(targets)))
	}
	if len(sums) != 2*len(targets) {
		problems = append(problems, fmt.Sprintf("checksums.txt lists %d files, want the %d archives and their SBOMs", len(sums), len(targets)))
	}
	if err := verifyNative(r); err != nil {
		problems = append(problems, err.Error())
	}
	if err := verifyCask(r); err != nil {
		problems = append(problems, err.Error())
	}
	if len(problems) > 0 {
		return fmt.Errorf("the release build is not right:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}

// readChecksums reads a checksums file of "SHA256  NAME" lines.
func readChecksums(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sums := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 || len(f[0]) != 64 {
			return nil, fmt.Errorf("%s: bad line %q", path, sc.Text())
		}
		sums[f[1]] = f[0]
	}
	return sums, sc.Err()
}

// verifyArchive checks one archive and returns a line about it.
func verifyArchive(r *release, a artifact, sums map[string]string) (string, error) {
	raw, err := os.ReadFile(a.Path)
	if err != nil {
		return "", err
	}
	if sum := sha256Hex(raw); sums[a.Name] != sum {
		return "", fmt.Errorf("checksums.txt has %q, the archive's SHA-256 is %s", sums[a.Name], sum)
	}
	entries, err := readArchive(a.Path)
	if err != nil {
		return "", err
	}
	for _, name := range []string{"README.md", "LICENSE"} {
		if _, err := findEntry(entries, name); err != nil {
			return "", err
		}
	}
	exeName := "mcpscope"
	if a.Goos == "windows" {
		exeName += ".exe"
	}
	bin, err := findEntry(entries, exeName)
	if err != nil {
		return "", err
	}
	if a.Goos != "windows" && bin.mode&0o111 == 0 {
		return "", fmt.Errorf("%s is not executable (mode %v)", bin.name, bin.mode)
	}
	x, err := inspect(bin.data)
	if err != nil {
		return "", fmt.Errorf("%s: %w", bin.name, err)
	}
	if x.goos != a.Goos || x.goarch != a.Goarch {
		return "", fmt.Errorf("%s is a %s/%s executable", bin.name, x.goos, x.goarch)
	}
	if x.symbols || x.dwarf {
		return "", fmt.Errorf("%s is not stripped (symbol table %v, DWARF %v)", bin.name, x.symbols, x.dwarf)
	}
	bi, err := buildinfo.Read(bytes.NewReader(bin.data))
	if err != nil {
		return "", fmt.Errorf("%s: %w", bin.name, err)
	}
	if err := verifyBuild(bi, bin.data, r, a); err != nil {
		return "", fmt.Errorf("%s: %w", bin.name, err)
	}
	if err := verifySBOM(r, a, raw, bin, bi, sums); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s/%s %s: %s %d bytes, %s, %d modules in its SBOM", a.Goos, a.Goarch, a.Name, bin.name, len(bin.data), bi.GoVersion, len(bi.Deps)), nil
}

// verifyBuild checks how the binary was built: its build information (a -trimpath build
// records neither its -ldflags nor paths) and the stamps in its bytes: the version, the
// commit and the commit's time, as the release gave them.
func verifyBuild(bi *debug.BuildInfo, data []byte, r *release, a artifact) error {
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	want := map[string]string{"GOOS": a.Goos, "GOARCH": a.Goarch, "-trimpath": "true", "CGO_ENABLED": "0"}
	for k, v := range want {
		if settings[k] != v {
			return fmt.Errorf("built with %s=%q, want %q", k, settings[k], v)
		}
	}
	if bi.Main.Path != "github.com/mcpscope/mcpscope" {
		return fmt.Errorf("main module %q", bi.Main.Path)
	}
	for _, stamp := range []string{r.version, r.commit, r.commitDate} {
		if !bytes.Contains(data, []byte(stamp)) {
			return fmt.Errorf("the stamp %q is not in the binary", stamp)
		}
	}
	return nil
}

// verifySBOM checks the archive's SPDX document: it describes this archive (its SHA-256),
// holds this binary (its SHA-256), and lists every module of the binary's build
// information at its version.
func verifySBOM(r *release, a artifact, raw []byte, bin entry, bi *debug.BuildInfo, sums map[string]string) error {
	path := filepath.Join(r.dist, a.Name+".spdx.json")
	var doc spdxDocument
	if err := readJSON(path, &doc); err != nil {
		return err
	}
	if raw, err := os.ReadFile(path); err != nil || sums[filepath.Base(path)] != sha256Hex(raw) {
		return fmt.Errorf("checksums.txt does not name %s with its SHA-256", filepath.Base(path))
	}
	found := false
	for _, s := range r.byType("SBOM") {
		found = found || s.Name == a.Name+".spdx.json"
	}
	if !found {
		return fmt.Errorf("%s is not among the release's SBOM artifacts", filepath.Base(path))
	}
	if doc.SPDXVersion != "SPDX-2.3" || doc.Name != a.Name {
		return fmt.Errorf("%s: %s of %q", filepath.Base(path), doc.SPDXVersion, doc.Name)
	}
	pkgs := map[string]spdxPackage{}
	for _, p := range doc.Packages {
		pkgs[p.Name+"@"+p.VersionInfo] = p
	}
	if p, ok := pkgs[a.Name+"@"]; !ok || len(p.Checksums) != 1 || p.Checksums[0].ChecksumValue != sha256Hex(raw) {
		return fmt.Errorf("%s does not describe the archive with its SHA-256", filepath.Base(path))
	}
	if len(doc.Files) != 1 || doc.Files[0].Checksums[0].ChecksumValue != sha256Hex(bin.data) {
		return fmt.Errorf("%s does not name the binary with its SHA-256", filepath.Base(path))
	}
	if _, ok := pkgs["github.com/mcpscope/mcpscope@"+r.version]; !ok {
		return fmt.Errorf("%s lacks mcpscope %s", filepath.Base(path), r.version)
	}
	for _, m := range bi.Deps {
		if m.Replace != nil {
			m = m.Replace
		}
		if _, ok := pkgs[m.Path+"@"+m.Version]; !ok {
			return fmt.Errorf("%s lacks the module %s %s", filepath.Base(path), m.Path, m.Version)
		}
	}
	if want := len(bi.Deps) + 3; len(doc.Packages) != want { // the archive, mcpscope, stdlib
		return fmt.Errorf("%s lists %d packages, want %d", filepath.Base(path), len(doc.Packages), want)
	}
	return nil
}

// verifyCask checks the Homebrew cask the release wrote: one, of the release's version,
// naming the four darwin and linux archives (by the version it interpolates) with their
// checksums, and valid Ruby.
func verifyCask(r *release) error {
	casks := r.byType("Homebrew Cask")
	if len(casks) != 1 {
		return fmt.Errorf("%d Homebrew casks, want 1", len(casks))
	}
	data, err := os.ReadFile(casks[0].Path)
	if err != nil {
		return err
	}
	if !bytes.Contains(data, []byte(`version "`+r.version+`"`)) {
		return fmt.Errorf("the cask %s is not of version %s", casks[0].Path, r.version)
	}
	sums, err := readChecksums(filepath.Join(r.dist, "checksums.txt"))
	if err != nil {
		return err
	}
	for _, t := range targets {
		a, ok := r.archive(t[0], t[1])
		if !ok || t[0] == "windows" {
			continue
		}
		name := strings.Replace(a.Name, r.version, "#{version}", 1)
		if !bytes.Contains(data, []byte(`sha256 "`+sums[a.Name]+`"`)) || !bytes.Contains(data, []byte("/"+name+`"`)) {
			return fmt.Errorf("the cask %s does not name %s with its checksum", casks[0].Path, a.Name)
		}
	}
	out, err := exec.Command("ruby", "-c", casks[0].Path).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ruby -c %s: %v\n%s", casks[0].Path, err, out)
	}
	fmt.Printf("ok Homebrew cask %s: ruby -c says %s", filepath.Base(casks[0].Path), out)
	return nil
}

// verifyNative runs this machine's binary of the release: `mcpscope version` prints the
// version, the commit and the commit's time the release stamped.
func verifyNative(r *release) error {
	a, ok := r.archive(goos(), goarch())
	if !ok {
		return fmt.Errorf("no archive for this machine, %s/%s", goos(), goarch())
	}
	entries, err := readArchive(a.Path)
	if err != nil {
		return err
	}
	bin, err := findBinary(entries)
	if err != nil {
		return err
	}
	exe := filepath.Join(os.TempDir(), fmt.Sprintf("mcpscope-release-check-%d", os.Getpid()))
	if err := os.WriteFile(exe, bin.data, 0o755); err != nil {
		return err
	}
	defer os.Remove(exe)
	out, err := exec.Command(exe, "version").Output()
	want := fmt.Sprintf("mcpscope %s (commit %s, %s)\n", r.version, r.commit, r.commitDate)
	if err != nil || string(out) != want {
		return fmt.Errorf("%s version printed %q (%v), want %q", a.Name, out, err, want)
	}
	fmt.Printf("ok %s/%s: %s", goos(), goarch(), out)
	return nil
}
