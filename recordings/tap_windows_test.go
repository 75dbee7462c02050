package recordings

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/windows"
)

// TestTapDirPrivateOnWindows: the tap directory gets an access control list of this user
// alone, and a directory whose list lets everyone in is not private.
func TestTapDirPrivateOnWindows(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "taps")
	t.Setenv(TapDirEnv, dir)
	got, moved, err := ensureTapDir()
	if err != nil || got != dir || moved != "" {
		t.Fatalf("ensureTapDir = %q, %q, %v", got, moved, err)
	}
	if !ownDir(dir) {
		t.Fatalf("%s is not private after ensureTapDir", dir)
	}
	open, err := windows.SecurityDescriptorFromString("D:P(A;OICI;FA;;;WD)") // Everyone
	if err != nil {
		t.Fatal(err)
	}
	dacl, _, err := open.DACL()
	if err != nil {
		t.Fatal(err)
	}
	if err := windows.SetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil); err != nil {
		t.Fatal(err)
	}
	if ownDir(dir) {
		t.Errorf("%s is private with an entry for Everyone", dir)
	}
	if _, _, err := ensureTapDir(); err != nil || !ownDir(dir) {
		t.Errorf("ensureTapDir again: %v; private %v", err, ownDir(dir))
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		t.Errorf("%s: %v", dir, err)
	}
}
