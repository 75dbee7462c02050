package demo

// Temporary: pins dependencies until the packages that use them land.
import (
	_ "github.com/alecthomas/kong"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
)
