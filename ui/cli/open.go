package cli

import "fmt"

// Interactive runs the interactive inspector; the ui package sets it. Until it is set,
// opening mcpscope without a command prints the server's info instead.
var Interactive func(r Runner) error

// Runner is what the interactive view gets from the command line.
type Runner interface{}

func openInteractive(r *runner) error {
	if Interactive != nil {
		return Interactive(r)
	}
	fmt.Fprintln(r.stderr, "mcpscope: this build has no interactive view; showing the server's info (see --help for the commands)")
	return InfoCmd{}.Run(r)
}
