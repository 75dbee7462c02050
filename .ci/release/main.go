// Command mcpscope-release is the release's own tooling, beside its GoReleaser
// configuration (goreleaser.yaml):
//
//	mcpscope-release sbom ARCHIVE DOCUMENT   the SPDX document of a release archive (GoReleaser runs it)
//	mcpscope-release verify DIST             checks a release build: archives, binaries, checksums, SBOMs, the Homebrew cask
//	mcpscope-release npm TOP DIST OUT        makes, packs and installs offline the npm packages of a release build, and runs them
//
// run.sh runs all of it on a snapshot build.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: mcpscope-release sbom|verify|npm ...")
		os.Exit(2)
	}
	commands := map[string]func([]string) error{"sbom": sbomCommand, "verify": verifyCommand, "npm": npmCommand}
	cmd, ok := commands[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "mcpscope-release: unknown command %q\n", os.Args[1])
		os.Exit(2)
	}
	if err := cmd(os.Args[2:]); err != nil {
		fmt.Fprintf(os.Stderr, "mcpscope-release %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

// release is what a GoReleaser build left in its dist directory, as its metadata.json and
// artifacts.json list it.
type release struct {
	dist       string
	version    string
	commit     string
	commitDate string // RFC 3339, UTC
	artifacts  []artifact
}

type artifact struct {
	Name   string `json:"name"`
	Path   string `json:"path"` // relative to the directory GoReleaser ran in, or absolute
	Goos   string `json:"goos"`
	Goarch string `json:"goarch"`
	Type   string `json:"type"`
}

// readRelease reads dist/metadata.json and dist/artifacts.json. Artifact paths are made
// usable from here: GoReleaser writes them relative to the repository's top directory,
// dist's grandparent's parent (dist is .ci/release/dist).
func readRelease(dist string) (*release, error) {
	var meta struct {
		Version string `json:"version"`
		Commit  string `json:"commit"`
	}
	if err := readJSON(filepath.Join(dist, "metadata.json"), &meta); err != nil {
		return nil, err
	}
	r := &release{dist: dist, version: meta.Version, commit: meta.Commit}
	if r.commit != "" {
		// The commit's time, as GoReleaser's CommitDate gives it to the build.
		out, err := exec.Command("git", "show", "-s", "--format=%ct", r.commit).Output()
		if err != nil {
			return nil, fmt.Errorf("the time of commit %s: %w", r.commit, err)
		}
		sec, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("the time of commit %s: %q", r.commit, out)
		}
		r.commitDate = time.Unix(sec, 0).UTC().Format(time.RFC3339)
	}
	if err := readJSON(filepath.Join(dist, "artifacts.json"), &r.artifacts); err != nil {
		return nil, err
	}
	for i, a := range r.artifacts {
		// The path GoReleaser recorded ends in the artifact's place under dist.
		rel, ok := strings.CutPrefix(filepath.ToSlash(a.Path), ".ci/release/dist/")
		if !filepath.IsAbs(a.Path) && ok {
			r.artifacts[i].Path = filepath.Join(dist, filepath.FromSlash(rel))
		}
	}
	if r.version == "" || r.commit == "" {
		return nil, fmt.Errorf("%s: no version or commit in metadata.json", dist)
	}
	return r, nil
}

// archive is the release's archive for goos/goarch.
func (r *release) archive(goos, goarch string) (artifact, bool) {
	for _, a := range r.byType("Archive") {
		if a.Goos == goos && a.Goarch == goarch {
			return a, true
		}
	}
	return artifact{}, false
}

func (r *release) byType(t string) []artifact {
	var out []artifact
	for _, a := range r.artifacts {
		if a.Type == t {
			out = append(out, a)
		}
	}
	return out
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// runIn runs a command in dir with env added to this program's environment and returns
// its standard output; its standard error goes to this program's. A failure's error holds
// both.
func runIn(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	os.Stderr.Write(stderr.Bytes())
	if err != nil {
		return stdout.String(), fmt.Errorf("%s %s in %s: %w\n%s%s", name, strings.Join(args, " "), dir, err, stdout.String(), stderr.String())
	}
	return stdout.String(), nil
}

// exitCodeIn runs a command as runIn does and returns its exit code; the error is for a
// command that could not be run at all.
func exitCodeIn(dir string, env []string, name string, args ...string) (int, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), nil
	}
	if err != nil {
		return -1, err
	}
	return 0, nil
}

func goos() string   { return runtime.GOOS }
func goarch() string { return runtime.GOARCH }

// nodePlatform and nodeArch are Node.js's names (process.platform, process.arch) for
// this machine.
func nodePlatform() string {
	if runtime.GOOS == "windows" {
		return "win32"
	}
	return runtime.GOOS
}

func nodeArch() string {
	if runtime.GOARCH == "amd64" {
		return "x64"
	}
	return runtime.GOARCH
}
