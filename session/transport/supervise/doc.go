// Package supervise is the small process that stands between mcpscope and a stdio server on
// Linux, so that nothing the server starts outlives mcpscope, whichever way mcpscope ends.
//
// The transport starts the supervisor by running mcpscope's own executable again with
// argv[0] Arg0 and EnvKey=EnvValue in its environment; this package's init function
// recognises that and runs the supervisor instead of the program, before the heavier
// packages of the program are initialised (it imports little, so it is initialised early).
// Every binary that links the transport (mcpscope, and every test binary) can therefore be
// re-executed as a supervisor: nothing has to call a hook from main or TestMain.
//
// The supervisor makes itself a child subreaper (PR_SET_CHILD_SUBREAPER), so a descendant
// of the server whose parent exits (a daemon that called setsid and forked again) is
// re-parented to it rather than to init, and spawns the server as the leader of its own
// process group with the three standard streams it was given. It then reports the server's
// pid and, when the server exits, its exact wait status on the status pipe (file descriptor
// StatusFD), and takes signals to pass on to the server's group on the control pipe
// (ControlFD, one byte per signal). When the control pipe reaches end of file because
// mcpscope is gone (even by SIGKILL), the server's stdin has closed with it, and the
// supervisor goes on with the close sequence: a grace period for the server to exit, SIGTERM
// to its group, another grace period, then SIGKILL to the group and every descendant. When
// the server has exited, every remaining descendant (found in /proc by parent pid) gets
// SIGTERM, then SIGKILL after the grace period. The supervisor reaps them all and exits when
// it has no child left.
//
// On other systems the package is empty: the transport spawns the server itself and kills
// its process group.
package supervise

// The protocol between the transport and the supervisor.
const (
	// EnvKey and EnvValue in the environment, with Arg0 as argv[0], select the supervisor.
	// The supervisor removes EnvKey before starting the server.
	EnvKey   = "MCPSCOPE_SUPERVISOR"
	EnvValue = "1"
	// Arg0 is the supervisor's argv[0]; its arguments are the grace period in
	// milliseconds, the server's resolved path, and the server's argv.
	Arg0 = "mcpscope-supervisor"
	// StatusFD is where the supervisor writes lines: "pid N" once the server runs,
	// "error TEXT" when it could not be started, "exit W" with the raw wait status when it
	// has exited.
	StatusFD = 3
	// ControlFD is where it reads one byte per signal to pass on to the server's process
	// group; SIGKILL kills the group and every descendant. End of file means mcpscope is
	// gone: everything is killed.
	ControlFD = 4
)
