package session

import (
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
)

// TestReadyText checks the ready state's note: no stray space where the server gave no
// version, and a name-less server still reads well.
func TestReadyText(t *testing.T) {
	for _, c := range []struct {
		name, version, want string
	}{
		{"everything", "", "everything, protocol 2025-11-25"},
		{"everything", "1.2", "everything 1.2, protocol 2025-11-25"},
		{"", "", "server, protocol 2025-11-25"},
	} {
		info := ServerInfo{Revision: protocol.Revision("2025-11-25")}
		info.Implementation.Name, info.Implementation.Version = c.name, c.version
		if got := readyText(info, ""); got != c.want {
			t.Errorf("name %q version %q: %q, want %q", c.name, c.version, got, c.want)
		}
	}
}
