package cli

import (
	"fmt"
	"io"
)

// quickVersion answers `mcpscope version` and `mcpscope --version` without building the
// command line's parser. kong reflects over every command and flag of CLI (a few
// milliseconds, most of what those two commands would cost after the process starts) and
// nothing of it is needed to print one line. It reports whether args were one of the two;
// anything else (another argument, a server after --) goes through the parser.
func quickVersion(args, command []string, stdout io.Writer) (code int, ok bool) {
	if len(args) != 1 || command != nil || (args[0] != "version" && args[0] != "--version") {
		return 0, false
	}
	if _, err := fmt.Fprintln(stdout, versionLine()); err != nil {
		return ExitFailure, true
	}
	return 0, true
}
