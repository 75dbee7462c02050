package protocol

import (
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// SchemaProblem is one way a value fails a JSON Schema, at the JSON pointer of the value it
// is about ("" is the value itself). The extensions' own problem types convert from it.
type SchemaProblem struct {
	Pointer string
	Message string
}

var schemaPrinter = message.NewPrinter(language.English)

// SchemaProblems flattens a validation error into its leaves, sorted by pointer: a missing
// required member is a problem at its own pointer. Bounded: at most max problems.
func SchemaProblems(ve *jsonschema.ValidationError, max int) []SchemaProblem {
	var out []SchemaProblem
	collectSchemaProblems(ve, max, &out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	if len(out) > max {
		out = out[:max]
	}
	return out
}

func collectSchemaProblems(e *jsonschema.ValidationError, max int, out *[]SchemaProblem) {
	if len(*out) > max {
		return
	}
	ptr := JoinPointer(e.InstanceLocation)
	if k, ok := e.ErrorKind.(*kind.Required); ok {
		for _, name := range k.Missing {
			*out = append(*out, SchemaProblem{ptr + "/" + PointerToken(name), "required, missing"})
		}
		return
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collectSchemaProblems(c, max, out)
		}
		return
	}
	*out = append(*out, SchemaProblem{ptr, strings.TrimSpace(e.ErrorKind.LocalizedString(schemaPrinter))})
}

// NoSchemaLoader refuses every URL a schema compiler would fetch: only the schema's own
// resources are used, so nothing is fetched on a document's say-so. What names the schema
// in the error.
type NoSchemaLoader struct{ What string }

// Load implements jsonschema.URLLoader.
func (l NoSchemaLoader) Load(u string) (any, error) {
	return nil, fmt.Errorf("%s is outside %s and is not fetched", u, l.What)
}
