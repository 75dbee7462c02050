// Command taskserver is an MCP server over stdio whose tools run as tasks, for testing
// mcpscope's task support in both eras: the tasks of 2025-11-25 (a task member in the
// request, tasks/get, tasks/result, tasks/list, tasks/cancel, input through requests sent
// while tasks/result is open) and the tasks extension of 2026-07-28 (declared per request,
// results inlined in tasks/get, input through inputRequests and tasks/update). It answers
// server/discover with both revisions, so `--protocol auto` picks 2026-07-28 and
// `--protocol 2025-11-25` the earlier era. Tools:
//
//	sleep    (task optional) waits `seconds`, sending progress, then answers "slept"
//	confirm  (task required) asks the client to confirm by elicitation, then answers with it
//	fail     (task optional) ends with a JSON-RPC error (a failed task)
//
// Flags: -poll sets the pollInterval it suggests (milliseconds).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"sync"
	"time"
)

var pollMs = flag.Int("poll", 200, "pollInterval suggested to clients, in milliseconds")

const (
	modern  = "2026-07-28"
	legacy  = "2025-11-25"
	extID   = "io.modelcontextprotocol/tasks"
	relMeta = "io.modelcontextprotocol/related-task"
	ttlMs   = 60000
)

var outMu sync.Mutex

// send writes one message as a line.
func send(v any) {
	b, _ := json.Marshal(v)
	outMu.Lock()
	defer outMu.Unlock()
	os.Stdout.Write(append(b, '\n'))
}

type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

func reply(id json.RawMessage, result any) {
	send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func fail(id json.RawMessage, code int, msg string, data any) {
	e := map[string]any{"code": code, "message": msg}
	if data != nil {
		e["data"] = data
	}
	send(map[string]any{"jsonrpc": "2.0", "id": id, "error": e})
}

// task is one task's state; mu guards every task.
type task struct {
	id, status, message, tool string
	modernEra                 bool
	created, updated          time.Time
	result                    map[string]any // the tool result
	rpcErr                    map[string]any // a JSON-RPC error (failed)
	inputs                    map[string]any // outstanding input requests (2026-07-28)
	answer                    chan json.RawMessage
	done                      chan struct{}
	stop                      chan struct{}
}

var (
	mu      sync.Mutex
	tasks   = map[string]*task{}
	order   []string
	nextID  int
	waiting = map[string]chan json.RawMessage{} // our request id → the client's answer
	wanted  = map[string]chan struct{}{}        // task id → closed when tasks/result is called
)

func (t *task) view() map[string]any {
	v := map[string]any{"taskId": t.id, "status": t.status, "createdAt": t.created.Format(time.RFC3339Nano),
		"lastUpdatedAt": t.updated.Format(time.RFC3339Nano)}
	if t.message != "" {
		v["statusMessage"] = t.message
	}
	if t.modernEra {
		v["ttlMs"], v["pollIntervalMs"] = ttlMs, *pollMs
		switch {
		case t.status == "completed":
			v["result"] = t.result
		case t.status == "failed":
			v["error"] = t.rpcErr
		case t.status == "input_required":
			v["inputRequests"] = t.inputs
		}
	} else {
		v["ttl"], v["pollInterval"] = ttlMs, *pollMs
	}
	return v
}

func (t *task) set(status, msg string) {
	mu.Lock()
	defer mu.Unlock()
	if t.status == "completed" || t.status == "failed" || t.status == "cancelled" {
		return
	}
	t.status, t.message, t.updated = status, msg, time.Now()
	if status == "completed" || status == "failed" || status == "cancelled" {
		close(t.done)
	}
}

func main() {
	flag.Parse()
	fmt.Fprintln(os.Stderr, "taskserver: ready")
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	for in.Scan() {
		var m message
		if json.Unmarshal(in.Bytes(), &m) != nil {
			continue
		}
		if m.Method == "" && len(m.ID) > 0 {
			mu.Lock()
			ch := waiting[string(m.ID)]
			delete(waiting, string(m.ID))
			mu.Unlock()
			if ch != nil {
				ch <- m.Result // nil for an error answer
			}
			continue
		}
		handle(m)
	}
}

// requestMeta reads the per-request protocol version and whether the tasks extension is
// declared (2026-07-28).
func requestMeta(params json.RawMessage) (version string, tasksExt bool, token json.RawMessage) {
	var p struct {
		Meta struct {
			Version string          `json:"io.modelcontextprotocol/protocolVersion"`
			Token   json.RawMessage `json:"progressToken"`
			Caps    struct {
				Extensions map[string]json.RawMessage `json:"extensions"`
			} `json:"io.modelcontextprotocol/clientCapabilities"`
		} `json:"_meta"`
	}
	json.Unmarshal(params, &p)
	_, ok := p.Meta.Caps.Extensions[extID]
	return p.Meta.Version, ok, p.Meta.Token
}

func handle(m message) {
	version, ext, _ := requestMeta(m.Params)
	modernReq := version == modern
	var p struct {
		TaskID string `json:"taskId"`
		Cursor string `json:"cursor"`
	}
	json.Unmarshal(m.Params, &p)
	switch m.Method {
	case "server/discover":
		reply(m.ID, map[string]any{"supportedVersions": []string{modern, legacy}, "resultType": "complete",
			"capabilities": map[string]any{"tools": map[string]any{}, "extensions": map[string]any{extID: map[string]any{}}},
			"serverInfo":   map[string]any{"name": "taskserver", "version": "0.1.0"}, "ttlMs": 0, "cacheScope": "public"})
	case "initialize":
		reply(m.ID, map[string]any{"protocolVersion": legacy, "serverInfo": map[string]any{"name": "taskserver", "version": "0.1.0"},
			"capabilities": map[string]any{"tools": map[string]any{}, "tasks": map[string]any{"list": map[string]any{},
				"cancel": map[string]any{}, "requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}}})
	case "notifications/initialized", "notifications/cancelled":
	case "ping":
		reply(m.ID, map[string]any{})
	case "tools/list":
		reply(m.ID, complete(modernReq, map[string]any{"tools": toolList(modernReq)}))
	case "tools/call":
		callTool(m, modernReq, ext)
	case "tasks/get", "tasks/cancel", "tasks/update", "tasks/result":
		if modernReq && !ext {
			fail(m.ID, -32021, "Missing required client capability", map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{extID: map[string]any{}}}})
			return
		}
		taskMethod(m, p.TaskID, modernReq)
	case "tasks/list":
		listTasks(m, p.Cursor)
	default:
		if len(m.ID) > 0 {
			fail(m.ID, -32601, "method not found: "+m.Method, nil)
		}
	}
}

// complete adds resultType "complete" in 2026-07-28.
func complete(modernReq bool, r map[string]any) map[string]any {
	if modernReq {
		r["resultType"] = "complete"
	}
	return r
}

func toolList(modernReq bool) []map[string]any {
	obj := func(props map[string]any) map[string]any {
		return map[string]any{"type": "object", "properties": props}
	}
	tools := []map[string]any{
		{"name": "sleep", "description": "waits, then answers", "inputSchema": obj(map[string]any{"seconds": map[string]any{"type": "number"}}), "support": "optional"},
		{"name": "confirm", "description": "asks for confirmation", "inputSchema": obj(map[string]any{}), "support": "required"},
		{"name": "fail", "description": "fails with a JSON-RPC error", "inputSchema": obj(map[string]any{}), "support": "optional"},
	}
	for _, t := range tools {
		if !modernReq {
			t["execution"] = map[string]any{"taskSupport": t["support"]}
		}
		delete(t, "support")
	}
	return tools
}

func callTool(m message, modernReq, ext bool) {
	var p struct {
		Name string          `json:"name"`
		Task json.RawMessage `json:"task"`
		Args struct {
			Seconds float64 `json:"seconds"`
		} `json:"arguments"`
	}
	json.Unmarshal(m.Params, &p)
	asTask := (modernReq && ext) || (!modernReq && len(p.Task) > 0)
	if p.Name != "sleep" && p.Name != "confirm" && p.Name != "fail" {
		fail(m.ID, -32602, "unknown tool "+p.Name, nil)
		return
	}
	if !asTask {
		switch {
		case p.Name == "confirm" && modernReq:
			fail(m.ID, -32021, "Missing required client capability", map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{extID: map[string]any{}}}})
		case p.Name == "confirm":
			fail(m.ID, -32601, "confirm must be called as a task", nil)
		case p.Name == "fail":
			fail(m.ID, -32603, "the job broke", nil)
		default:
			time.Sleep(time.Duration(p.Args.Seconds * float64(time.Second)))
			reply(m.ID, complete(modernReq, text("slept")))
		}
		return
	}
	_, _, token := requestMeta(m.Params)
	mu.Lock()
	nextID++
	now := time.Now()
	t := &task{id: "task-" + strconv.Itoa(nextID), status: "working", tool: p.Name, modernEra: modernReq, created: now, updated: now,
		answer: make(chan json.RawMessage, 1), done: make(chan struct{}), stop: make(chan struct{})}
	tasks[t.id] = t
	order = append(order, t.id)
	wanted[t.id] = make(chan struct{})
	view := t.view()
	mu.Unlock()
	if modernReq {
		view["resultType"] = "task"
		reply(m.ID, view)
	} else {
		reply(m.ID, map[string]any{"task": view})
	}
	go run(t, p.Args.Seconds, token)
}

func text(s string) map[string]any {
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}, "isError": false}
}

// run does a task's work.
func run(t *task, seconds float64, token json.RawMessage) {
	switch t.tool {
	case "sleep":
		steps := 4
		for i := 1; i <= steps; i++ {
			select {
			case <-t.stop:
				return
			case <-time.After(time.Duration(seconds * float64(time.Second) / float64(steps))):
			}
			if len(token) > 0 {
				send(map[string]any{"jsonrpc": "2.0", "method": "notifications/progress", "params": map[string]any{
					"progressToken": token, "progress": i, "total": steps, "_meta": map[string]any{relMeta: map[string]any{"taskId": t.id}}}})
			}
		}
		mu.Lock()
		t.result = text("slept")
		mu.Unlock()
		t.set("completed", "")
	case "fail":
		mu.Lock()
		t.rpcErr = map[string]any{"code": -32603, "message": "the job broke"}
		mu.Unlock()
		t.set("failed", "the job broke")
	case "confirm":
		answer, ok := ask(t)
		if !ok {
			return
		}
		if answer == nil {
			mu.Lock()
			t.rpcErr = map[string]any{"code": -32603, "message": "the client refused the elicitation"}
			mu.Unlock()
			t.set("failed", "no confirmation")
			return
		}
		mu.Lock()
		t.result = text("confirmed: " + string(answer))
		mu.Unlock()
		t.set("completed", "")
	}
}

// ask gets the client's answer to an elicitation: as inputRequests (2026-07-28), or as an
// elicitation/create request once the client calls tasks/result (2025-11-25).
func ask(t *task) (answer json.RawMessage, ok bool) {
	params := map[string]any{"mode": "form", "message": "Proceed?", "requestedSchema": map[string]any{"type": "object",
		"properties": map[string]any{"ok": map[string]any{"type": "boolean", "default": true}}}}
	mu.Lock()
	if t.modernEra {
		t.inputs = map[string]any{"proceed": map[string]any{"method": "elicitation/create", "params": params}}
	}
	mu.Unlock()
	t.set("input_required", "waiting for confirmation")
	if !t.modernEra {
		mu.Lock()
		w := wanted[t.id]
		mu.Unlock()
		select {
		case <-w:
		case <-t.stop:
			return nil, false
		}
		params["_meta"] = map[string]any{relMeta: map[string]any{"taskId": t.id}}
		ch := make(chan json.RawMessage, 1)
		mu.Lock()
		nextID++
		id := `"ask-` + strconv.Itoa(nextID) + `"`
		waiting[id] = ch
		mu.Unlock()
		send(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": "elicitation/create", "params": params})
		go func() { t.answer <- <-ch }()
	}
	select {
	case a := <-t.answer:
		mu.Lock()
		t.inputs = nil
		mu.Unlock()
		t.set("working", "")
		return a, true
	case <-t.stop:
		return nil, false
	}
}

func taskMethod(m message, id string, modernReq bool) {
	mu.Lock()
	t := tasks[id]
	mu.Unlock()
	if t == nil {
		fail(m.ID, -32602, "Failed to retrieve task: Task not found", nil)
		return
	}
	switch m.Method {
	case "tasks/get":
		mu.Lock()
		v := t.view()
		mu.Unlock()
		reply(m.ID, complete(modernReq, v))
	case "tasks/update":
		var p struct {
			Inputs map[string]json.RawMessage `json:"inputResponses"`
		}
		json.Unmarshal(m.Params, &p)
		if a, ok := p.Inputs["proceed"]; ok {
			select {
			case t.answer <- a:
			default:
			}
		}
		reply(m.ID, map[string]any{"resultType": "complete"})
	case "tasks/cancel":
		mu.Lock()
		terminal := t.status == "completed" || t.status == "failed" || t.status == "cancelled"
		mu.Unlock()
		if terminal && !modernReq {
			fail(m.ID, -32602, "task "+id+" is already "+t.status, nil)
			return
		}
		if !terminal {
			t.set("cancelled", "The task was cancelled by request.")
			close(t.stop)
		}
		mu.Lock()
		v := t.view()
		mu.Unlock()
		if modernReq {
			reply(m.ID, map[string]any{"resultType": "complete"})
		} else {
			reply(m.ID, v)
		}
	case "tasks/result":
		mu.Lock()
		w := wanted[id]
		select {
		case <-w:
		default:
			close(w)
		}
		mu.Unlock()
		go func() {
			<-t.done
			mu.Lock()
			defer mu.Unlock()
			meta := map[string]any{relMeta: map[string]any{"taskId": id}}
			switch t.status {
			case "completed":
				r := map[string]any{"_meta": meta}
				for k, v := range t.result {
					r[k] = v
				}
				reply(m.ID, r)
			case "failed":
				fail(m.ID, -32603, fmt.Sprint(t.rpcErr["message"]), nil)
			default:
				fail(m.ID, -32800, "task cancelled", nil)
			}
		}()
	}
}

// listTasks answers tasks/list two tasks a page.
func listTasks(m message, cursor string) {
	mu.Lock()
	defer mu.Unlock()
	ids := append([]string(nil), order...)
	sort.Strings(ids)
	start := 0
	if cursor != "" {
		n, err := strconv.Atoi(cursor)
		if err != nil || n < 0 || n > len(ids) {
			fail(m.ID, -32602, "invalid cursor", nil)
			return
		}
		start = n
	}
	end := min(start+2, len(ids))
	page := []any{}
	for _, id := range ids[start:end] {
		page = append(page, tasks[id].view())
	}
	r := map[string]any{"tasks": page}
	if end < len(ids) {
		r["nextCursor"] = strconv.Itoa(end)
	}
	reply(m.ID, r)
}
