package protocol

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaDir holds the official JSON Schema of each revision. The tests need it; the
// product does not.
const schemaDir = "../../shared/mcp-schema"

func schemaPath(rev Revision) string { return filepath.Join(schemaDir, string(rev), "schema.json") }

// schemaDoc is the part of a schema.json the catalog test reads.
type schemaDoc struct {
	Definitions map[string]schemaDef `json:"definitions"`
	Defs        map[string]schemaDef `json:"$defs"`
}

type schemaDef struct {
	Ref        string               `json:"$ref"`
	AnyOf      []schemaDef          `json:"anyOf"`
	Const      any                  `json:"const"`
	Properties map[string]schemaDef `json:"properties"`
	Items      *schemaDef           `json:"items"`
}

func (d schemaDoc) defs() map[string]schemaDef {
	if d.Defs != nil {
		return d.Defs
	}
	return d.Definitions
}

func loadSchemaDoc(t *testing.T, rev Revision) map[string]schemaDef {
	t.Helper()
	b, err := os.ReadFile(schemaPath(rev))
	if err != nil {
		t.Fatalf("read schema of %s: %v", rev, err)
	}
	var d schemaDoc
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("parse schema of %s: %v", rev, err)
	}
	return d.defs()
}

// resolve follows a local $ref.
func resolve(defs map[string]schemaDef, d schemaDef) schemaDef {
	for d.Ref != "" {
		d = defs[d.Ref[strings.LastIndex(d.Ref, "/")+1:]]
	}
	return d
}

// unionMethods returns the method consts of a union definition. A union may be a single
// message definition rather than an anyOf (2026-07-28's ClientNotification is just
// CancelledNotification); a missing union (2026-07-28 has no ServerRequest) is empty.
func unionMethods(t *testing.T, defs map[string]schemaDef, union string) []string {
	t.Helper()
	u, ok := defs[union]
	if !ok {
		return nil
	}
	members := u.AnyOf
	if len(members) == 0 {
		members = []schemaDef{u}
	}
	var out []string
	for _, m := range members {
		m = resolve(defs, m)
		c, ok := m.Properties["method"].Const.(string)
		if !ok {
			t.Fatalf("%s member without a method const", union)
		}
		out = append(out, c)
	}
	return out
}

func TestCatalogMatchesSchema(t *testing.T) {
	unions := []struct {
		name  string
		from  Direction
		notif bool
	}{
		{"ClientRequest", ClientToServer, false},
		{"ClientNotification", ClientToServer, true},
		{"ServerRequest", ServerToClient, false},
		{"ServerNotification", ServerToClient, true},
	}
	type key struct {
		name  string
		from  Direction
		notif bool
	}
	for _, rev := range Revisions {
		t.Run(string(rev), func(t *testing.T) {
			defs := loadSchemaDoc(t, rev)
			want := map[key]bool{}
			for _, u := range unions {
				for _, m := range unionMethods(t, defs, u.name) {
					want[key{m, u.from, u.notif}] = true
				}
			}
			got := map[key]bool{}
			for _, m := range Methods(rev) {
				if m.Extension != "" {
					continue // an extension's methods are in its own schema
				}
				k := key{m.Name, m.From, m.Notification}
				if got[k] {
					t.Errorf("%s %v listed twice", m.Name, m.From)
				}
				got[k] = true
				if !want[k] {
					t.Errorf("catalog has %s (%v, notification=%v), the schema does not", m.Name, m.From, m.Notification)
				}
				if s, ok := Lookup(rev, m.Name, m.From); !ok || s != m {
					t.Errorf("Lookup(%s, %s, %v) = %+v, %v", rev, m.Name, m.From, s, ok)
				}
				checkGateInSchema(t, defs, m)
			}
			for k := range want {
				if !got[k] {
					t.Errorf("schema has %s (%v, notification=%v), the catalog does not", k.name, k.from, k.notif)
				}
			}
		})
	}
}

// checkGateInSchema verifies that a method's capability gate names a property that the
// revision's ClientCapabilities or ServerCapabilities defines.
func checkGateInSchema(t *testing.T, defs map[string]schemaDef, m MethodSpec) {
	t.Helper()
	if m.Capability == "" {
		return
	}
	side, path, ok := strings.Cut(m.Capability, ":")
	if !ok || (side != "client" && side != "server") {
		t.Errorf("%s: malformed gate %q", m.Name, m.Capability)
		return
	}
	d := defs[map[string]string{"client": "ClientCapabilities", "server": "ServerCapabilities"}[side]]
	for seg := range strings.SplitSeq(path, ".") {
		next, ok := resolve(defs, d).Properties[seg]
		if !ok {
			t.Errorf("%s: gate %q: %s capabilities have no %q", m.Name, m.Capability, side, seg)
			return
		}
		d = next
	}
}

func TestContentTypesMatchSchema(t *testing.T) {
	for _, rev := range Revisions {
		defs := loadSchemaDoc(t, rev)
		items := resolve(defs, *defs["CallToolResult"].Properties["content"].Items)
		var want []string
		for _, m := range items.AnyOf {
			want = append(want, resolve(defs, m).Properties["type"].Const.(string))
		}
		got := ContentTypes(rev)
		if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
			t.Errorf("%s: content types %v, schema has %v", rev, got, want)
		}
		if KnownContentType(rev, "video") || !KnownContentType(rev, "text") {
			t.Errorf("%s: KnownContentType", rev)
		}
	}
}

var (
	schemaMu    sync.Mutex
	schemaCache = map[Revision]*jsonschema.Schema{}
)

// messageSchema compiles a revision's JSONRPCMessage definition.
func messageSchema(t *testing.T, rev Revision) *jsonschema.Schema {
	t.Helper()
	schemaMu.Lock()
	defer schemaMu.Unlock()
	if s, ok := schemaCache[rev]; ok {
		return s
	}
	b, err := os.ReadFile(schemaPath(rev))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	url := "https://mcp.invalid/" + string(rev) + "/schema.json"
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	ptr := "#/$defs/JSONRPCMessage"
	if rev < Rev20251125 {
		ptr = "#/definitions/JSONRPCMessage"
	}
	s, err := c.Compile(url + ptr)
	if err != nil {
		t.Fatalf("compile %s: %v", rev, err)
	}
	schemaCache[rev] = s
	return s
}

// validateMessage checks raw against the revision's JSONRPCMessage schema.
func validateMessage(t *testing.T, rev Revision, raw []byte) {
	t.Helper()
	if err := messageError(t, rev, raw); err != nil {
		t.Errorf("%s is not a valid %s message: %v", raw, rev, err)
	}
}

// messageError returns why raw is not a valid message of rev, or nil.
func messageError(t *testing.T, rev Revision, raw []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	return messageSchema(t, rev).Validate(inst)
}
