package recordings

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// holdMany holds n tools/call requests of about size bytes each in an HTTP tap in front
// of the demo, then forwards them all. It returns the bytes of hold information (the
// "holds" member of every line) a plain viewer received, and checks that the controlling
// viewer and one that joined half-way both knew every held message.
func holdMany(tb testing.TB, n, size int) (holdBytes int64) {
	dir, err := os.MkdirTemp("", "mcpscope-hm-") // a socket's path must be short
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	tb.Setenv(TapDirEnv, dir)
	mcpURL, _ := sessiontest.StartDemoHTTP(tb)
	up, _ := url.Parse(mcpURL)
	tap, err := NewTap(TapConfig{Name: "hm", ExactName: true, ViewerBytes: 1 << 30})
	if err != nil {
		tb.Fatal(err)
	}
	defer tap.Close()
	srv := httptest.NewServer(tap.HTTPProxy(up))
	defer srv.Close()
	ctl, err := Dial("hm")
	if err != nil {
		tb.Fatal(err)
	}
	defer ctl.Close()
	go func() {
		for {
			if _, err := ctl.Next(); err != nil {
				return
			}
		}
	}()
	// The plain viewer counts the bytes of hold information on its socket.
	raw, err := net.Dial("unix", tapSocket(dir, "hm"))
	if err != nil {
		tb.Fatal(err)
	}
	counted := make(chan int64, 1)
	go func() {
		var total int64
		r := bufio.NewReaderSize(raw, 1<<20)
		for {
			line, err := r.ReadSlice('\n')
			if err == bufio.ErrBufferFull {
				rest, err2 := r.ReadBytes('\n')
				line, err = append(bytes.Clone(line), rest...), err2
			}
			if i := bytes.Index(line, []byte(`"holds":`)); i >= 0 {
				total += int64(len(line) - i)
			}
			if err != nil {
				counted <- total
				return
			}
		}
	}()

	u := srv.URL + up.Path
	var sid string
	do := func(body string) (string, error) {
		req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if sid == "" {
			sid = resp.Header.Get("Mcp-Session-Id")
		}
		return string(b), err
	}
	if _, err := do(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}`); err != nil {
		tb.Fatal(err)
	}
	do(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	bps := ctl.Breakpoints()
	if _, err := bps.Add("tool:=echo dir:out"); err != nil {
		tb.Fatal(err)
	}
	waitFor := func(what string, cond func() bool) {
		tb.Helper()
		deadline := time.Now().Add(2 * time.Minute)
		for !cond() {
			if time.Now().After(deadline) {
				tb.Fatalf("waited 2 minutes for %s", what)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitFor("the breakpoint to be set", func() bool { return tap.bpsSet() })
	text := strings.Repeat("y", size)
	var wg sync.WaitGroup
	answers := make(chan string, n)
	call := func(i int) {
		defer wg.Done()
		s, err := do(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"%d %s"}}}`, i+10, i, text))
		if err != nil {
			s = "error: " + err.Error()
		}
		answers <- s
	}
	half := n / 2
	for i := range half {
		wg.Add(1)
		go call(i)
	}
	waitFor(fmt.Sprintf("%d held", half), func() bool { return len(bps.Held()) == half })
	late, err := Dial("hm") // joins half-way: learns what is held from the snapshot
	if err != nil {
		tb.Fatal(err)
	}
	defer late.Close()
	go func() {
		for {
			if _, err := late.Next(); err != nil {
				return
			}
		}
	}()
	for i := half; i < n; i++ {
		wg.Add(1)
		go call(i)
	}
	waitFor(fmt.Sprintf("%d held", n), func() bool { return len(bps.Held()) == n })
	waitFor(fmt.Sprintf("the late viewer to know %d held", n), func() bool { return len(late.Breakpoints().Held()) == n })
	if err := bps.ContinueAll(); err != nil {
		// ContinueAll waits 10s, as a person would; a thousand forwards on a loaded
		// machine may take longer: wait for them here.
		tb.Logf("continue: %v; waiting on", err)
		waitFor("none held", func() bool { return len(bps.Held()) == 0 })
	}
	wg.Wait()
	close(answers)
	for a := range answers {
		if !strings.Contains(a, `"result"`) {
			tb.Fatalf("a forwarded call was not answered: %.200s", a)
		}
	}
	waitFor("the late viewer to know none is held", func() bool { return len(late.Breakpoints().Held()) == 0 })
	tap.Close()
	raw.Close()
	return <-counted
}

// bpsSet reports whether a viewer's breakpoints are set on the tap.
func (t *Tap) bpsSet() bool {
	t.ctlMu.Lock()
	defer t.ctlMu.Unlock()
	return t.bps != nil && len(t.bps.List()) > 0
}

// TestTapHoldNotesAreDeltas: a hold note carries what changed, not every held message: with
// 48 calls of 16 KB held, a viewer receives each held message's bytes about once (a note
// that listed them all would send 48×49/2 of them), and a viewer that joins half-way still
// knows every held message.
func TestTapHoldNotesAreDeltas(t *testing.T) {
	const n, size = 48, 16 << 10
	got := holdMany(t, n, size)
	t.Logf("%d bytes of hold information for %d holds of %d bytes", got, n, size)
	if max := int64(3 * n * size); got > max {
		t.Errorf("viewer received %d bytes of hold information for %d holds of %d bytes: want at most %d", got, n, size, max)
	}
	if min := int64(n * size); got < min {
		t.Errorf("viewer received %d bytes of hold information: fewer than the %d held bytes themselves", got, min)
	}
}

// BenchmarkTapHolds holds 1,024 calls of 60 KB in an HTTP tap and forwards them: the
// bytes of hold information one viewer receives (hold-MB; the held bytes themselves are
// 60 MB), and the time.
func BenchmarkTapHolds(b *testing.B) {
	for b.Loop() {
		got := holdMany(b, 1024, 60<<10)
		b.ReportMetric(float64(got)/(1<<20), "hold-MB")
	}
}
