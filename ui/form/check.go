package form

import "encoding/json"

// Check validates a JSON value against a JSON Schema outside any form (a tool result's
// structuredContent against the tool's outputSchema), with the same draft, format and
// no-network rules as the form's own validation. Problems carry the JSON pointer of the
// value they belong to ("" for the whole value); a schema that does not compile is one
// problem saying why.
func Check(schema, value json.RawMessage) []Problem {
	c, err := compile(schema)
	if err != nil {
		return []Problem{{Message: "the schema cannot be checked: " + firstLine(err.Error())}}
	}
	s := &Schema{root: &root{compiled: c}}
	return s.validate(value, func(string) (int, bool) { return 0, false })
}
