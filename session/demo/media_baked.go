package demo

import (
	"embed"
	"strconv"
)

// bakedPNGs are demoPNG's images of the sizes the demo needs when it starts (the 16×16
// icons, the 64×64 logo resource's size), drawn once and kept as files: encoding them was a
// tenth of the demo's start. TestBakedPNGsAreDrawn keeps them equal to drawPNG's output;
// after changing drawPNG, run it with -update-baked.
//
//go:embed media/*.png
var bakedPNGs embed.FS

// bakedSizes are the sizes in bakedPNGs.
var bakedSizes = []int{16, 64}

func bakedPNGName(size int) string { return "media/demo-" + strconv.Itoa(size) + ".png" }
