package protocol

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// The example tool definition of 2026-07-28 server/tools and transports/streamable-http.
const executeSQLSchema = `{
  "type": "object",
  "properties": {
    "region": {"type": "string", "description": "The region to execute the query in", "x-mcp-header": "Region"},
    "query": {"type": "string", "description": "The SQL query to execute"}
  },
  "required": ["region", "query"]
}`

func TestToolHeaderParamsSpecExample(t *testing.T) {
	params, problems := ToolHeaderParams(json.RawMessage(executeSQLSchema))
	if len(problems) != 0 {
		t.Fatalf("problems %v", problems)
	}
	want := []HeaderParam{{Name: "Region", Path: []string{"region"}, Type: "string"}}
	if !reflect.DeepEqual(params, want) {
		t.Fatalf("params %+v, want %+v", params, want)
	}
	v, ok := HeaderParamValue(params[0], json.RawMessage(`{"region":"us-west1","query":"SELECT * FROM users"}`))
	if !ok || v != "us-west1" || params[0].Header() != "Mcp-Param-Region" {
		t.Fatalf("value %q %v header %q", v, ok, params[0].Header())
	}
}

func TestToolHeaderParamsNested(t *testing.T) {
	schema := `{"type":"object","properties":{
	  "target":{"type":"object","properties":{"zone":{"type":["string","null"],"x-mcp-header":"Zone"},
	                                         "n":{"type":"integer","x-mcp-header":"N"}}},
	  "dry":{"type":"boolean","x-mcp-header":"Dry-Run"}}}`
	params, problems := ToolHeaderParams(json.RawMessage(schema))
	if len(problems) != 0 || len(params) != 3 {
		t.Fatalf("params %+v problems %v", params, problems)
	}
	if params[0].Pointer() != "/target/zone" || params[1].Type != "integer" || params[2].Name != "Dry-Run" {
		t.Fatalf("params %+v", params)
	}
	args := json.RawMessage(`{"target":{"zone":null,"n":4.2e1},"dry":false}`)
	for i, want := range []struct {
		v  string
		ok bool
	}{{"", false}, {"42", true}, {"false", true}} {
		if v, ok := HeaderParamValue(params[i], args); v != want.v || ok != want.ok {
			t.Errorf("%s: %q %v, want %q %v", params[i].Name, v, ok, want.v, want.ok)
		}
	}
	if _, ok := HeaderParamValue(params[0], json.RawMessage(`{}`)); ok {
		t.Error("absent value must omit the header")
	}
}

// The invalid definitions the spec's constraints list (and the conformance suite serves).
func TestToolHeaderParamsInvalid(t *testing.T) {
	tests := map[string]struct{ schema, want string }{
		"empty":       {`{"properties":{"v":{"type":"string","x-mcp-header":""}}}`, "must not be empty"},
		"not string":  {`{"properties":{"v":{"type":"string","x-mcp-header":7}}}`, "must be a string"},
		"object":      {`{"properties":{"v":{"type":"object","x-mcp-header":"Data"}}}`, `type "object" is not allowed`},
		"array":       {`{"properties":{"v":{"type":"array","items":{"type":"string"},"x-mcp-header":"Items"}}}`, "not allowed"},
		"null":        {`{"properties":{"v":{"type":"null","x-mcp-header":"Nil"}}}`, "not allowed"},
		"number":      {`{"properties":{"v":{"type":"number","x-mcp-header":"Score"}}}`, `type "number" is not allowed`},
		"no type":     {`{"properties":{"v":{"x-mcp-header":"V"}}}`, "has no type"},
		"same case":   {`{"properties":{"a":{"type":"string","x-mcp-header":"Region"},"b":{"type":"string","x-mcp-header":"Region"}}}`, "collides with the x-mcp-header at /properties/a"},
		"diff case":   {`{"properties":{"a":{"type":"string","x-mcp-header":"MyField"},"b":{"type":"string","x-mcp-header":"myfield"}}}`, "compared case-insensitively"},
		"space":       {`{"properties":{"v":{"type":"string","x-mcp-header":"My Region"}}}`, "not an HTTP field-name token"},
		"colon":       {`{"properties":{"v":{"type":"string","x-mcp-header":"Region:Primary"}}}`, "not an HTTP field-name token"},
		"non-ASCII":   {`{"properties":{"v":{"type":"string","x-mcp-header":"Région"}}}`, "not an HTTP field-name token"},
		"control":     {`{"properties":{"v":{"type":"string","x-mcp-header":"Region\t1"}}}`, "not an HTTP field-name token"},
		"CRLF":        {`{"properties":{"v":{"type":"string","x-mcp-header":"A\r\nB"}}}`, "not an HTTP field-name token"},
		"items":       {`{"properties":{"v":{"type":"array","items":{"type":"string","x-mcp-header":"V"}}}}`, "at /properties/v/items: \"V\" is not on a property reachable"},
		"oneOf":       {`{"properties":{"v":{"oneOf":[{"type":"string","x-mcp-header":"V"}]}}}`, "/properties/v/oneOf/0"},
		"$defs":       {`{"$defs":{"r":{"type":"string","x-mcp-header":"R"}},"properties":{"v":{"$ref":"#/$defs/r"}}}`, "not on a property reachable"},
		"if/then":     {`{"if":{"properties":{"v":{"type":"string","x-mcp-header":"V"}}}}`, "not on a property reachable"},
		"schema root": {`{"type":"object","x-mcp-header":"Root"}`, "at the schema root"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			_, problems := ToolHeaderParams(json.RawMessage(tt.schema))
			if len(problems) == 0 || !strings.Contains(strings.Join(problems, "\n"), tt.want) {
				t.Fatalf("problems %q, want one containing %q", problems, tt.want)
			}
		})
	}
}

func TestToolHeaderParamsIgnoresData(t *testing.T) {
	schema := `{"properties":{"v":{"type":"object","default":{"x-mcp-header":"X"},"enum":[{"x-mcp-header":"Y"}]}}}`
	params, problems := ToolHeaderParams(json.RawMessage(schema))
	if params != nil || problems != nil {
		t.Fatalf("params %v problems %v", params, problems)
	}
}

func TestHeaderParamValueTypes(t *testing.T) {
	p := HeaderParam{Name: "V", Path: []string{"v"}}
	tests := map[string]struct {
		v  string
		ok bool
	}{
		`{"v":"Hello, 世界"}`:      {"Hello, 世界", true}, // encoding is the transport's job
		`{"v":""}`:               {"", true},
		`{"v":-7}`:               {"-7", true},
		`{"v":42.0}`:             {"42", true},
		`{"v":3.14}`:             {"3.14", true},
		`{"v":true}`:             {"true", true},
		`{"v":{"a":1}}`:          {"", false},
		`{"v":[1]}`:              {"", false},
		`{"v":null}`:             {"", false},
		`{"w":1}`:                {"", false},
		`not json`:               {"", false},
		`{"v":9007199254740993}`: {"9007199254740993", true},
	}
	for args, want := range tests {
		if v, ok := HeaderParamValue(p, json.RawMessage(args)); v != want.v || ok != want.ok {
			t.Errorf("%s: %q %v, want %q %v", args, v, ok, want.v, want.ok)
		}
	}
}

func TestToolHeaderFindings(t *testing.T) {
	result := `{"tools":[{"name":"ok","inputSchema":` + executeSQLSchema + `},
	  {"name":"bad","inputSchema":{"properties":{"v":{"type":"number","x-mcp-header":"Score"}}}}]}`
	fs := ToolHeaderFindings(json.RawMessage(result))
	if len(fs) != 1 || fs[0].Code != FindToolHeader || !strings.Contains(fs[0].Message, `tool "bad"`) ||
		Explain(FindToolHeader) == "" {
		t.Fatalf("findings %+v", fs)
	}
}

// BenchmarkToolHeaderParams reads the annotations of the spec's example tool.
func BenchmarkToolHeaderParams(b *testing.B) {
	for b.Loop() {
		if p, _ := ToolHeaderParams(json.RawMessage(executeSQLSchema)); len(p) != 1 {
			b.Fatal(p)
		}
	}
}
