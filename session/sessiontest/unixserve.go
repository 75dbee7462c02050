package sessiontest

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
)

// ServeUnixOnce listens on the unix socket at path (creating its directory, 0700) and
// writes content to the first connection, then closes it: a stand-in for a program that
// speaks a line protocol on a socket, such as a tap of another version. The listener closes
// when the test ends.
func ServeUnixOnce(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		io.WriteString(c, content)
	}()
}
