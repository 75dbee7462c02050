package protocol

import (
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestDecodeClientHello(t *testing.T) {
	cases := []struct {
		name, method, params string
		want                 ClientHello
		err                  bool
	}{
		{"initialize", "initialize",
			`{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"c","version":"1"}}`,
			ClientHello{ProtocolVersion: "2025-11-25", Capabilities: json.RawMessage(`{"roots":{}}`), ClientInfo: json.RawMessage(`{"name":"c","version":"1"}`)}, false},
		{"discover", "server/discover",
			`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}}`,
			ClientHello{ProtocolVersion: "2026-07-28", Capabilities: json.RawMessage(`{}`), ClientInfo: json.RawMessage(`{"name":"c","version":"1"}`)}, false},
		{"discover without _meta", "server/discover", `{}`, ClientHello{}, false},
		{"version not a string", "server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":7}}`, ClientHello{}, false},
		{"params not an object", "initialize", `[1]`, ClientHello{}, true},
		{"no params", "initialize", ``, ClientHello{}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DecodeClientHello(c.method, json.RawMessage(c.params))
			if (err != nil) != c.err {
				t.Fatalf("error %v, want error: %v", err, c.err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
	if _, err := DecodeClientHello("tools/list", json.RawMessage(`{}`)); !errors.Is(err, ErrNotHandshake) {
		t.Errorf("tools/list: error %v, want ErrNotHandshake", err)
	}
}

func TestDecodeHandshakeResults(t *testing.T) {
	r, err := DecodeInitializeResult(json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},
		"serverInfo":{"name":"s","title":"S","version":"2","websiteUrl":"https://example.com"},"instructions":"hi"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := InitializeResult{ProtocolVersion: "2025-11-25", Capabilities: json.RawMessage(`{"tools":{}}`),
		ServerInfo:   DeclaredImplementation{Implementation{Name: "s", Title: "S", Version: "2"}, "https://example.com"},
		Instructions: "hi"}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("InitializeResult %+v, want %+v", r, want)
	}
	// A website that is not a string is left out; it does not fail the handshake.
	r, err = DecodeInitializeResult(json.RawMessage(`{"protocolVersion":"2025-11-25","serverInfo":{"name":"s","version":"2","websiteUrl":5}}`))
	if err != nil || r.ServerInfo.Name != "s" || r.ServerInfo.WebsiteURL != "" {
		t.Errorf("websiteUrl 5: %+v, %v", r, err)
	}
	if _, err := DecodeInitializeResult(json.RawMessage(`{"serverInfo":{"name":7}}`)); err == nil {
		t.Error("a serverInfo whose name is a number decoded without error")
	}

	d, err := DecodeDiscoverResult(json.RawMessage(`{"supportedVersions":["2026-07-28"],"capabilities":{},"resultType":"complete",
		"ttlMs":0,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"m","version":"1","websiteUrl":"https://m.example"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	impl, ok := d.ServerInfo()
	if !ok || impl.Name != "m" || impl.Version != "1" || impl.WebsiteURL != "https://m.example" || !reflect.DeepEqual(d.SupportedVersions, []string{"2026-07-28"}) {
		t.Errorf("DiscoverResult %+v, serverInfo %+v %v", d, impl, ok)
	}
	d, _ = DecodeDiscoverResult(json.RawMessage(`{"supportedVersions":["2026-07-28"],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"m","version":3}}}`))
	if impl, ok := d.ServerInfo(); ok || impl.Name != "m" {
		t.Errorf("a serverInfo with a numeric version: %+v %v, want the name kept and ok false", impl, ok)
	}
}

func TestMetaOf(t *testing.T) {
	m := MetaOf(json.RawMessage(`{"a":1,"_meta":{"progressToken":3,"io.modelcontextprotocol/logLevel":"info"}}`))
	if string(m[MetaProgressToken]) != "3" || m.String(MetaLogLevel) != "info" || m.String(MetaProgressToken) != "" {
		t.Errorf("MetaOf: %v", m)
	}
	for _, in := range []string{``, `[]`, `{"_meta":"x"}`, `{}`} {
		if m := MetaOf(json.RawMessage(in)); m != nil {
			t.Errorf("MetaOf(%s) = %v, want nil", in, m)
		}
	}
}

// TestOneHandshakeDecoder pins that the handshake and _meta keys are read in one place:
// outside this file no program file spells a _meta key, declares a struct that decodes a
// handshake's members or a _meta object, and only session's HandshakeInfo decodes the
// handshake results. Tests and the fixture servers under testdata spell the wire's strings
// themselves, on purpose.
func TestOneHandshakeDecoder(t *testing.T) {
	root := moduleRoot(t)
	keys := map[string]bool{}
	for _, k := range []string{MetaProgressToken, MetaProtocolVersion, MetaClientCapabilities, MetaClientInfo,
		MetaLogLevel, MetaServerInfo, MetaSubscriptionID, MetaRelatedTask} {
		keys[k] = true
	}
	tags := []string{"protocolVersion", "supportedVersions", "serverInfo", "_meta"}
	decoders := map[string]string{"DecodeInitializeResult": "session/handshake_info.go", "DecodeDiscoverResult": "session/handshake_info.go"}
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || rel == "protocol/handshake.go" {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if s, err := strconv.Unquote(n.Value); n.Kind == token.STRING && err == nil && keys[s] {
					t.Errorf("%s spells the _meta key %q: use the protocol.Meta… constant", rel, s)
				}
			case *ast.Field:
				if n.Tag == nil {
					break
				}
				tag, _ := strconv.Unquote(n.Tag.Value)
				name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
				for _, bad := range tags {
					if name == bad {
						t.Errorf("%s decodes %q itself: use protocol's typed views (DecodeClientHello, MetaOf) or session.HandshakeInfo", rel, name)
					}
				}
			case *ast.SelectorExpr:
				if home, ok := decoders[n.Sel.Name]; ok && rel != home {
					t.Errorf("%s calls %s: turn a handshake into ServerInfo with session.HandshakeInfo", rel, n.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d program files under %s; the walk missed the tree", files, root)
	}
}

// moduleRoot is the directory of go.mod above the package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the package")
		}
		dir = up
	}
}
