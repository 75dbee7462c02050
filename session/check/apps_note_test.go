package check

import "testing"

// TestContrastNoteCounts: the line comparing the tool lists with and without the MCP Apps
// extension counts tools with the plural that fits.
func TestContrastNoteCounts(t *testing.T) {
	for _, tc := range []struct {
		mine, mineUI []string
		other        ToolsContrast
		want         string
	}{
		{[]string{"a"}, nil, ToolsContrast{Tools: []string{"a"}},
			"MCP Apps: the server lists the same 1 tool with and without the extension"},
		{[]string{"a", "b"}, nil, ToolsContrast{Tools: []string{"a", "b"}},
			"MCP Apps: the server lists the same 2 tools with and without the extension"},
		{[]string{"a"}, []string{"a"}, ToolsContrast{Tools: []string{"a", "b"}},
			"MCP Apps: with the extension the server lists 1 tool (1 with an app); without it, 2 (0 with an app); only without: b"},
	} {
		if got := contrastNote(true, tc.mine, tc.mineUI, &tc.other); got != tc.want {
			t.Errorf("contrastNote(%v, %v, %+v)\n got %q\nwant %q", tc.mine, tc.mineUI, tc.other, got, tc.want)
		}
	}
}
