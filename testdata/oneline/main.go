// Command oneline prints one line: the floor BenchmarkStartup measures `mcpscope version`
// and `mcpscope --help` against (a Go program's process start and exit).
package main

import "fmt"

func main() { fmt.Println("oneline 0.1.0") }
