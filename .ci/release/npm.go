package main

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

//go:embed npm/mcpscope.js
var launcher []byte

// npmScope holds the per-platform packages; the package users install is npmMain.
const (
	npmScope = "@mcpscope"
	npmMain  = "mcpscope"
)

// npmPlatform is one per-platform package: Node.js's names for the platform and the
// architecture (process.platform, process.arch), which are its os and cpu fields and its
// name, and the Go target whose archive holds its binary.
type npmPlatform struct {
	os, cpu      string
	goos, goarch string
}

var npmPlatforms = []npmPlatform{
	{"linux", "x64", "linux", "amd64"},
	{"linux", "arm64", "linux", "arm64"},
	{"darwin", "x64", "darwin", "amd64"},
	{"darwin", "arm64", "darwin", "arm64"},
	{"win32", "x64", "windows", "amd64"},
	{"win32", "arm64", "windows", "arm64"},
}

func (p npmPlatform) name() string { return npmScope + "/" + p.os + "-" + p.cpu }

func (p npmPlatform) executable() string {
	if p.goos == "windows" {
		return "mcpscope.exe"
	}
	return "mcpscope"
}

// packageJSON is the part of package.json these packages use.
type packageJSON struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	License              string            `json:"license"`
	Homepage             string            `json:"homepage"`
	Repository           map[string]string `json:"repository"`
	Keywords             []string          `json:"keywords,omitempty"`
	OS                   []string          `json:"os,omitempty"`
	CPU                  []string          `json:"cpu,omitempty"`
	Bin                  map[string]string `json:"bin,omitempty"`
	Files                []string          `json:"files"`
	Engines              map[string]string `json:"engines,omitempty"`
	OptionalDependencies map[string]string `json:"optionalDependencies,omitempty"`
	PreferUnplugged      bool              `json:"preferUnplugged,omitempty"`
}

func basePackage(name, version, description string) packageJSON {
	return packageJSON{
		Name: name, Version: version, Description: description, License: "MIT",
		Homepage:   "https://github.com/mcpscope/mcpscope",
		Repository: map[string]string{"type": "git", "url": "git+https://github.com/mcpscope/mcpscope.git"},
	}
}

// npmPackages writes the npm packages of a release into out: out/mcpscope, the package
// users install, and one out/<os>-<cpu> per platform with that platform's binary taken
// from the release's archive. It returns the directories, the main package's first.
// README.md and LICENSE come from the repository's top directory, top.
func npmPackages(r *release, top, out string) ([]string, error) {
	readme, err := os.ReadFile(filepath.Join(top, "README.md"))
	if err != nil {
		return nil, err
	}
	license, err := os.ReadFile(filepath.Join(top, "LICENSE"))
	if err != nil {
		return nil, err
	}
	common := map[string][]byte{"README.md": readme, "LICENSE": license}

	main := basePackage(npmMain, r.version, "Terminal inspector and debugger for MCP servers: every byte between client and server, live")
	main.Keywords = []string{"mcp", "model-context-protocol", "inspector", "debugger", "cli", "tui"}
	main.Bin = map[string]string{"mcpscope": "bin/mcpscope.js"}
	main.Files = []string{"bin/mcpscope.js"}
	main.Engines = map[string]string{"node": ">=18"}
	main.OptionalDependencies = map[string]string{}
	for _, p := range npmPlatforms {
		main.OptionalDependencies[p.name()] = r.version
	}
	mainDir := filepath.Join(out, npmMain)
	if err := writePackage(mainDir, main, common, map[string]fileData{"bin/mcpscope.js": {launcher, 0o755}}); err != nil {
		return nil, err
	}
	dirs := []string{mainDir}

	for _, p := range npmPlatforms {
		a, ok := r.archive(p.goos, p.goarch)
		if !ok {
			return nil, fmt.Errorf("no archive for %s/%s in the release", p.goos, p.goarch)
		}
		entries, err := readArchive(a.Path)
		if err != nil {
			return nil, err
		}
		bin, err := findEntry(entries, p.executable())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.Path, err)
		}
		pkg := basePackage(p.name(), r.version, fmt.Sprintf("The %s %s binary of mcpscope, installed by the mcpscope package", p.os, p.cpu))
		pkg.OS, pkg.CPU = []string{p.os}, []string{p.cpu}
		pkg.Files = []string{"bin/" + p.executable()}
		pkg.PreferUnplugged = true
		dir := filepath.Join(out, p.os+"-"+p.cpu)
		if err := writePackage(dir, pkg, common, map[string]fileData{"bin/" + p.executable(): {bin.data, 0o755}}); err != nil {
			return nil, err
		}
		dirs = append(dirs, dir)
	}
	return dirs, nil
}

type fileData struct {
	data []byte
	mode os.FileMode
}

// writePackage writes a package's directory afresh: package.json, the common files and
// its own.
func writePackage(dir string, pkg packageJSON, common map[string][]byte, files map[string]fileData) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	var manifest bytes.Buffer
	enc := json.NewEncoder(&manifest)
	enc.SetEscapeHTML(false) // ">=18" as written
	enc.SetIndent("", "  ")
	if err := enc.Encode(pkg); err != nil {
		return err
	}
	all := map[string]fileData{"package.json": {manifest.Bytes(), 0o644}}
	for name, data := range common {
		all[name] = fileData{data, 0o644}
	}
	for name, f := range files {
		all[name] = f
	}
	names := make([]string, 0, len(all))
	for name := range all {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, all[name].data, all[name].mode); err != nil {
			return err
		}
		if err := os.Chmod(p, all[name].mode); err != nil { // past the umask
			return err
		}
	}
	return nil
}

// npmCommand makes the npm packages of the snapshot in DIST under OUT, packs them with
// `npm pack`, installs the tarballs into an empty project offline, with an empty npm cache
// (so nothing can come from the registry), and runs the installed mcpscope through npx:
// `npx mcpscope version` must print the version the release stamped,
// `npx mcpscope list tools -- npx mcpscope demo` must list the demo server's tools, a usage
// error's exit code must come through npx, and a SIGTERM to the bin script must end it as
// it ends the binary by itself.
func npmCommand(args []string) error {
	if len(args) != 3 {
		return errors.New("usage: npm TOP DIST OUT")
	}
	top, dist, out := args[0], args[1], args[2]
	r, err := readRelease(dist)
	if err != nil {
		return err
	}
	dirs, err := npmPackages(r, top, filepath.Join(out, "packages"))
	if err != nil {
		return err
	}
	tarballs := filepath.Join(out, "tarballs")
	if err := os.MkdirAll(tarballs, 0o755); err != nil {
		return err
	}
	cache := filepath.Join(out, "npm-cache")
	npmEnv := []string{"npm_config_cache=" + cache, "npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false"}
	packed := map[string]string{} // package name → tarball
	for _, dir := range dirs {
		stdout, err := runIn(dir, npmEnv, "npm", "pack", "--json", "--pack-destination", tarballs)
		if err != nil {
			return err
		}
		var res []struct {
			Name     string `json:"name"`
			Filename string `json:"filename"`
			Files    []struct {
				Path string `json:"path"`
				Mode int    `json:"mode"`
			} `json:"files"`
		}
		if err := json.Unmarshal([]byte(stdout), &res); err != nil || len(res) != 1 {
			return fmt.Errorf("npm pack in %s: unexpected output %q", dir, stdout)
		}
		for _, f := range res[0].Files {
			if strings.HasPrefix(f.Path, "bin/") && f.Mode&0o111 == 0 {
				return fmt.Errorf("npm pack %s: %s is not executable in the tarball (mode %o)", res[0].Name, f.Path, f.Mode)
			}
		}
		packed[res[0].Name] = filepath.Join(tarballs, res[0].Filename)
		fmt.Printf("packed %s %s\n", res[0].Name, res[0].Filename)
	}

	// The project: the main package from its tarball, and the platform packages resolved
	// to theirs by overrides, as the registry would serve them.
	app := filepath.Join(out, "app")
	if err := os.RemoveAll(app); err != nil {
		return err
	}
	if err := os.MkdirAll(app, 0o755); err != nil {
		return err
	}
	overrides := map[string]string{}
	for _, p := range npmPlatforms {
		overrides[p.name()] = "file:" + packed[p.name()]
	}
	manifest, _ := json.MarshalIndent(map[string]any{
		"name": "mcpscope-install-check", "private": true,
		"dependencies": map[string]string{npmMain: "file:" + packed[npmMain]},
		"overrides":    overrides,
	}, "", "  ")
	if err := os.WriteFile(filepath.Join(app, "package.json"), manifest, 0o644); err != nil {
		return err
	}
	// A cache directory of its own, as a new user has: mcpscope probes the demo's protocol
	// era afresh instead of taking it from an earlier run's cache.
	offline := append(slices.Clone(npmEnv), "npm_config_offline=true", "XDG_CACHE_HOME="+filepath.Join(out, "cache"))
	if _, err := runIn(app, offline, "npm", "install", "--offline", "--no-audit", "--no-fund"); err != nil {
		return err
	}
	if err := checkInstalled(app, r); err != nil {
		return err
	}

	want := "mcpscope " + r.version
	got, err := runIn(app, offline, "npx", "mcpscope", "version")
	if err != nil {
		return err
	}
	if !strings.HasPrefix(got, want+" (commit "+r.commit) {
		return fmt.Errorf("npx mcpscope version printed %q, want %q with the commit %s", got, want, r.commit)
	}
	fmt.Printf("npx mcpscope version: %s", got)

	got, err = runIn(app, offline, "npx", "mcpscope", "list", "tools", "--", "npx", "mcpscope", "demo")
	if err != nil {
		return err
	}
	var tools []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal([]byte(got), &tools); err != nil {
		return fmt.Errorf("npx mcpscope list tools: not a JSON list of tools: %w\n%s", err, got)
	}
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	if !slices.Contains(names, "add") || !slices.Contains(names, "echo") {
		return fmt.Errorf("npx mcpscope list tools -- npx mcpscope demo listed %v, want the demo's tools (add, echo, ...)", names)
	}
	fmt.Printf("npx mcpscope list tools -- npx mcpscope demo: %d tools\n", len(names))

	// The exit code comes through: a usage error is 2 from the binary and from npx alike.
	code, err := exitCodeIn(app, offline, "npx", "mcpscope", "--no-such-flag")
	if err != nil {
		return err
	}
	if want, _ := exitCodeIn(app, offline, installedBinary(app), "--no-such-flag"); code != want || code == 0 {
		return fmt.Errorf("npx mcpscope --no-such-flag exited %d, the binary itself %d", code, want)
	}
	fmt.Printf("npx mcpscope --no-such-flag: exit code %d, as the binary's\n", code)

	// A SIGTERM to the bin script reaches the binary, and the script ends as the binary
	// ends when it gets SIGTERM itself.
	direct, err := terminated(app, installedBinary(app))
	if err != nil {
		return err
	}
	viaNode, err := terminated(app, "node", filepath.Join(app, "node_modules", npmMain, "bin", "mcpscope.js"))
	if err != nil {
		return err
	}
	if direct != viaNode {
		return fmt.Errorf("SIGTERM: the bin script ended with %q, the binary by itself with %q", viaNode, direct)
	}
	fmt.Printf("SIGTERM to the bin script: %s, as the binary by itself\n", viaNode)
	return nil
}

// terminated runs `mcpscope demo` through argv, waits until the demo server answers an
// initialize request (so the server runs and the bin script's handlers are set), sends
// SIGTERM to the process argv started and returns how it ended.
func terminated(dir string, argv ...string) (string, error) {
	cmd := exec.Command(argv[0], append(argv[1:], "demo")...)
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	defer stdin.Close()
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"release-check","version":"0"}}}`
	if _, err := io.WriteString(stdin, initialize+"\n"); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return "", err
	}
	line, err := bufio.NewReader(io.LimitReader(stdout, 1<<20)).ReadString('\n')
	if err != nil || !strings.Contains(line, `"id":1`) {
		cmd.Process.Kill()
		cmd.Wait()
		return "", fmt.Errorf("%s demo: no answer to initialize: %q, %v", strings.Join(argv, " "), line, err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return "", err
	}
	go io.Copy(io.Discard, stdout)
	err = cmd.Wait()
	if cmd.ProcessState == nil {
		return "", err
	}
	return cmd.ProcessState.String(), nil
}

// installedBinary is where npm put this platform's binary in app.
func installedBinary(app string) string {
	for _, p := range npmPlatforms {
		if p.os == nodePlatform() && p.cpu == nodeArch() {
			return filepath.Join(app, "node_modules", npmScope, p.os+"-"+p.cpu, "bin", p.executable())
		}
	}
	return ""
}

// checkInstalled checks that npm installed this platform's package, with the release's
// binary, and none of the others.
func checkInstalled(app string, r *release) error {
	bin := installedBinary(app)
	if bin == "" {
		return fmt.Errorf("no npm package for this platform")
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		return fmt.Errorf("this platform's package is not installed: %w", err)
	}
	x, err := inspect(data)
	if err != nil {
		return fmt.Errorf("%s: %w", bin, err)
	}
	if x.goos != goos() || x.goarch != goarch() {
		return fmt.Errorf("%s is a %s/%s binary", bin, x.goos, x.goarch)
	}
	for _, p := range npmPlatforms {
		dir := filepath.Join(app, "node_modules", npmScope, p.os+"-"+p.cpu)
		_, err := os.Stat(dir)
		if mine := p.os == nodePlatform() && p.cpu == nodeArch(); !mine && err == nil {
			return fmt.Errorf("npm installed %s on a %s-%s machine", p.name(), nodePlatform(), nodeArch())
		}
	}
	fmt.Printf("installed offline: %s %s with %s\n", npmMain, r.version, bin)
	return nil
}
