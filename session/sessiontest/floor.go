package sessiontest

import "testing"

var oneShotFloorBuild build

// BuildOneShotFloor builds testdata/oneshotfloor, the floor of a one-shot `list tools`
// over Streamable HTTP (initialize, initialized, tools/list and DELETE over one keep-alive
// connection; run it as oneshotfloor URL), once per test binary and returns its path.
func BuildOneShotFloor(t testing.TB) string {
	t.Helper()
	return oneShotFloorBuild.get(t, "oneshotfloor", "./testdata/oneshotfloor")
}
