package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"
)

// Floods: tools that send far more than anyone asked for.
//
//	flood        notifications/message of `size` bytes (default 256 KiB) as fast as the pipe
//	             takes them, for `seconds` (default 10) or `count` notifications, then answers
//	pingflood    `count` ping requests (default 300000) written without reading stdin; with
//	             `deaf` it never reads again, otherwise it answers and goes back to reading
//	stdoutclose  answers, then closes stdout and keeps running (stdin still read)
func init() {
	register("flood", "sends notifications/message of args.size bytes for args.seconds or args.count", flood)
	register("pingflood", "sends args.count ping requests without reading stdin (args.deaf: never read again)", pingflood)
	register("stdoutclose", "answers, then closes stdout and keeps running", stdoutclose)
}

type floodArgs struct {
	Size    int     `json:"size"`
	Seconds float64 `json:"seconds"`
	Count   int     `json:"count"`
	Deaf    bool    `json:"deaf"`
}

func parseFloodArgs(raw json.RawMessage) floodArgs {
	var a floodArgs
	json.Unmarshal(raw, &a)
	if a.Size <= 0 {
		a.Size = 256 << 10
	}
	if a.Seconds <= 0 && a.Count <= 0 {
		a.Seconds = 10
	}
	return a
}

func flood(req request, raw json.RawMessage) {
	a := parseFloodArgs(raw)
	payload := strings.Repeat("f", a.Size)
	deadline := time.Now().Add(time.Duration(a.Seconds * float64(time.Second)))
	n := 0
	for (a.Count > 0 && n < a.Count) || (a.Count <= 0 && time.Now().Before(deadline)) {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/message",
			"params": map[string]any{"level": "info", "logger": "flood", "data": fmt.Sprintf("%d %s", n, payload)}})
		write(b)
		n++
	}
	write(resultFrame(req.ID, textResult(fmt.Sprintf("flooded %d notifications of %d bytes", n, a.Size))))
}

func pingflood(req request, raw json.RawMessage) {
	var a floodArgs
	json.Unmarshal(raw, &a)
	if a.Count <= 0 {
		a.Count = 300000
	}
	for i := 0; i < a.Count; i++ {
		write([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":"flood-%d","method":"ping"}`, i)))
	}
	if a.Deaf {
		fmt.Fprintln(os.Stderr, "badserver: pingflood done, no longer reading")
		hang()
	}
	write(resultFrame(req.ID, textResult(fmt.Sprintf("sent %d pings", a.Count))))
}

func stdoutclose(req request, _ json.RawMessage) {
	write(resultFrame(req.ID, textResult("closing stdout now")))
	outMu.Lock()
	os.Stdout.Close()
	outMu.Unlock()
	fmt.Fprintln(os.Stderr, "badserver: stdout closed, still running")
}
