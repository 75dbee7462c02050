#!/usr/bin/env node
// The bin of the mcpscope npm package. npm installed the prebuilt binary for this platform
// as one of the package's optional dependencies, @mcpscope/<platform>-<arch>: the others
// were skipped by their os and cpu fields, and nothing was downloaded but packages. This
// script runs that binary with its own arguments, passes on the signals it gets, and ends
// as the binary ends: with its exit code, or killed by the same signal.
"use strict";

const { spawn } = require("node:child_process");

const platformPackage = `@mcpscope/${process.platform}-${process.arch}`;
const executable = process.platform === "win32" ? "mcpscope.exe" : "mcpscope";

let binary;
try {
  binary = require.resolve(`${platformPackage}/bin/${executable}`);
} catch {
  process.stderr.write(
    `mcpscope: there is no prebuilt binary for ${process.platform}-${process.arch} here: ` +
      `the package ${platformPackage} is not installed.\n` +
      "If npm skipped optional dependencies (--omit=optional, --no-optional), install again without that; " +
      "otherwise this platform has no release build: install with `go install github.com/mcpscope/mcpscope@latest`.\n",
  );
  process.exit(1);
}

const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });

// A terminal sends ^C (SIGINT), ^\ (SIGQUIT) and its hangup (SIGHUP) to its whole foreground
// process group, the binary included: this script only outlives them, waiting for the
// binary to end as it chooses. SIGTERM comes to this process alone (a process manager, a
// kill): it is passed on.
const handlers = new Map([
  ["SIGINT", () => {}],
  ["SIGQUIT", () => {}],
  ["SIGHUP", () => {}],
  ["SIGTERM", () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  }],
]);
for (const [sig, h] of handlers) {
  if (process.platform === "win32" && sig === "SIGQUIT") continue;
  process.on(sig, h);
}

child.on("error", (err) => {
  process.stderr.write(`mcpscope: cannot run ${binary}: ${err.message}\n`);
  process.exit(1);
});

child.on("exit", (code, signal) => {
  if (signal === null) {
    process.exit(code === null ? 1 : code);
  }
  // Killed by a signal: end by the same one, as a shell would see the binary end.
  for (const [sig, h] of handlers) process.removeListener(sig, h);
  process.kill(process.pid, signal);
  // Should the signal not end this process (one Node.js ignores), the shell's convention.
  setTimeout(() => process.exit(128 + (require("node:os").constants.signals[signal] || 0)), 1000);
});
