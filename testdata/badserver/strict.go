package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"strconv"
)

// Input validation as a protocol error:
//
//	-strict-tool  tools/list also lists a read-only tool "strict" whose inputSchema asks for
//	              an integer n; arguments without one are answered with JSON-RPC error
//	              -32602, which 2025-11-25 makes a tool execution error (isError: true)
var strictTool = flag.Bool("strict-tool", false, "list a read-only tool \"strict\" that answers arguments failing its inputSchema with JSON-RPC error -32602")

func init() {
	registerHidden("strict", strict)
	prev := listHook
	listHook = func(frame []byte) []byte {
		if prev != nil {
			frame = prev(frame)
		}
		if !*strictTool {
			return frame
		}
		tool := `{"name":"strict","description":"doubles the integer n","annotations":{"readOnlyHint":true},` +
			`"inputSchema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}},`
		return bytes.Replace(frame, []byte(`"tools":[`), []byte(`"tools":[`+tool), 1)
	}
}

// strict answers {"n": integer} with twice n, and anything else with -32602.
func strict(req request, raw json.RawMessage) {
	var a map[string]json.RawMessage
	var n int64
	if json.Unmarshal(raw, &a) != nil || a["n"] == nil || json.Unmarshal(a["n"], &n) != nil {
		write(errorFrame(req.ID, -32602, "invalid arguments: n must be an integer"))
		return
	}
	write(resultFrame(req.ID, textResult(strconv.FormatInt(2*n, 10))))
}
