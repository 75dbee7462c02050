package sessiontest

import (
	"bytes"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// CheckResult reports whether raw, a result a server sent (the JSON-RPC response's
// "result"), matches definition def (CallToolResult, ListToolsResult, InitializeResult …)
// of revision rev: for tests of mcpscope's own servers (serve, the demo).
func (v *SchemaValidator) CheckResult(rev, def string, raw []byte) error {
	rs, err := v.revision(rev)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("schema %s: result is not JSON: %v", rev, err)
	}
	if err := v.validate(rs, def, inst); err != nil {
		return fmt.Errorf("schema %s: result does not match %s: %v\nresult: %s", rev, def, err, clip(raw))
	}
	return nil
}
