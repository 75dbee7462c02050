package session

import (
	"runtime/debug"
	"testing"
)

func TestBuildInfo(t *testing.T) {
	parse := func(s string) *debug.BuildInfo {
		bi, err := debug.ParseBuildInfo(s)
		if err != nil {
			t.Fatal(err)
		}
		return bi
	}
	installed := parse("go\tgo1.26.8\npath\tgithub.com/mcpscope/mcpscope\nmod\tgithub.com/mcpscope/mcpscope\tv1.4.2\th1:abc=\n" +
		"build\t-trimpath=true\nbuild\tGOOS=linux\n")
	clone := parse("go\tgo1.26.8\npath\tgithub.com/mcpscope/mcpscope\nmod\tgithub.com/mcpscope/mcpscope\tv0.0.0-20261202112400-8b441b0abcde+dirty\t\n" +
		"build\tvcs=git\nbuild\tvcs.revision=8b441b0abcdef0123456789abcdef0123456789a\nbuild\tvcs.time=2026-12-02T11:24:00Z\nbuild\tvcs.modified=true\n")
	devel := parse("go\tgo1.26.8\npath\tgithub.com/mcpscope/mcpscope\nmod\tgithub.com/mcpscope/mcpscope\t(devel)\t\n")
	for _, tc := range []struct {
		name                  string
		version, commit, date string
		bi                    *debug.BuildInfo
		want                  BuildInfo
		line                  string
	}{
		{"stamped", "1.2.3", "0123456789abcdef0123456789abcdef01234567", "2026-12-01T10:00:00Z", clone,
			BuildInfo{Version: "1.2.3", Commit: "0123456789abcdef0123456789abcdef01234567", Date: "2026-12-01T10:00:00Z"},
			"1.2.3 (commit 0123456789abcdef0123456789abcdef01234567, 2026-12-01T10:00:00Z)"},
		{"stamped with v", "v1.2.3", "", "", nil, BuildInfo{Version: "1.2.3"}, "1.2.3"},
		{"go install at a version", "", "", "", installed, BuildInfo{Version: "1.4.2"}, "1.4.2"},
		{"build in a clone", "", "", "", clone,
			BuildInfo{Version: "0.0.0-20261202112400-8b441b0abcde+dirty", Commit: "8b441b0abcdef0123456789abcdef0123456789a", Date: "2026-12-02T11:24:00Z", Modified: true},
			"0.0.0-20261202112400-8b441b0abcde+dirty (commit 8b441b0abcdef0123456789abcdef0123456789a (modified), 2026-12-02T11:24:00Z)"},
		{"devel", "", "", "", devel, BuildInfo{Version: develVersion}, develVersion},
		{"no build info", "", "", "", nil, BuildInfo{Version: develVersion}, develVersion},
	} {
		got := buildInfo(tc.version, tc.commit, tc.date, tc.bi)
		if got != tc.want {
			t.Errorf("%s: buildInfo = %+v, want %+v", tc.name, got, tc.want)
		}
		if s := got.String(); s != tc.line {
			t.Errorf("%s: String() = %q, want %q", tc.name, s, tc.line)
		}
	}
}

// The test binary has no version of its own: it reports develVersion, which the golden
// files of the interactive view show as clientInfo.version.
func TestVersionOfTestBinary(t *testing.T) {
	if v := Version(); v != develVersion {
		t.Errorf("Version() = %q in a test binary, want %q", v, develVersion)
	}
}
