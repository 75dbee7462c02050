package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenDamagedRecording opens a recording damaged in every way a line can be: text that
// is not JSON, binary data, a JSON object that is not an event, an empty line (not damage)
// and a last line cut short. Each damaged line is a row naming its line number and what is
// wrong, the events around them are rows as usual, and the status bar counts the damage.
func TestOpenDamagedRecording(t *testing.T) {
	path := filepath.Join(t.TempDir(), "damaged.jsonl")
	traffic := goldenTraffic(t)[:4]
	writeRecording(t, path, traffic)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The header is line 1 and the events lines 2-5.
	damage := []string{
		"this line is not JSON\n",                      // line 6
		"\x00\x01\xfe\xff binary {\x89PNG}\n",          // line 7
		"{\x89PNG\x00\x01\xfe}\n",                      // line 8: binary between braces
		`{"seq":"not a number","kind":"frame"}` + "\n", // line 9: JSON, not an event
		"\n",                     // line 10: empty, not damage
		`{"seq":99,"kind":"stde`, // line 11: cut short
	}
	for _, d := range damage {
		if _, err := f.WriteString(d); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()

	m := openModel(t, path, 140, 30)
	scr := plainScreen(m)
	for _, line := range []int{6, 7, 8, 9, 11} {
		if screenRow(scr, fmt.Sprintf("line %d could not be read", line)) == "" {
			t.Errorf("no row for line %d:\n%s", line, scr)
		}
	}
	for _, want := range []string{"line 6 could not be read: not a JSON object", "line 8 could not be read: not an event: binary data",
		"line 9 could not be read: not an event", "line 11 could not be read: cut short"} {
		if !strings.Contains(scr, want) {
			t.Errorf("screen lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, "line 10 ") {
		t.Errorf("the empty line 10 is marked:\n%s", scr)
	}
	if status := strings.Split(scr, "\n")[0]; !strings.Contains(status, "5 unreadable lines") {
		t.Errorf("status bar lacks the count: %q", status)
	}
	if n := m.open.total(); n != len(traffic)+5 {
		t.Errorf("%d rows, want %d events and 5 unreadable lines", n, len(traffic))
	}
}
