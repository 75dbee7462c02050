package cli

import (
	_ "embed"
	"io"
	"os"
	"reflect"
	"strconv"

	"github.com/alecthomas/kong"
	"github.com/charmbracelet/x/term"
)

// The top-level help (`mcpscope --help`, `-h`) shows the global flags and each command's
// name and one-line help, nothing of a command's own flags or arguments. kong would
// reflect over all of them first (about 2 ms of the 3.5 ms it takes), then wrap every
// paragraph with go/doc. At 80 columns (where kong wraps when stdout is not a terminal and
// $COLUMNS is not set, and an 80-column terminal) the text is help80.txt, what kong
// prints, kept so by TestHelp80 (`go test ./ui/cli -run TestHelp80 -update-help` writes
// it). At another width kong wraps it, from a model of CLI's shape with the commands' own
// fields left out (TestQuickHelpSame compares it with the full parser's at several widths).

//go:embed help80.txt
var help80 string

// quickHelp prints the top-level help when args ask for exactly that. It reports whether
// it did.
func quickHelp(args, command []string, stdout, stderr io.Writer) (code int, ok bool) {
	if len(args) != 1 || command != nil || (args[0] != "--help" && args[0] != "-h") {
		return 0, false
	}
	if helpWidth(stdout) == 80 {
		if _, err := io.WriteString(stdout, help80); err != nil {
			return ExitFailure, true
		}
		return 0, true
	}
	exited := -1
	parser, err := kong.New(topHelpModel(), kongOptions(stdout, stderr, func(code int) { exited = code })...)
	if err != nil {
		return 0, false // the full parser says what is wrong
	}
	_, _ = parser.Parse(args) // help ends the parse: kong calls exit, then returns
	if exited < 0 {
		return 0, false
	}
	return exited, true
}

// helpWidth is the width kong wraps help to on w: $COLUMNS when it is a number, else the
// terminal's, else 80.
func helpWidth(w io.Writer) int {
	if cols, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil {
		return cols
	}
	if f, ok := w.(*os.File); ok {
		if width, _, err := term.GetSize(f.Fd()); err == nil && width > 0 {
			return width
		}
	}
	return 80
}

// topHelpModel is a new value of CLI's shape for the top-level help: the global flags as
// they are, each command (and subcommand) with its tags but none of its own fields.
func topHelpModel() any {
	return reflect.New(commandsOnly(reflect.TypeFor[CLI](), true)).Interface()
}

// commandsOnly is t with only its command fields, each made of its own commands only; top
// keeps the other fields (the global flags) too.
func commandsOnly(t reflect.Type, top bool) reflect.Type {
	var fields []reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		if _, cmd := f.Tag.Lookup("cmd"); cmd {
			f.Type = commandsOnly(f.Type, false)
		} else if !top {
			continue
		} else if f.Anonymous {
			f.Anonymous = false // a promoted method cannot be made; kong's embed tag embeds it
		}
		fields = append(fields, f)
	}
	return reflect.StructOf(fields)
}

// kongOptions are the parser's options: the full parser's and quickHelp's.
func kongOptions(stdout, stderr io.Writer, exit func(int)) []kong.Option {
	return []kong.Option{
		kong.Name("mcpscope"),
		kong.Description("An interactive inspector and debugger for MCP servers. Server selection: -- CMD ARGS... (stdio), --url URL, or --config FILE --server NAME; with none, the built-in demo server."),
		kong.UsageOnError(),
		kong.Writers(stdout, stderr),
		kong.Exit(exit),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.Help(helpPrinter),
		kong.Vars{"version": versionLine()},
	}
}
