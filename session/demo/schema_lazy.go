package demo

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// lazySchema is a JSON Schema compiled the first time a value is checked against it. The
// demo has a schema per tool; compiling them all when it starts (the draft's meta-schema
// first) took longer than the rest of its start, and the view's ready line waited for it.
// TestDemoSchemasCompile compiles every one.
type lazySchema struct {
	url      string
	compiled func() (*jsonschema.Schema, error)
}

func newLazySchema(url, doc string) *lazySchema {
	return &lazySchema{url: url, compiled: sync.OnceValues(func() (*jsonschema.Schema, error) {
		return compileSchema(url, doc)
	})}
}

// validate checks raw against the schema.
func (l *lazySchema) validate(raw json.RawMessage) error {
	s, err := l.compiled()
	if err != nil {
		return fmt.Errorf("the demo's schema %s does not compile: %w", l.url, err)
	}
	return validate(s, raw)
}
