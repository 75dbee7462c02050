package traffic

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoTerminalImports: the timeline's model imports no Charm package (Bubble Tea,
// lipgloss, bubbles, the x/ansi helpers) and no chroma, directly or through another
// package: the view is drawn by the ui package.
func TestNoTerminalImports(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "charm.land/") || strings.HasPrefix(p, "github.com/charmbracelet/") || strings.HasPrefix(p, "github.com/alecthomas/chroma") {
			t.Errorf("ui/traffic depends on %s", p)
		}
	}
}
