// Package jsonschema is santhosh-tekuri/jsonschema v6.0.2 (Apache License 2.0, LICENSE in
// this directory) with one change: a draft's meta-schema and vocabularies are compiled the
// first time a schema of that draft is checked against them (Draft.load), not when the
// program starts. Upstream compiles the meta-schemas of all five drafts in an init
// function, about 3 ms and 1.7 MB of allocations that every mcpscope command paid, `version`
// included, although only the forms, `check` and the demo server validate anything.
//
// The API is upstream's (https://pkg.go.dev/github.com/santhosh-tekuri/jsonschema/v6):
// NewCompiler, Compiler.AddResource and Compile, Schema.Validate, ValidationError with its
// kind package. Changes made here are marked "mcpscope:" in the source; keep them so, so
// that a newer upstream can be taken by copying it and reapplying them. Three of upstream's
// files are split in two or three to stay under the project's 600 lines, each piece in
// upstream's order: validator.go (validator_values.go, validator_refs.go), format.go
// (format_time.go, format_uri.go) and kind/kind.go (kind_more.go).
package jsonschema
