//go:build !unix && !windows

package recordings

import (
	"errors"
	"os"
)

// ownedByMe cannot tell owners apart here; the directory is the user's own.
func ownedByMe(os.FileInfo) bool { return true }

// makePrivate has no owner or mode to check or set here.
func makePrivate(string, os.FileInfo) error { return nil }

// isPrivate cannot tell owners apart here.
func isPrivate(string, os.FileInfo) bool { return true }

// restrictSocket has nothing to restrict here.
func restrictSocket(string) error { return nil }

var errNotMine = errors.New("not this user's")
