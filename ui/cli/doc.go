// Package cli is mcpscope's command line: the headless commands (info, list, call, read,
// prompt, complete, rpc), the demo server command, and the server selection flags shared
// with the interactive view. Results go to stdout as JSON, diagnostics to stderr, and every
// failure maps to a documented exit code.
package cli
