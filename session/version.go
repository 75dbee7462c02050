package session

import (
	"runtime/debug"
	"strings"
	"sync"
)

// The build's identity as a release build stamps it at link time:
//
//	-X github.com/mcpscope/mcpscope/session.version=1.2.3
//	-X github.com/mcpscope/mcpscope/session.commit=<the commit's full hash>
//	-X github.com/mcpscope/mcpscope/session.date=<the commit's time, RFC 3339>
//
// Empty in any other build, which reads what it can from the module's build info instead.
var version, commit, date string

// develVersion is what a build reports when neither the linker nor the build info names a
// version: `go run .`, `go test`, a build from a clone without version control stamping.
const develVersion = "0.1.0"

// BuildInfo is the identity of the running mcpscope.
type BuildInfo struct {
	Version string // without a leading "v": 1.2.3, or a pseudo-version for a build of a commit
	Commit  string // the commit's hash, "" when unknown
	Date    string // the commit's time, RFC 3339, "" when unknown
	// Modified is set when the build was made from a work tree with uncommitted changes.
	Modified bool
}

// Build tells which mcpscope this is, worked out once, on first use: the package's
// initialisation does none of it.
var Build = sync.OnceValue(func() BuildInfo {
	bi, _ := debug.ReadBuildInfo()
	return buildInfo(version, commit, date, bi)
})

// Version is mcpscope's version, reported as clientInfo.version, in recordings' headers and
// by `mcpscope version`.
func Version() string { return Build().Version }

// buildInfo prefers what the linker stamped and otherwise takes the module's version (set
// by `go install module@version`, or a pseudo-version when the go command stamped version
// control information) and the vcs.* settings from bi, which may be nil.
func buildInfo(version, commit, date string, bi *debug.BuildInfo) BuildInfo {
	if version != "" {
		return BuildInfo{Version: strings.TrimPrefix(version, "v"), Commit: commit, Date: date}
	}
	b := BuildInfo{Version: develVersion}
	if bi == nil {
		return b
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		b.Version = strings.TrimPrefix(v, "v")
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.time":
			b.Date = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// String is the line `mcpscope version` prints after the program's name: the version, then
// the commit and its time when known.
func (b BuildInfo) String() string {
	var extra []string
	if b.Commit != "" {
		c := "commit " + b.Commit
		if b.Modified {
			c += " (modified)"
		}
		extra = append(extra, c)
	}
	if b.Date != "" {
		extra = append(extra, b.Date)
	}
	if len(extra) == 0 {
		return b.Version
	}
	return b.Version + " (" + strings.Join(extra, ", ") + ")"
}
