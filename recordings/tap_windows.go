package recordings

import (
	"errors"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// On Windows a tap listens on an AF_UNIX socket too (Windows 10 1803 and later): its
// directory is made this user's alone by its access control list, as mode 0700 does on
// Unix, and the socket inherits that list.

// ownedByMe cannot tell from a FileInfo; isPrivate and makePrivate read the owner.
func ownedByMe(os.FileInfo) bool { return true }

var errNotMine = errors.New("not this user's")

// currentUser is the SID of the user running mcpscope.
func currentUser() (*windows.SID, error) {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, err
	}
	return u.User.Sid, nil
}

// makePrivate makes the tap directory dir this user's alone: it must be owned by this
// user, and its access control list becomes one protected entry (no inherited ones) that
// lets this user, and no one else, do anything in it and on what it holds.
func makePrivate(dir string, _ os.FileInfo) error {
	me, err := currentUser()
	if err != nil {
		return err
	}
	sd, err := windows.GetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return err
	}
	if owner, _, err := sd.Owner(); err != nil || owner == nil || !owner.Equals(me) {
		return errNotMine
	}
	want, err := windows.SecurityDescriptorFromString("D:P(A;OICI;FA;;;" + me.String() + ")")
	if err != nil {
		return err
	}
	dacl, _, err := want.DACL()
	if err != nil {
		return err
	}
	return windows.SetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil)
}

// isPrivate reports whether the directory dir is owned by this user and its access control
// list allows no one else anything.
func isPrivate(dir string, _ os.FileInfo) bool {
	me, err := currentUser()
	if err != nil {
		return false
	}
	sd, err := windows.GetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT,
		windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return false
	}
	owner, _, err := sd.Owner()
	if err != nil || owner == nil || !owner.Equals(me) {
		return false
	}
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil { // no list at all lets everyone in
		return false
	}
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return false
		}
		switch ace.Header.AceType {
		case windows.ACCESS_DENIED_ACE_TYPE:
		case windows.ACCESS_ALLOWED_ACE_TYPE:
			if sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart)); !sid.Equals(me) {
				return false
			}
		default: // an entry of a kind not read here: not known to be private
			return false
		}
	}
	return true
}

// restrictSocket has nothing to add: the socket inherits its directory's list.
func restrictSocket(string) error { return nil }
