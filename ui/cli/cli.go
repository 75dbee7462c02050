package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/alecthomas/kong"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// CLI is the whole command line.
type CLI struct {
	ServerFlags `embed:""`

	VersionFlag kong.VersionFlag `name:"version" help:"Print mcpscope's version (as the version command does)."`

	Open     OpenCmd     `cmd:"" default:"withargs" help:"Open the interactive inspector on the selected server, or on a recording read-only (the default command: mcpscope [RECORDING])."`
	Info     InfoCmd     `cmd:"" help:"Connect, run the handshake and print what the server said about itself."`
	List     ListCmd     `cmd:"" help:"List the server's tools, resources, templates or prompts (every page)."`
	Call     CallCmd     `cmd:"" help:"Call a tool: mcpscope call TOOL key=value ... (values typed by the tool's inputSchema; key:=JSON for raw JSON)."`
	Read     ReadCmd     `cmd:"" help:"Read a resource."`
	App      AppCmd      `cmd:"" help:"Call a tool and host its MCP App in the browser, showing every app↔host message: mcpscope app TOOL key=value ... (--no-browser prints the URL)."`
	Prompt   PromptCmd   `cmd:"" help:"Get a prompt: mcpscope prompt NAME key=value ..."`
	Complete CompleteCmd `cmd:"" help:"Ask for argument completions of a prompt or resource template."`
	Card     CardCmd     `cmd:"" help:"Read a server's card (Server Cards extension) from every place one may be, validate it against the published schema and compare it with the live server: mcpscope card URL|HOST."`
	Check    CheckCmd    `cmd:"" help:"Exercise the server and report what it does against the spec (CI: --fail-on, --json): mcpscope check [server selection]."`
	Skills   SkillsCmd   `cmd:"" help:"List skills or load one (Skills extension): mcpscope skills list | get SKILL [FILE...]."`
	Events   EventsCmd   `cmd:"" help:"Event types and subscriptions (Events extension): mcpscope events list | poll|stream|webhook NAME [key=value ...]; NDJSON on stdout."`
	RPC      RPCCmd      `cmd:"" name:"rpc" help:"Send any method with any params, or any raw text, to test a server's error handling."`
	Replay   ReplayCmd   `cmd:"" help:"Re-send a recording's requests to a live server and compare the responses with the recorded ones."`
	Diff     DiffCmd     `cmd:"" help:"Compare the definitions (tools, prompts, resources, templates, instructions, capabilities) of two pin files, recordings or servers: diff A B, or diff A -- CMD ARGS. Exit code 1 when they differ, 9 when they could not be compared (a list failed)."`
	Mock     MockCmd     `cmd:"" help:"Serve a recording as an MCP server (stdio, or --http ADDR)."`
	Serve    ServeCmd    `cmd:"" help:"Serve mcpscope's tools over MCP (stdio, or --http ADDR) to a coding agent: connect, call, timeline, frame, check, pin, diff; every session recorded. connect starts the programs the agent names, as you."`
	Stats    StatsCmd    `cmd:"" help:"Print a recording's traffic per method: counts, errors, p50/p95/p99 latency, bytes each way (--json for JSON)."`
	Demo     DemoCmd     `cmd:"" help:"Run the built-in demo server (stdio, or --http ADDR; with --auth, protected by its own OAuth authorization server)."`
	Tap      TapCmd      `cmd:"" help:"Sit between a host and a server ([--] CMD ARGS, or --listen ADDR --upstream URL), forwarding everything unchanged, recording it and streaming it to viewers."`
	Export   ExportCmd   `cmd:"" help:"Export a recording: --format har (HAR 1.2), otlp (OpenTelemetry traces, to a file or an OTLP endpoint) or ndjson."`
	Attach   AttachCmd   `cmd:"" help:"Watch a running tap's traffic live in the interactive view, read-only (--ndjson: NDJSON events on stdout); --list lists the live taps."`
	Auth     AuthCmd     `cmd:"" name:"auth" help:"Authorization (OAuth) of an HTTP server: mcpscope auth login|status|logout --url URL (logout --all)."`
	Version  VersionCmd  `cmd:"" help:"Print mcpscope's version."`
}

// runner carries what every command needs.
type runner struct {
	// cardLog holds the card fetches of a bare --url host until a session publishes them.
	cardLog *exchangeLog
	ctx     context.Context
	flags   *ServerFlags
	command []string // after --
	stdin   io.Reader
	stdout  io.Writer
	stderr  io.Writer
	// ownFindings: the command reports findings itself (check), so no summary line.
	ownFindings bool
}

// Main runs mcpscope with args (without the program name) and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	args, command := splitCommand(args)
	if code, ok := quickVersion(args, command, stdout); ok {
		return code
	}
	if code, ok := quickHelp(args, command, stdout, stderr); ok {
		return code
	}
	var c CLI
	exited := -1
	parser, err := kong.New(&c, kongOptions(stdout, stderr, func(code int) { exited = code })...)
	if err != nil {
		fmt.Fprintln(stderr, "mcpscope:", err)
		return ExitFailure
	}
	kctx, err := parser.Parse(args)
	if exited >= 0 {
		return exited
	}
	if err != nil {
		fmt.Fprintln(stderr, "mcpscope:", c.screenMasker(command).String(err.Error()))
		return ExitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	r := &runner{ctx: ctx, flags: &c.ServerFlags, command: command, stdin: stdin, stdout: stdout, stderr: stderr, cardLog: &exchangeLog{}}
	name, _, _ := strings.Cut(kctx.Command(), " ")
	if name != "card" {
		// The interactive view offers a card's several remotes in its server picker.
		err = r.resolveHost(name == "open" && c.Open.File == "")
	}
	if err == nil {
		err = kctx.Run(r)
	}
	if err != nil && !errors.Is(err, errReported) {
		mask := c.screenMasker(command)
		// An error may quote the server (a JSON-RPC error's message, its stderr): what a
		// terminal must not get raw is escaped, as everywhere.
		fmt.Fprintln(stderr, "mcpscope:", escapeLines(mask.String(errorText(err))))
		var ce *session.ConnectError
		if errors.As(err, &ce) && len(ce.Stderr) > 0 {
			fmt.Fprintln(stderr, "last lines the server wrote on stderr:")
			for _, l := range ce.Stderr {
				fmt.Fprintln(stderr, "  "+jsonview.EscapeText(mask.String(l)))
			}
		}
	}
	var coded interface{ ExitCode() int }
	if errors.As(err, &coded) {
		return coded.ExitCode()
	}
	return exitCode(err)
}

// escapeLines is jsonview.EscapeText for text of several lines: the line feeds kept.
func escapeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = jsonview.EscapeText(l)
	}
	return strings.Join(lines, "\n")
}

// errReported wraps an error whose message was already printed.
var errReported = errors.New("reported")

// splitCommand separates the server command after the first "--".
func splitCommand(args []string) (flags, command []string) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:]
		}
	}
	return args, nil
}

// connect starts a session on the selected server, with --trace and --record wired in. The
// returned close function closes the session and waits for the trace and the recording to
// drain.
func (r *runner) connect() (*session.Session, func(), error) {
	return r.connectWith(nil)
}

// connectOneShot is connect for a command that sends its requests and cannot receive
// anything the server sends unasked: no standalone GET stream. The spec has a server send
// what relates to a request on that request's own stream (the POST's event stream), and
// on the standalone stream only what is unrelated to any request, which such a command
// has no use for; it saves a round trip and the server a stream.
func (r *runner) connectOneShot() (*session.Session, func(), error) {
	return r.connectWith(func(cfg *session.Config) { cfg.NoListen = true })
}

// connectWith is connect with adjust applied to the session's configuration.
func (r *runner) connectWith(adjust func(*session.Config)) (*session.Session, func(), error) {
	s, closeAll, err := r.newSession(adjust)
	if err != nil {
		return nil, nil, err
	}
	if err := s.Connect(r.ctx); err != nil {
		closeAll()
		return nil, nil, err
	}
	return s, closeAll, nil
}

// newSession makes a session on the selected server, with --trace and --record wired in,
// without connecting it; adjust, when given, changes the configuration first.
func (r *runner) newSession(adjust func(*session.Config)) (*session.Session, func(), error) {
	if r.flags.TraceDrain < 0 {
		return nil, nil, usageError{fmt.Errorf("--trace-drain %s: want 0 or a positive duration such as 1s", r.flags.TraceDrain)}
	}
	sp, err := r.flags.spec(r.command)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := r.flags.sessionConfig()
	if err != nil {
		return nil, nil, err
	}
	r.flags.eraCache(sp, &cfg)
	if adjust != nil {
		adjust(&cfg)
	}
	tr, err := sp.NewTransport()
	if err != nil {
		return nil, nil, usageError{err}
	}
	if cfg.Transport, err = r.withFaults(tr); err != nil {
		return nil, nil, err
	}
	var rec *recordings.Writer
	if r.flags.Record != "" {
		if rec, err = r.flags.createRecording(sp); err != nil {
			return nil, nil, err
		}
	}
	s := session.New(cfg)
	if rec != nil {
		rec.Record(s.SubscribeWith(session.SubscribeOptions{Lossless: true}))
	}
	var trace *traceWriter
	if r.flags.Trace {
		_, masking := r.flags.recordingSetup(sp)
		// The trace masks what a recording masks.
		trace = newTraceWriter(s.Subscribe(0), recordings.NewRedactor(masking), r.stderr)
	}
	r.reportCardExchanges(s)
	closeAll := func() {
		_ = s.Close()
		if text := s.FloodSummary(); text != "" {
			fmt.Fprintf(r.stderr, "mcpscope: %s: %s\n", protocol.FindRequestFlood, text)
		}
		if trace != nil {
			trace.finish(r.flags.TraceDrain)
		}
		r.findingsLine(s)
		if rec != nil {
			if err := rec.Close(); err != nil {
				fmt.Fprintln(r.stderr, "mcpscope: --record:", err)
			}
		}
	}
	return s, closeAll, nil
}

// findingsShown is the most finding codes the summary line names.
const findingsShown = 4

// findingsLine says on stderr, in one line, what findings the session saw, unless there
// were none, --quiet is given or the command reports them itself.
func (r *runner) findingsLine(s *session.Session) {
	if r.flags.Quiet || r.ownFindings {
		return
	}
	line := session.FindingsLine(s.Findings(), findingsShown)
	if line == "" {
		return
	}
	if !r.flags.Trace {
		line += "; --trace for details"
	}
	fmt.Fprintln(r.stderr, "mcpscope:", line)
}

// printJSON writes v to stdout as indented JSON; control characters and characters that
// hide or reorder text are written as \u escapes (jsonview.EscapeJSON), so the output means
// the same and shows them. Raw JSON is laid out as it streams to stdout (protocol.
// WriteIndented), so an answer of many megabytes is never held a second time.
func (r *runner) printJSON(v any) error {
	if items, ok := v.([]json.RawMessage); ok {
		// The items as they came, joined: encoding/json would refuse one nested too deeply.
		joined := []byte{'['}
		for i, it := range items {
			if i > 0 {
				joined = append(joined, ',')
			}
			joined = append(joined, it...)
		}
		v = json.RawMessage(append(joined, ']'))
	}
	var b []byte
	if raw, ok := v.(json.RawMessage); ok {
		err := protocol.WriteIndented(r.stdout, raw, "  ", jsonview.EscapeJSON)
		if err == nil {
			_, err = io.WriteString(r.stdout, "\n")
			return err
		}
		var werr *protocol.WriteError
		if errors.As(err, &werr) {
			return err
		}
		b = raw // not valid JSON, or nested too deeply to indent: print it as it came
		if errors.Is(err, protocol.ErrTooDeep) {
			fmt.Fprintf(r.stderr, "mcpscope: %s: the JSON nests beyond %d levels, deeper than JSON decoders accept; printed as received\n",
				protocol.FindTooDeep, protocol.MaxNesting)
		}
	} else {
		var err error
		if b, err = json.MarshalIndent(v, "", "  "); err != nil {
			return err
		}
	}
	// The same value, with what a terminal must not get raw written as \u escapes.
	_, err := fmt.Fprintf(r.stdout, "%s\n", jsonview.EscapeJSON(b))
	return err
}
