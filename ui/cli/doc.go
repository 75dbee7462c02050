// Package cli is mcpscope's command line (kong): the interactive view (the default command,
// open.go), the headless commands (info, list, call, read, prompt, complete, skills, rpc,
// check, diff, replay, mock, stats, export, tap, attach, auth, demo, version), and the
// server selection flags shared by all (ServerFlags, server.go). Results go to stdout as
// JSON, diagnostics to stderr, and every failure maps to a documented exit code (exit.go).
//
// # Where things are
//
// cli.go holds the CLI struct and the runner: newSession makes a session with --trace and
// --record wired in; connect and connectOneShot connect it. commands.go holds the
// one-shot commands; a command is a struct with Run(*runner) error, listed in CLI. One
// file per command group after that: check.go and check_report.go, pin.go (diff) and
// pin_check.go (check --pin), replay.go, mock.go, tap.go, attach.go, export.go, stats.go,
// auth.go and authext.go, skills.go, task.go. picker.go turns the hosts' config files into
// the view's server list; reproduce.go is "copy as command"; record.go the recording's
// header and masking (specSecrets).
package cli
