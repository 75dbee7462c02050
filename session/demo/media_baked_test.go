package demo

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var updateBaked = flag.Bool("update-baked", false, "rewrite session/demo/media/*.png from drawPNG")

// TestBakedPNGsAreDrawn: the images the demo embeds are, byte for byte, what drawPNG
// draws, so serving them instead of drawing them changes nothing a client sees.
func TestBakedPNGsAreDrawn(t *testing.T) {
	for _, size := range bakedSizes {
		drawn := drawPNG(size)
		if *updateBaked {
			if err := os.WriteFile(filepath.FromSlash(bakedPNGName(size)), drawn, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		baked, err := bakedPNGs.ReadFile(bakedPNGName(size))
		if err != nil {
			t.Fatalf("size %d: %v (run go test ./session/demo -run TestBakedPNGsAreDrawn -update-baked)", size, err)
		}
		if !bytes.Equal(baked, drawn) {
			t.Errorf("%s differs from drawPNG(%d): run go test ./session/demo -run TestBakedPNGsAreDrawn -update-baked", bakedPNGName(size), size)
		}
		if !bytes.Equal(demoPNG(size), drawn) {
			t.Errorf("demoPNG(%d) is not drawPNG(%d)", size, size)
		}
	}
}
