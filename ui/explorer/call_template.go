package explorer

import (
	"encoding/json"
	"fmt"
	"strings"
)

// promptSchema builds the JSON Schema of a prompt's arguments: an object of strings, in
// the prompt's order, the required ones marked.
func promptSchema(args []promptArg) json.RawMessage {
	props := make([]schemaProp, 0, len(args))
	var req []string
	for _, a := range args {
		props = append(props, schemaProp{name: a.Name, title: a.Title, desc: a.Description})
		if a.Required {
			req = append(req, a.Name)
		}
	}
	return objectSchema(props, req)
}

// templateSchema builds the JSON Schema of a uri template's variables: strings, all
// required but those of a query ({?a,b}, {&a}), which may be left out.
func templateSchema(vars []templateVar) json.RawMessage {
	props := make([]schemaProp, 0, len(vars))
	var req []string
	for _, v := range vars {
		props = append(props, schemaProp{name: v.name, desc: "uri template variable, expanded as {" + v.op + v.name + "}"})
		if v.op != "?" && v.op != "&" {
			req = append(req, v.name)
		}
	}
	return objectSchema(props, req)
}

// schemaProp is one string property of a generated schema.
type schemaProp struct{ name, title, desc string }

// objectSchema writes an object schema of string properties, keeping their order (a Go
// map would sort them).
func objectSchema(props []schemaProp, required []string) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i, p := range props {
		if i > 0 {
			b.WriteByte(',')
		}
		prop := map[string]string{"type": "string"}
		if p.title != "" {
			prop["title"] = p.title
		}
		if p.desc != "" {
			prop["description"] = p.desc
		}
		k, _ := json.Marshal(p.name)
		v, _ := json.Marshal(prop)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteString("}")
	if len(required) > 0 {
		r, _ := json.Marshal(required)
		b.WriteString(`,"required":`)
		b.Write(r)
	}
	b.WriteString("}")
	return json.RawMessage(b.String())
}

// templateVar is one variable of an RFC 6570 uri template, with its expression's operator.
type templateVar struct {
	name, op string
}

// templateVars lists a template's variables in order, each once.
func templateVars(tmpl string) []templateVar {
	var out []templateVar
	seen := map[string]bool{}
	for _, ex := range templateExprs(tmpl) {
		for _, name := range ex.names {
			if !seen[name] {
				seen[name] = true
				out = append(out, templateVar{name: name, op: ex.op})
			}
		}
	}
	return out
}

// templateExpr is one {…} of a template: where it is, its operator and variable names
// (the explode modifier * removed, prefix lengths such as :3 kept apart).
type templateExpr struct {
	start, end int // byte offsets of { and after }
	op         string
	names      []string
	prefix     []int // a {var:3} prefix length per name, 0 for the whole value
}

func templateExprs(tmpl string) []templateExpr {
	var out []templateExpr
	for i := 0; i < len(tmpl); {
		open := strings.IndexByte(tmpl[i:], '{')
		if open < 0 {
			break
		}
		open += i
		end := strings.IndexByte(tmpl[open:], '}')
		if end < 0 {
			break
		}
		end += open
		body := tmpl[open+1 : end]
		ex := templateExpr{start: open, end: end + 1}
		if body != "" && strings.ContainsRune("+#./;?&", rune(body[0])) {
			ex.op, body = body[:1], body[1:]
		}
		for n := range strings.SplitSeq(body, ",") {
			n = strings.TrimSuffix(n, "*")
			prefix := 0
			if c := strings.IndexByte(n, ':'); c >= 0 {
				fmt.Sscan(n[c+1:], &prefix)
				n = n[:c]
			}
			if n != "" {
				ex.names = append(ex.names, n)
				ex.prefix = append(ex.prefix, prefix)
			}
		}
		out = append(out, ex)
		i = end + 1
	}
	return out
}

// expandTemplate expands a uri template with values (level 3 of RFC 6570, which is what
// resource templates use): {var}, {+var}, {#var}, {.var}, {/var}, {;var}, {?a,b}, {&a}.
// Undefined or empty-string values are left out as the RFC says.
func expandTemplate(tmpl string, vals map[string]any) string {
	var b strings.Builder
	last := 0
	for _, ex := range templateExprs(tmpl) {
		b.WriteString(tmpl[last:ex.start])
		last = ex.end
		first, sep, named, ifEmpty, reserved := "", ",", false, "", false
		switch ex.op {
		case "+":
			reserved = true
		case "#":
			first, reserved = "#", true
		case ".":
			first, sep = ".", "."
		case "/":
			first, sep = "/", "/"
		case ";":
			first, sep, named = ";", ";", true
		case "?":
			first, sep, named, ifEmpty = "?", "&", true, "="
		case "&":
			first, sep, named, ifEmpty = "&", "&", true, "="
		}
		var parts []string
		for i, n := range ex.names {
			v, ok := vals[n]
			if !ok || v == nil {
				continue
			}
			s := fmt.Sprint(v)
			if str, isStr := v.(string); isStr {
				s = str
			}
			if r := []rune(s); ex.prefix[i] > 0 && len(r) > ex.prefix[i] {
				s = string(r[:ex.prefix[i]])
			}
			if s == "" && ex.op != ";" && !named {
				continue
			}
			enc := escapeTemplate(s, reserved)
			switch {
			case named && s == "":
				parts = append(parts, n+ifEmpty)
			case named:
				parts = append(parts, n+"="+enc)
			default:
				parts = append(parts, enc)
			}
		}
		if len(parts) > 0 {
			b.WriteString(first + strings.Join(parts, sep))
		}
	}
	b.WriteString(tmpl[last:])
	return b.String()
}

// escapeTemplate percent-encodes a value: everything but unreserved characters, and for
// {+var} and {#var} the reserved ones are kept too.
func escapeTemplate(s string, reserved bool) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-._~", c) >= 0,
			reserved && strings.IndexByte(":/?#[]@!$&'()*+,;=%", c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
