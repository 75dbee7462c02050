// Command callfloor is the floor `mcpscope call` is measured against: a client that spawns a
// stdio server, sends initialize, notifications/initialized and one tools/call, reads lines
// until the call's answer, decodes it (as any client must) and writes its result to stdout.
// Usage: callfloor TOOL ARGUMENTS-JSON COMMAND [ARG...].
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
)

func main() {
	cmd := exec.Command(os.Args[3], os.Args[4:]...)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	r := bufio.NewReaderSize(out, 64<<10)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"callfloor","version":"1"}}}`)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	fmt.Fprintf(in, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n", os.Args[1], os.Args[2])
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			fmt.Fprintln(os.Stderr, "no answer:", err)
			os.Exit(1)
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(line, &m) == nil && string(m.ID) == "2" {
			os.Stdout.Write(append(m.Result, '\n'))
			break
		}
	}
	in.Close()
	cmd.Wait()
}
