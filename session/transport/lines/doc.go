// Package lines cuts a byte stream into lines and keeps the last lines of one. It is the
// one line splitter of stdio: the stdio transport reads a server's stdout and stderr with
// it, and so does the tap (package recordings), so a line is the same line, with the same
// bounds, whichever of them read it.
//
// A Splitter takes the stream in pieces of any size, as they are read, and emits each line
// without its "\n" (a "\r" before it stays). A line longer than Max is emitted either
// truncated (its first Head bytes, with its full size: stdout frames) or in pieces of Max
// bytes (stderr). However long a line, the Splitter holds at most Max bytes of it.
//
// A Tail keeps the last N lines it was given: the stderr lines an exit carries.
//
// The package imports nothing of mcpscope's, so the transport and the recordings can both
// use it.
package lines
