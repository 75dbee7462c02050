package auth

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

// TestMain lets the test binary act as a helper process: a concurrent writer of the file
// store, or a process opening a store under a given D-Bus environment.
func TestMain(m *testing.M) {
	switch os.Getenv("MCPSCOPE_AUTH_HELPER") {
	case "writer":
		os.Exit(helperWriter())
	case "open":
		s, err := OpenStore(os.Getenv("MCPSCOPE_AUTH_MODE"))
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(0)
		}
		fmt.Println("store:", s.Describe())
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// helperWriter puts MCPSCOPE_AUTH_N records named after MCPSCOPE_AUTH_ID into the file
// store in MCPSCOPE_AUTH_DIR, each a separate read-change-write.
func helperWriter() int {
	fs := NewFileStore(os.Getenv("MCPSCOPE_AUTH_DIR"))
	var n int
	fmt.Sscan(os.Getenv("MCPSCOPE_AUTH_N"), &n)
	for i := range n {
		rec := &Record{Key: Key{Resource: fmt.Sprintf("https://%s.example/mcp", os.Getenv("MCPSCOPE_AUTH_ID")), Issuer: fmt.Sprintf("https://as%d.example", i)},
			ClientID: "c", AccessToken: "tok"}
		if err := fs.Put(rec); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

func sampleRecord(res, iss string) *Record {
	return &Record{
		Key:          Key{Resource: res, Issuer: iss},
		ClientID:     "client-1",
		ClientSource: ClientDynamic,
		AccessToken:  "access-token-abcdefghijklmnop",
		TokenType:    "Bearer",
		RefreshToken: "refresh-token-abcdefghijklmnop",
		Expiry:       time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC),
		Scopes:       []string{"mcp:read", "mcp:write"},
		Saved:        time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	}
}

// checkRoundTrip puts, gets, lists and deletes through s.
func checkRoundTrip(t *testing.T, s Store) {
	t.Helper()
	a := sampleRecord("https://a.example/mcp", "https://as.example")
	b := sampleRecord("https://b.example/mcp", "https://as.example")
	for _, r := range []*Record{b, a} {
		if err := s.Put(r); err != nil {
			t.Fatalf("Put: %v", err)
		}
	}
	a.AccessToken = "changed-after-put" // the store keeps its own copy
	got, ok, err := s.Get(a.Key)
	if err != nil || !ok {
		t.Fatalf("Get: %v %v", ok, err)
	}
	if got.AccessToken != "access-token-abcdefghijklmnop" || got.RefreshToken == "" || len(got.Scopes) != 2 || !got.Expiry.Equal(a.Expiry) {
		t.Errorf("Get returned %+v", got)
	}
	keys, err := s.List()
	if err != nil || len(keys) != 2 || keys[0] != a.Key || keys[1] != b.Key {
		t.Fatalf("List: %v %v", keys, err)
	}
	a.AccessToken = "second"
	if err := s.Put(a); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := s.Get(a.Key); got.AccessToken != "second" {
		t.Errorf("Put did not replace: %q", got.AccessToken)
	}
	if keys, _ := s.List(); len(keys) != 2 {
		t.Errorf("a replaced record was listed twice: %v", keys)
	}
	if err := s.Delete(a.Key); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(a.Key); err != nil {
		t.Errorf("deleting what is gone: %v", err)
	}
	if _, ok, err := s.Get(a.Key); ok || err != nil {
		t.Errorf("Get after Delete: %v %v", ok, err)
	}
	if keys, _ := s.List(); len(keys) != 1 || keys[0] != b.Key {
		t.Errorf("List after Delete: %v", keys)
	}
}

func TestMemoryStore(t *testing.T) {
	checkRoundTrip(t, NewMemStore())
}

// TestFileStorePermissions: the file is 0600 in a 0700 directory (a wider existing
// directory is narrowed), the data round-trips, and no temporary file is left behind.
func TestFileStorePermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "mcpscope")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s := NewFileStore(dir)
	checkRoundTrip(t, s)
	st, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if p := st.Mode().Perm(); p != 0o600 {
		t.Errorf("file mode %o, want 600", p)
	}
	dst, _ := os.Stat(dir)
	if p := dst.Mode().Perm(); p != 0o700 {
		t.Errorf("directory mode %o, want 700", p)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != fileName && e.Name() != lockName {
			t.Errorf("left in the directory: %s", e.Name())
		}
	}
	if !strings.HasPrefix(s.Describe(), "file ") {
		t.Errorf("Describe: %q", s.Describe())
	}
}

// TestFileStoreConcurrentWriters: four processes each add 15 records at once; all 60 are
// there afterwards.
func TestFileStoreConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	const procs, each = 4, 15
	var wg sync.WaitGroup
	errs := make(chan error, procs)
	for p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "MCPSCOPE_AUTH_HELPER=writer", "MCPSCOPE_AUTH_DIR="+dir,
				fmt.Sprintf("MCPSCOPE_AUTH_ID=w%d", p), fmt.Sprintf("MCPSCOPE_AUTH_N=%d", each))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("writer %d: %v: %s", p, err, out)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	keys, err := NewFileStore(dir).List()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != procs*each {
		t.Errorf("%d records after concurrent writes, want %d", len(keys), procs*each)
	}
}

// TestFileStoreCorrupt: a file that is not a store is reported with its path and left
// byte for byte as it was, whatever is asked of the store.
func TestFileStoreCorrupt(t *testing.T) {
	for _, body := range []string{`{"version":1,"records":[{"resource":`, `not json`, `{"version":7,"records":[]}`, `{"version":1,"records":[]} trailing`} {
		dir := t.TempDir()
		s := NewFileStore(dir)
		if err := os.WriteFile(s.Path(), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		rec := sampleRecord("https://a.example/mcp", "https://as.example")
		_, _, errGet := s.Get(rec.Key)
		_, errList := s.List()
		for name, err := range map[string]error{"Get": errGet, "List": errList, "Put": s.Put(rec), "Delete": s.Delete(rec.Key)} {
			var ce *CorruptError
			if !errors.As(err, &ce) {
				t.Errorf("%q: %s: got %v, want a CorruptError", body, name, err)
				continue
			}
			if !strings.Contains(err.Error(), "left untouched") || !strings.Contains(err.Error(), fileName) {
				t.Errorf("%s: unclear error %q", name, err)
			}
		}
		if b, _ := os.ReadFile(s.Path()); string(b) != body {
			t.Errorf("the corrupt file was changed to %q", b)
		}
	}
}

// mapKeyring is an in-memory keyring with go-keyring's errors, standing in for the OS
// keyring, which the machines the tests run on do not have.
type mapKeyring struct {
	mu    sync.Mutex
	items map[string]string
}

func (m *mapKeyring) Set(service, user, v string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.items[service+"\x00"+user] = v
	return nil
}

func (m *mapKeyring) Get(service, user string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.items[service+"\x00"+user]
	if !ok {
		return "", keyring.ErrNotFound
	}
	return v, nil
}

func (m *mapKeyring) Delete(service, user string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.items[service+"\x00"+user]; !ok {
		return keyring.ErrNotFound
	}
	delete(m.items, service+"\x00"+user)
	return nil
}

// TestKeyringStore: one item per key plus the index; a corrupt index is an error and is
// not overwritten.
func TestKeyringStore(t *testing.T) {
	kr := &mapKeyring{items: map[string]string{}}
	s := NewKeyringStore(kr, t.TempDir())
	if err := s.Probe(); err != nil {
		t.Fatalf("Probe of a working keyring: %v", err)
	}
	checkRoundTrip(t, s)
	if len(kr.items) != 2 { // b's record and the index
		t.Errorf("keyring items: %v", kr.items)
	}
	if v := kr.items["mcpscope\x00index"]; !strings.Contains(v, "https://b.example/mcp") {
		t.Errorf("index item: %q", v)
	}
	kr.items["mcpscope\x00index"] = "garbage"
	if err := s.Put(sampleRecord("https://c.example/mcp", "https://as.example")); err == nil || !strings.Contains(err.Error(), "left untouched") {
		t.Errorf("Put over a corrupt index: %v", err)
	}
	if kr.items["mcpscope\x00index"] != "garbage" {
		t.Error("the corrupt index was overwritten")
	}
}

// openIn runs OpenStore(mode) in a helper process with the given D-Bus address and state
// directory, and returns what it printed.
func openIn(t *testing.T, mode, bus, state string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MCPSCOPE_AUTH_HELPER=open", "MCPSCOPE_AUTH_MODE="+mode,
		"DBUS_SESSION_BUS_ADDRESS="+bus, "XDG_STATE_HOME="+state)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v: %s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestKeyringUnavailable: without a D-Bus session bus, and with a bus that has no Secret
// Service (the usual case on servers and CI), keyring mode fails saying why and auto
// falls back to the file store, saying why too.
func TestKeyringUnavailable(t *testing.T) {
	state := t.TempDir()
	noBus := "unix:path=" + filepath.Join(t.TempDir(), "no-bus")
	bus := startBus(t)
	for _, c := range []struct {
		name, bus, reason string
	}{
		{"no bus", noBus, "no D-Bus session bus"},
		{"no secret service", bus, "no Secret Service on the D-Bus session bus"},
	} {
		got := openIn(t, StoreKeyring, c.bus, state)
		if want := "error: no keyring available (" + c.reason + "); use --token-store file or none"; got != want {
			t.Errorf("%s: keyring mode: %q, want %q", c.name, got, want)
		}
		got = openIn(t, StoreAuto, c.bus, state)
		if want := "store: file " + filepath.Join(state, "mcpscope", fileName) + " (no keyring: " + c.reason + ")"; got != want {
			t.Errorf("%s: auto mode: %q, want %q", c.name, got, want)
		}
	}
	if got := openIn(t, StoreNone, noBus, state); got != "store: none (memory only)" {
		t.Errorf("none: %q", got)
	}
	if got := openIn(t, "vault", noBus, state); !strings.Contains(got, "want one of auto, keyring, file, none") {
		t.Errorf("unknown mode: %q", got)
	}
}

// startBus runs a private D-Bus session bus with no services and returns its address.
func startBus(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	conf := filepath.Join(dir, "bus.conf")
	err := os.WriteFile(conf, []byte(`<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=`+filepath.Join(dir, "bus")+`</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dbus-daemon", "--config-file="+conf, "--nofork", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start dbus-daemon (package dbus-daemon): %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon printed no address: %v", err)
	}
	return strings.TrimSpace(line)
}

// smallKeyring refuses items over limit bytes, as the Windows Credential Manager and the
// macOS Keychain do.
type smallKeyring struct {
	mapKeyring
	limit int
}

func (s *smallKeyring) Set(service, user, v string) error {
	if len(v) > s.limit {
		return keyring.ErrSetDataTooBig
	}
	return s.mapKeyring.Set(service, user, v)
}

// TestKeyringOverflow: a record too large for the keyring goes to the file (0600) in auto
// mode and is found, listed and deleted there; one that fits again moves back; without the
// overflow the error says what to do.
func TestKeyringOverflow(t *testing.T) {
	dir := t.TempDir()
	kr := &smallKeyring{mapKeyring: mapKeyring{items: map[string]string{}}, limit: 600}
	s := NewKeyringStore(kr, dir)
	s.Overflow = NewFileStore(dir)
	small := sampleRecord("https://small.example/mcp", "https://as.example")
	big := sampleRecord("https://big.example/mcp", "https://as.example")
	big.AccessToken = strings.Repeat("x", 2000)
	for _, r := range []*Record{small, big} {
		if err := s.Put(r); err != nil {
			t.Fatalf("Put %s: %v", r.Resource, err)
		}
	}
	if _, ok := kr.items["mcpscope\x00"+keyringUser(big.Key)]; ok {
		t.Error("the big record is in the keyring")
	}
	if st, err := os.Stat(s.Overflow.Path()); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("overflow file: %v %v", st, err)
	}
	got, ok, err := s.Get(big.Key)
	if err != nil || !ok || got.AccessToken != big.AccessToken {
		t.Fatalf("Get big: %v %v", ok, err)
	}
	if keys, err := s.List(); err != nil || len(keys) != 2 {
		t.Errorf("List: %v %v", keys, err)
	}
	big.AccessToken = "now-small-enough"
	if err := s.Put(big); err != nil {
		t.Fatal(err)
	}
	if _, ok := kr.items["mcpscope\x00"+keyringUser(big.Key)]; !ok {
		t.Error("the record that fits again is not back in the keyring")
	}
	if keys, _ := s.Overflow.List(); len(keys) != 0 {
		t.Errorf("the overflow still holds %v", keys)
	}
	if keys, _ := s.List(); len(keys) != 2 {
		t.Errorf("List after moving back: %v", keys)
	}
	for _, k := range []Key{small.Key, big.Key} {
		if err := s.Delete(k); err != nil {
			t.Fatal(err)
		}
	}
	if keys, _ := s.List(); len(keys) != 0 {
		t.Errorf("List after Delete: %v", keys)
	}
	s.Overflow = nil
	big.AccessToken = strings.Repeat("x", 2000)
	if err := s.Put(big); err == nil || !strings.Contains(err.Error(), "too big: use --token-store file or auto") {
		t.Errorf("Put without the overflow: %v", err)
	}
}
