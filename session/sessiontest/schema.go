package sessiontest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpscope/mcpscope/protocol"
)

// SchemaValidator checks frames against the official JSON Schema of each MCP revision, read
// from ../shared/mcp-schema/<revision>/schema.json next to the module. The 2024-11-05 to
// 2025-06-18 files keep their definitions under "definitions", later ones under "$defs";
// each file's $schema says which draft it is, and the validator follows it.
type SchemaValidator struct {
	dir  string
	mu   sync.Mutex // guards revs and every compiler
	revs map[string]*revSchema
}

// revSchema is one revision's schema file and what was learned from it.
type revSchema struct {
	rev      string
	url      string
	defsKey  string         // "definitions" or "$defs"
	defs     map[string]any // the definitions, as decoded
	compiler *jsonschema.Compiler
	compiled map[string]*jsonschema.Schema
	// requests and notifications map a method the client sends to the definition of that
	// message (the members of ClientRequest and ClientNotification).
	requests      map[string]string
	notifications map[string]string
	// results maps a server→client request method to the definition of the result the
	// client sends back.
	results map[string]string
}

var (
	sharedOnce      sync.Once
	sharedValidator *SchemaValidator
)

// Schemas returns the validator shared by every test of the binary (schemas are compiled
// once, on first use).
func Schemas(t testing.TB) *SchemaValidator {
	t.Helper()
	dir := SchemaDir(t)
	sharedOnce.Do(func() { sharedValidator = NewSchemaValidator(dir) })
	return sharedValidator
}

// SchemaDir returns the directory of the official schemas, failing the test when it is
// missing.
func SchemaDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(ModuleRoot(t), "..", "shared", "mcp-schema")
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("sessiontest: the MCP schemas are missing (%v): they are expected in ../shared/mcp-schema next to the module", err)
	}
	return dir
}

// NewSchemaValidator returns a validator over the schema folders in dir.
func NewSchemaValidator(dir string) *SchemaValidator {
	return &SchemaValidator{dir: dir, revs: map[string]*revSchema{}}
}

// CheckSent reports whether raw, a frame mcpscope sent to a server, is valid for revision
// rev: a request must match the ClientRequest member for its method, a notification the
// ClientNotification member, and each must fit its JSON-RPC envelope. A response must fit
// the response envelope and, for a result, the result definition of replyTo, the method of
// the server→client request it answers (sampling/createMessage, elicitation/create,
// roots/list, ping …), or ClientResult when replyTo is "".
func (v *SchemaValidator) CheckSent(rev, replyTo string, raw []byte) error {
	rs, err := v.revision(rev)
	if err != nil {
		return err
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("schema %s: %s\nframe: %s", rev, fmt.Sprintf(format, args...), clip(raw))
	}
	f := protocol.Decode(bytes.Clone(raw))
	var checks []string // definitions the whole frame must match
	var resultDef string
	switch f.Kind {
	case protocol.KindRequest:
		def, ok := rs.requests[f.Method]
		if _, ext := protocol.LookupExtension(f.Method, protocol.ClientToServer); !ok && ext {
			// An extension's method: the revision's schema knows only the envelope.
			checks = []string{"JSONRPCRequest"}
			break
		}
		if !ok {
			return fail("%q is not a request a client sends in this revision (ClientRequest has %s)", f.Method, keys(rs.requests))
		}
		checks = []string{"JSONRPCRequest", def}
	case protocol.KindNotification:
		def, ok := rs.notifications[f.Method]
		if !ok {
			return fail("%q is not a notification a client sends in this revision (ClientNotification has %s)", f.Method, keys(rs.notifications))
		}
		checks = []string{"JSONRPCNotification", def}
	case protocol.KindResult:
		checks = []string{rs.pick("JSONRPCResultResponse", "JSONRPCResponse")}
		resultDef = "ClientResult"
		if replyTo != "" {
			def, ok := rs.results[replyTo]
			if !ok {
				return fail("the client answered %q, which is not a request a server sends in this revision", replyTo)
			}
			resultDef = def
		}
	case protocol.KindError:
		checks = []string{rs.pick("JSONRPCErrorResponse", "JSONRPCError")}
	case protocol.KindBatch:
		checks = []string{"JSONRPCMessage"}
	default:
		return fail("not a JSON-RPC message: %s", findingCodes(f))
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fail("not JSON: %v", err)
	}
	for _, def := range checks {
		if err := v.validate(rs, def, inst); err != nil {
			return fail("does not match %s: %v", def, err)
		}
	}
	if resultDef != "" {
		res, err := jsonschema.UnmarshalJSON(bytes.NewReader(f.Result))
		if err != nil {
			return fail("result is not JSON: %v", err)
		}
		if err := v.validate(rs, resultDef, res); err != nil {
			return fail("result does not match %s: %v", resultDef, err)
		}
	}
	return nil
}

// Definitions lists the definition names of revision rev, for tests of the tests.
func (v *SchemaValidator) Definitions(rev string) ([]string, error) {
	rs, err := v.revision(rev)
	if err != nil {
		return nil, err
	}
	return keys(rs.defs), nil
}

func (v *SchemaValidator) validate(rs *revSchema, def string, inst any) error {
	v.mu.Lock()
	sch, ok := rs.compiled[def]
	if !ok {
		if _, exists := rs.defs[def]; !exists {
			v.mu.Unlock()
			return fmt.Errorf("the schema has no definition %q", def)
		}
		var err error
		sch, err = rs.compiler.Compile(rs.url + "#/" + rs.defsKey + "/" + def)
		if err != nil {
			v.mu.Unlock()
			return fmt.Errorf("compile %s: %w", def, err)
		}
		rs.compiled[def] = sch
	}
	v.mu.Unlock()
	return sch.Validate(inst)
}

// revision loads (once) the schema of rev.
func (v *SchemaValidator) revision(rev string) (*revSchema, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if rs, ok := v.revs[rev]; ok {
		return rs, nil
	}
	if _, ok := protocol.ParseRevision(rev); !ok {
		return nil, fmt.Errorf("schema: unknown revision %q", rev)
	}
	path := filepath.Join(v.dir, rev, "schema.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", rev, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", path, err)
	}
	top, _ := doc.(map[string]any)
	rs := &revSchema{rev: rev, url: "https://schemas.mcpscope.test/" + rev + "/schema.json",
		compiled: map[string]*jsonschema.Schema{}}
	for _, k := range []string{"$defs", "definitions"} {
		if d, ok := top[k].(map[string]any); ok {
			rs.defsKey, rs.defs = k, d
			break
		}
	}
	if rs.defs == nil {
		return nil, fmt.Errorf("schema %s has neither $defs nor definitions", path)
	}
	rs.compiler = jsonschema.NewCompiler()
	if err := rs.compiler.AddResource(rs.url, doc); err != nil {
		return nil, fmt.Errorf("schema %s: %w", path, err)
	}
	rs.requests = rs.methodMembers("ClientRequest")
	rs.notifications = rs.methodMembers("ClientNotification")
	if len(rs.requests) == 0 || len(rs.notifications) == 0 {
		return nil, fmt.Errorf("schema %s: no methods found in ClientRequest / ClientNotification", path)
	}
	rs.results = rs.resultDefs()
	v.revs[rev] = rs
	return rs, nil
}

// pick returns the first of names the schema defines.
func (rs *revSchema) pick(names ...string) string {
	for _, n := range names {
		if _, ok := rs.defs[n]; ok {
			return n
		}
	}
	return names[len(names)-1]
}

// methodMembers maps each method of a union definition (ClientRequest, ServerRequest …) to
// the member that defines it: the definition whose properties.method.const is the method.
// A union that is a single message (2026-07-28's ClientNotification) maps to itself.
func (rs *revSchema) methodMembers(union string) map[string]string {
	out := map[string]string{}
	var walk func(name string, depth int)
	walk = func(name string, depth int) {
		d, _ := rs.defs[name].(map[string]any)
		if d == nil || depth > 8 {
			return
		}
		if m := methodConst(d); m != "" {
			out[m] = name
			return
		}
		for _, key := range []string{"anyOf", "oneOf"} {
			items, _ := d[key].([]any)
			for _, it := range items {
				if ref := refName(it); ref != "" {
					walk(ref, depth+1)
				}
			}
		}
		if ref := refName(d); ref != "" {
			walk(ref, depth+1)
		}
	}
	walk(union, 0)
	return out
}

// resultDefs maps each server→client request method to its result definition: for
// FooRequest the definition FooResult when it exists, else the plain Result.
func (rs *revSchema) resultDefs() map[string]string {
	out := map[string]string{}
	reqs := rs.methodMembers("ServerRequest")
	// 2026-07-28 has no server→client requests (input requests ride inside results); keep
	// the classic three so a reply can still be named.
	for m, def := range map[string]string{"sampling/createMessage": "CreateMessageRequest",
		"elicitation/create": "ElicitRequest", "roots/list": "ListRootsRequest", "ping": "PingRequest"} {
		if _, ok := reqs[m]; !ok {
			reqs[m] = def
		}
	}
	for m, def := range reqs {
		res := strings.TrimSuffix(def, "Request") + "Result"
		if _, ok := rs.defs[res]; !ok {
			res = "Result"
		}
		out[m] = res
	}
	return out
}

func methodConst(d map[string]any) string {
	props, _ := d["properties"].(map[string]any)
	method, _ := props["method"].(map[string]any)
	c, _ := method["const"].(string)
	return c
}

func refName(v any) string {
	m, _ := v.(map[string]any)
	ref, _ := m["$ref"].(string)
	for _, p := range []string{"#/$defs/", "#/definitions/"} {
		if strings.HasPrefix(ref, p) {
			return strings.TrimPrefix(ref, p)
		}
	}
	return ""
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func findingCodes(f *protocol.Frame) string {
	var codes []string
	for _, fd := range f.Findings {
		codes = append(codes, fd.Code)
	}
	return strings.Join(codes, ", ")
}

// clip shortens a frame for an error message.
func clip(raw []byte) string {
	const max = 2000
	if len(raw) > max {
		return string(raw[:max]) + fmt.Sprintf("… (%d bytes)", len(raw))
	}
	return string(raw)
}
