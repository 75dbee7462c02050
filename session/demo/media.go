package demo

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"math"
	"sync"
)

// pngCache holds generated PNGs by edge length; they are deterministic.
var pngCache sync.Map // int → []byte

// demoPNG returns a size×size PNG: a diagonal gradient with a bright ring,
// small enough to inline and recognisable in an image viewer.
func demoPNG(size int) []byte {
	if b, ok := pngCache.Load(size); ok {
		return b.([]byte)
	}
	if b, err := bakedPNGs.ReadFile(bakedPNGName(size)); err == nil {
		b, _ := pngCache.LoadOrStore(size, b)
		return b.([]byte)
	}
	b, _ := pngCache.LoadOrStore(size, drawPNG(size))
	return b.([]byte)
}

// drawPNG draws and encodes demoPNG(size).
func drawPNG(size int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	c := float64(size-1) / 2
	for y := range size {
		for x := range size {
			dx, dy := float64(x)-c, float64(y)-c
			r := math.Hypot(dx, dy) / c
			px := color.NRGBA{
				R: uint8(40 + 180*x/size),
				G: uint8(60 + 120*y/size),
				B: 200,
				A: 255,
			}
			if r > 0.55 && r < 0.75 {
				px = color.NRGBA{R: 255, G: 210, B: 60, A: 255}
			}
			img.SetNRGBA(x, y, px)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err) // encoding an in-memory NRGBA image cannot fail
	}
	return buf.Bytes()
}

// pngDataURI returns demoPNG(size) as a data: URI, for icons.
func pngDataURI(size int) string {
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(demoPNG(size))
}

// wavSampleRate is the sample rate of generated audio: low, to keep it small.
const wavSampleRate = 8000

// demoWAV returns a mono 16-bit PCM WAV file holding a sine tone of the given
// frequency and duration, with a short fade in and out so it does not click.
func demoWAV(freq float64, durationMS int) []byte {
	n := wavSampleRate * durationMS / 1000
	fade := wavSampleRate / 100 // 10 ms
	samples := make([]int16, n)
	for i := range samples {
		amp := 0.5
		if i < fade {
			amp *= float64(i) / float64(fade)
		}
		if n-i < fade {
			amp *= float64(n-i) / float64(fade)
		}
		v := amp * math.Sin(2*math.Pi*freq*float64(i)/wavSampleRate)
		samples[i] = int16(v * math.MaxInt16)
	}
	dataLen := uint32(2 * n)
	var buf bytes.Buffer
	w := func(v any) { binary.Write(&buf, binary.LittleEndian, v) } // bytes.Buffer writes cannot fail
	buf.WriteString("RIFF")
	w(36 + dataLen)
	buf.WriteString("WAVE")
	buf.WriteString("fmt ")
	w(uint32(16))                // fmt chunk size
	w(uint16(1))                 // PCM
	w(uint16(1))                 // mono
	w(uint32(wavSampleRate))     // sample rate
	w(uint32(wavSampleRate * 2)) // byte rate
	w(uint16(2))                 // block align
	w(uint16(16))                // bits per sample
	buf.WriteString("data")
	w(dataLen)
	w(samples)
	return buf.Bytes()
}
