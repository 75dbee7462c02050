// Command badserver is an MCP server over stdio that misbehaves on purpose, for testing how
// mcpscope copes with broken servers. It speaks newline-delimited JSON-RPC, answers
// initialize, ping, tools/list and tools/call, and each tool breaks the protocol or the
// transport in one particular way:
//
//	echo         a normal answer: the arguments back as text
//	split        one response written in three pieces with pauses between
//	huge         a single 20 MB line (size set by -huge-size)
//	badutf8      a response holding bytes that are not UTF-8
//	unknownid    a response to an id nobody asked for, then the real one
//	duplicate    the response twice
//	resulterror  a response with both result and error
//	crash        two stderr lines, then exit code 3 without answering
//	stall        never answers, keeps reading
//	deaf         never answers and stops reading stdin, so the client's writes back up
//	notjson      a line of garbage, then the real response
//
// A batch (a line that is an array) is answered by one batch, in reverse order.
//
// Other files add tools with register (floods, detached children, ...); each says what its
// tools do.
//
// It writes "badserver: ready" on stderr at start and exits when stdin closes.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"time"
)

var (
	banner           = flag.Bool("banner", false, "print a non-JSON banner line on stdout first")
	ignoreStdinClose = flag.Bool("ignore-stdin-close", false, "keep running after stdin closes")
	ignoreSigterm    = flag.Bool("ignore-sigterm", false, "ignore SIGTERM")
	hugeSize         = flag.Int("huge-size", 20<<20, "size in bytes of the huge tool's text")
	startDelay       = flag.Duration("start-delay", 0, "wait this long before reading stdin (a slow start)")
)

// tools is what tools/list reports, in order.
var tools = []struct{ name, desc string }{
	{"echo", "answers normally with its arguments"},
	{"split", "writes its response in three pieces"},
	{"huge", "answers with one very long line"},
	{"badutf8", "answers with bytes that are not UTF-8"},
	{"unknownid", "first answers an id nobody asked for"},
	{"duplicate", "answers twice"},
	{"resulterror", "answers with both result and error"},
	{"crash", "exits with code 3 without answering"},
	{"stall", "never answers"},
	{"deaf", "never answers and stops reading stdin"},
	{"notjson", "writes a garbage line before answering"},
}

// extra holds the tools other files of this fixture add with register, listed after the
// built-in ones in name order.
var extra = map[string]extraTool{}

type extraTool struct {
	desc   string
	run    func(req request, args json.RawMessage)
	hidden bool // listed by its file's listHook, not here
}

// listHook, when a file of this fixture sets it, changes the tools/list response frame
// before it is written.
var listHook func(frame []byte) []byte

// capsHook, when a file of this fixture sets it, adds to the capabilities initialize
// declares; methods answers requests of other methods by name.
var (
	capsHook func(caps map[string]any)
	methods  = map[string]func(req request){}
)

// register adds a tool; call it from an init function.
func register(name, desc string, run func(req request, args json.RawMessage)) {
	extra[name] = extraTool{desc: desc, run: run}
}

// registerHidden adds a tool that tools/list does not list unless its file's listHook does.
func registerHidden(name string, run func(req request, args json.RawMessage)) {
	extra[name] = extraTool{run: run, hidden: true}
}

var (
	outMu sync.Mutex
	out   = os.Stdout
)

// write puts b and a newline on stdout in one write.
func write(b []byte) {
	outMu.Lock()
	defer outMu.Unlock()
	out.Write(append(b, '\n'))
}

// request is an incoming message; id stays raw so it is echoed exactly.
type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

func main() {
	flag.Parse()
	if *ignoreSigterm {
		signal.Ignore(syscall.SIGTERM)
	}
	if *banner {
		write([]byte("badserver 0.1 starting up (this line is not JSON)"))
	}
	time.Sleep(*startDelay)
	fmt.Fprintln(os.Stderr, "badserver: ready")

	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			handle(line)
		}
		if err != nil {
			if err != io.EOF {
				fmt.Fprintln(os.Stderr, "badserver: read:", err)
			}
			break
		}
	}
	fmt.Fprintln(os.Stderr, "badserver: stdin closed")
	if *ignoreStdinClose {
		hang()
	}
}

// hang blocks until the process is killed.
func hang() {
	for {
		time.Sleep(time.Hour)
	}
}

// handle answers one line.
func handle(line []byte) {
	if handleBatch(line) {
		return
	}
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		write(errorFrame(json.RawMessage("null"), -32700, "parse error: "+err.Error()))
		return
	}
	isRequest := len(req.ID) > 0 && string(req.ID) != "null"
	switch req.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		json.Unmarshal(req.Params, &p)
		version := "2025-11-25"
		switch p.ProtocolVersion {
		case "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25":
			version = p.ProtocolVersion
		}
		caps := map[string]any{"tools": map[string]any{}}
		if capsHook != nil {
			capsHook(caps)
		}
		write(resultFrame(req.ID, map[string]any{
			"protocolVersion": version,
			"capabilities":    caps,
			"serverInfo":      map[string]any{"name": "badserver", "version": "0.1.0"},
		}))
	case "ping":
		write(resultFrame(req.ID, map[string]any{}))
	case "tools/list":
		list := make([]map[string]any, 0, len(tools))
		for _, t := range tools {
			list = append(list, map[string]any{
				"name":        t.name,
				"description": t.desc,
				"inputSchema": map[string]any{"type": "object"},
			})
		}
		names := make([]string, 0, len(extra))
		for name, t := range extra {
			if !t.hidden {
				names = append(names, name)
			}
		}
		sort.Strings(names)
		for _, name := range names {
			list = append(list, map[string]any{
				"name":        name,
				"description": extra[name].desc,
				"inputSchema": map[string]any{"type": "object"},
			})
		}
		frame := resultFrame(req.ID, map[string]any{"tools": list})
		if listHook != nil {
			frame = listHook(frame)
		}
		write(frame)
	case "tools/call":
		callTool(req)
	default:
		if h := methods[req.Method]; h != nil && isRequest {
			h(req)
			return
		}
		if isRequest {
			write(errorFrame(req.ID, -32601, "method not found: "+req.Method))
		}
	}
}

// callTool runs one tool.
func callTool(req request) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	json.Unmarshal(req.Params, &p)
	args := string(p.Arguments)
	if args == "" {
		args = "{}"
	}
	normal := resultFrame(req.ID, textResult(p.Name+" "+args))
	switch p.Name {
	case "echo":
		write(normal)
	case "split":
		// os.Stdout is unbuffered: each Write reaches the pipe at once.
		outMu.Lock()
		b := append(normal, '\n')
		third := len(b) / 3
		for i, part := range [][]byte{b[:third], b[third : 2*third], b[2*third:]} {
			if i > 0 {
				time.Sleep(30 * time.Millisecond)
			}
			out.Write(part)
		}
		outMu.Unlock()
	case "huge":
		write(resultFrame(req.ID, textResult(string(bytes.Repeat([]byte("x"), *hugeSize)))))
	case "badutf8":
		// Built by hand: encoding/json would replace the bad bytes.
		frame := []byte(`{"jsonrpc":"2.0","id":` + string(req.ID) +
			`,"result":{"content":[{"type":"text","text":"bad ` + "\xff\xfe \xc3\x28" + ` bytes"}]}}`)
		write(frame)
	case "unknownid":
		write(resultFrame(json.RawMessage(`"nobody-asked-for-this"`), textResult("surprise")))
		write(normal)
	case "duplicate":
		write(normal)
		write(normal)
	case "resulterror":
		write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) +
			`,"result":{"content":[]},"error":{"code":-32603,"message":"both result and error"}}`))
	case "crash":
		fmt.Fprintln(os.Stderr, "badserver: something went badly wrong")
		fmt.Fprintln(os.Stderr, "badserver: crashing with code 3")
		os.Exit(3)
	case "stall":
	case "deaf":
		hang()
	case "notjson":
		write([]byte("}{ this is not json"))
		write(normal)
	default:
		if t, ok := extra[p.Name]; ok {
			t.run(req, p.Arguments)
			return
		}
		write(errorFrame(req.ID, -32602, "unknown tool: "+strconv.Quote(p.Name)))
	}
}

// textResult is a CallToolResult holding one text item.
func textResult(text string) map[string]any {
	return map[string]any{"content": []map[string]any{{"type": "text", "text": text}}}
}

// resultFrame encodes a success response.
func resultFrame(id json.RawMessage, result any) []byte {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	if err != nil {
		panic(err)
	}
	return b
}

// errorFrame encodes an error response.
func errorFrame(id json.RawMessage, code int, msg string) []byte {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": code, "message": msg}})
	if err != nil {
		panic(err)
	}
	return b
}
