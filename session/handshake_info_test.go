package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
)

func TestHandshakeInfo(t *testing.T) {
	const discover = `{"supportedVersions":%s,"capabilities":{"tools":{}},"instructions":"i","resultType":"complete","ttlMs":0,"cacheScope":"public",
		"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"m","version":"1","websiteUrl":"https://m.example"}}}`
	cases := []struct {
		name, method, offered, result string
		rev                           protocol.Revision
		stateless                     bool
		err                           bool
	}{
		{"initialize", "initialize", "2025-11-25",
			`{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"instructions":"i","serverInfo":{"name":"m","version":"1","websiteUrl":"https://m.example"}}`,
			"2025-06-18", false, false},
		{"initialize, a revision mcpscope does not speak, as written", "initialize", "2025-11-25",
			`{"protocolVersion":"1999-01-01","capabilities":{"tools":{}},"instructions":"i","serverInfo":{"name":"m","version":"1","websiteUrl":"https://m.example"}}`,
			"1999-01-01", false, false},
		{"discover, offered revision listed", "server/discover", "2026-07-28", fmt.Sprintf(discover, `["2025-11-25","2026-07-28"]`), "2026-07-28", true, false},
		{"discover, offered revision not listed", "server/discover", "2026-01-01", fmt.Sprintf(discover, `["2026-07-28","2025-11-25"]`), "2026-07-28", true, false},
		{"discover, only earlier revisions", "server/discover", "2026-07-28", fmt.Sprintf(discover, `["2025-11-25"]`), "", true, false},
		{"discover, nothing listed", "server/discover", "2026-07-28", fmt.Sprintf(discover, `[]`), "2026-07-28", true, false},
		{"initialize result not an object", "initialize", "2025-11-25", `[]`, "", false, true},
		{"discover result with a numeric instructions", "server/discover", "2026-07-28", `{"instructions":5}`, "", false, true},
		{"not a handshake", "tools/list", "", `{}`, "", false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			info, err := HandshakeInfo(c.method, protocol.Revision(c.offered), json.RawMessage(c.result))
			if c.err {
				if err == nil {
					t.Fatalf("no error; info %+v", info)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if info.Revision != c.rev || info.Stateless != c.stateless {
				t.Errorf("revision %q stateless %v, want %q %v", info.Revision, info.Stateless, c.rev, c.stateless)
			}
			if info.Implementation != (Implementation{Name: "m", Version: "1"}) || info.Website != "https://m.example" ||
				info.Instructions != "i" || string(info.Capabilities) != `{"tools":{}}` {
				t.Errorf("info %+v", info)
			}
		})
	}
	if _, err := HandshakeInfo("ping", "", json.RawMessage(`{}`)); !errors.Is(err, protocol.ErrNotHandshake) {
		t.Errorf("ping: %v, want ErrNotHandshake", err)
	}
}
