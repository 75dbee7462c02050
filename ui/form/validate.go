package form

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/mcpscope/mcpscope/protocol"
)

// Problem is one way the arguments fail the schema, at the JSON pointer of the value it is
// about ("" is the arguments object itself; "/steps/0/action" a field inside it).
type Problem struct {
	Pointer string
	Message string
}

// String is "pointer: message".
func (p Problem) String() string {
	ptr := p.Pointer
	if ptr == "" {
		ptr = "arguments"
	}
	return ptr + ": " + p.Message
}

// schemaURL names the inputSchema for the validator; it is never fetched.
const schemaURL = "mcpscope:input-schema.json"

var printer = message.NewPrinter(language.English)

// noLoader refuses every URL the compiler would fetch: only the schema itself and the
// built-in draft meta-schemas are available.
type noLoader struct{}

func (noLoader) Load(u string) (any, error) {
	return nil, fmt.Errorf("%s is outside the schema and is not fetched", u)
}

// compile builds the validator from the raw schema bytes, with the draft its $schema names
// (2020-12 when absent) and format assertions on, as the servers we talk to apply them.
func compile(raw json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	if _, ok := doc.(map[string]any); !ok {
		if _, ok := doc.(bool); !ok {
			return nil, errors.New("the schema is neither an object nor a boolean")
		}
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(noLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
}

// validate checks args against the compiled schema. chosen tells, for a pointer, which
// oneOf/anyOf alternative the form has selected there, so that only that alternative's
// complaints are shown.
func (s *Schema) validate(args json.RawMessage, chosen func(ptr string) (int, bool)) []Problem {
	if s.root == nil {
		return nil
	}
	if s.root.compileErr != nil {
		return []Problem{{Message: "the schema cannot be checked: " + firstLine(s.root.compileErr.Error())}}
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return []Problem{{Message: "not valid JSON: " + err.Error()}}
	}
	err = s.root.compiled.Validate(inst)
	var ve *jsonschema.ValidationError
	if err == nil || !errors.As(err, &ve) {
		if err != nil {
			return []Problem{{Message: err.Error()}}
		}
		return nil
	}
	var out []Problem
	collect(ve, chosen, &out)
	seen := map[Problem]bool{}
	uniq := out[:0]
	for _, p := range out {
		if !seen[p] {
			seen[p] = true
			uniq = append(uniq, p)
		}
	}
	return uniq
}

// collect turns the leaves of a validation error tree into problems.
func collect(e *jsonschema.ValidationError, chosen func(string) (int, bool), out *[]Problem) {
	ptr := protocol.JoinPointer(e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		for _, name := range k.Missing {
			*out = append(*out, Problem{ptr + "/" + protocol.PointerToken(name), "required"})
		}
		return
	case *kind.AdditionalProperties:
		for _, name := range k.Properties {
			*out = append(*out, Problem{ptr + "/" + protocol.PointerToken(name), "not allowed by the schema"})
		}
		return
	case *kind.PropertyNames, *kind.ContentSchema:
		// The causes judged another document (a property name, a string's decoded
		// content), so their locations are inside it: each is reported here, on the value
		// that holds it, with its own message.
		var inner []Problem
		for _, c := range e.Causes {
			collect(c, chosen, &inner)
		}
		for _, p := range inner {
			*out = append(*out, Problem{ptr, p.Message})
		}
		if len(inner) > 0 {
			return
		}
	case *kind.OneOf, *kind.AnyOf:
		if len(e.Causes) > 0 {
			collect(pickCause(e, ptr, chosen), chosen, out)
			return
		}
	case *kind.Group, *kind.Schema, *kind.Reference:
		for _, c := range e.Causes {
			collect(c, chosen, out)
		}
		if len(e.Causes) > 0 {
			return
		}
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collect(c, chosen, out)
		}
		return
	}
	*out = append(*out, Problem{ptr, problemText(e.ErrorKind)})
}

// problemText is a leaf problem's text. A number's bounds are written as the schema writes
// them and the value as the arguments do (≤ 9007199254740991, not 9.007199254740991×10¹⁵
// nor 9,007,199,254,740,991), exactly: the validator holds both as fractions.
func problemText(k jsonschema.ErrorKind) string {
	bound := func(got, want *big.Rat, rel string) string {
		return "got " + ratText(got) + ", want " + rel + ratText(want)
	}
	switch k := k.(type) {
	case *kind.Minimum:
		return bound(k.Got, k.Want, "≥ ")
	case *kind.Maximum:
		return bound(k.Got, k.Want, "≤ ")
	case *kind.ExclusiveMinimum:
		return bound(k.Got, k.Want, "> ")
	case *kind.ExclusiveMaximum:
		return bound(k.Got, k.Want, "< ")
	case *kind.MultipleOf:
		return bound(k.Got, k.Want, "a multiple of ")
	}
	return k.LocalizedString(printer)
}

// ratText writes an exact number in full: whole numbers with every digit, fractions as the
// shortest decimal that is exactly them; what has no short decimal (1/3) or is very long,
// as the bounds in the form's hints are.
func ratText(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() && len(r.Num().String()) <= 22 {
		return r.Num().String()
	}
	for n := 1; n <= 20 && !r.IsInt(); n++ {
		s := r.FloatString(n)
		if q, ok := new(big.Rat).SetString(s); ok && q.Cmp(r) == 0 {
			return s
		}
	}
	f, _ := r.Float64()
	return boundText(f)
}

// pickCause chooses which failed alternative of a oneOf/anyOf to report: the one the form
// selected, or else the one with the fewest complaints.
func pickCause(e *jsonschema.ValidationError, ptr string, chosen func(string) (int, bool)) *jsonschema.ValidationError {
	if chosen != nil {
		if i, ok := chosen(ptr); ok {
			for _, c := range e.Causes {
				if alternativeIndex(c.SchemaURL) == i {
					return c
				}
			}
		}
	}
	best, bestN := e.Causes[0], -1
	for _, c := range e.Causes {
		if n := leaves(c); bestN < 0 || n < bestN {
			best, bestN = c, n
		}
	}
	return best
}

// alternativeIndex is N in a schema location ending in /oneOf/N or /anyOf/N, else -1.
func alternativeIndex(loc string) int {
	i := strings.LastIndex(loc, "/")
	if i < 0 {
		return -1
	}
	n, err := strconv.Atoi(loc[i+1:])
	if err != nil || !(strings.HasSuffix(loc[:i], "/oneOf") || strings.HasSuffix(loc[:i], "/anyOf")) {
		return -1
	}
	return n
}

func leaves(e *jsonschema.ValidationError) int {
	if len(e.Causes) == 0 {
		return 1
	}
	n := 0
	for _, c := range e.Causes {
		n += leaves(c)
	}
	return n
}

// sortProblems orders problems by where their field appears in the form; pointers the form
// has no field for keep their order, after those it has.
func sortProblems(ps []Problem, order map[string]int) {
	rank := func(ptr string) int {
		for {
			if r, ok := order[ptr]; ok {
				return r
			}
			i := strings.LastIndex(ptr, "/")
			if i < 0 {
				return len(order)
			}
			ptr = ptr[:i]
		}
	}
	sort.SliceStable(ps, func(i, j int) bool { return rank(ps[i].Pointer) < rank(ps[j].Pointer) })
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
