//go:build !linux && !windows

package transport

import "context"

// startProcess spawns the server as mcpscope's own child: there is no subreaper here, so
// its process group is what gets cleaned up.
func startProcess(_ context.Context, spec ProcessSpec) (*Process, error) {
	return startDirect(spec)
}
