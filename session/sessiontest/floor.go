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

var callFloorBuild build

// BuildCallFloor builds testdata/callfloor, the floor of `mcpscope call` over stdio (spawn,
// initialize, initialized, one tools/call, the answer decoded and its result written; run it
// as callfloor TOOL ARGUMENTS-JSON COMMAND...), once per test binary and returns its path.
func BuildCallFloor(t testing.TB) string {
	t.Helper()
	return callFloorBuild.get(t, "callfloor", "./testdata/callfloor")
}

var proxyFloorBuild build

// BuildProxyFloor builds testdata/proxyfloor, the floor of the HTTP tap (a plain
// httputil.ReverseProxy; run it as proxyfloor UPSTREAM-URL), once per test binary and
// returns its path.
func BuildProxyFloor(t testing.TB) string {
	t.Helper()
	return proxyFloorBuild.get(t, "proxyfloor", "./testdata/proxyfloor")
}
