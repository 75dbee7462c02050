package form

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// shippingSchema has an optional object (address) whose only default is inside it.
const shippingSchema = `{"type":"object","required":["shipping"],"properties":{
	"shipping":{"type":"object","required":["method"],"properties":{
		"method":{"type":"string","enum":["post","pickup"],"default":"post"},
		"address":{"type":"object","required":["street","city","zip","geo","verified"],"properties":{
			"street":{"type":"string"},"city":{"type":"string"},"zip":{"type":"string"},
			"country":{"type":"string","default":"DE"},
			"tags":{"type":"array","items":{"type":"string"},"default":["home"]},
			"verified":{"type":"boolean"},
			"geo":{"type":"object","required":["lat"],"properties":{"lat":{"type":"number","default":0}}}}}}}}}`

// TestOptionalObjectStaysAbsent: an optional object is sent only once the user enters
// something in it; the defaults inside it (a string, an array, a required object's number)
// do not create it, so its required members are no false problems. Entering one value
// sends it with its defaults; clearing that value leaves it absent again.
func TestOptionalObjectStaysAbsent(t *testing.T) {
	m := New(mustParse(t, shippingSchema), Options{})
	if got := value(t, m); got != `{"shipping":{"method":"post"}}` {
		t.Fatalf("fresh form: %s, want address absent", got)
	}
	if ps := m.Validate(); len(ps) != 0 {
		t.Fatalf("problems on a fresh form: %v", ps)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "address: "+hintAbsent) || !strings.Contains(v, "country: DE (default)") {
		t.Fatalf("the absent object is not drawn as unset, its default as a default:\n%s", v)
	}
	focusOn(m, "/shipping/address/street")
	typeText(t, m, "Hauptstraße 1")
	keys(t, m, "esc")
	want := `{"shipping":{"method":"post","address":{"street":"Hauptstraße 1","country":"DE","tags":["home"],"verified":false,"geo":{"lat":0}}}}`
	if got := value(t, m); got != want {
		t.Fatalf("after typing the street: %s, want %s", got, want)
	}
	var ptrs []string
	for _, p := range m.Validate() {
		ptrs = append(ptrs, p.Pointer)
	}
	if strings.Join(ptrs, " ") != "/shipping/address/city /shipping/address/zip" {
		t.Fatalf("problems %v, want city and zip required", ptrs)
	}
	keys(t, m, "ctrl+x")
	if got := value(t, m); got != `{"shipping":{"method":"post"}}` {
		t.Fatalf("the street cleared: %s, want address absent again", got)
	}
	typeText(t, m, "x")
	keys(t, m, "esc")
	focusOn(m, "/shipping/address")
	keys(t, m, "ctrl+x")
	if got := value(t, m); got != `{"shipping":{"method":"post"}}` {
		t.Fatalf("the address cleared: %s, want it absent", got)
	}

	// Toggling a boolean in it, adding an item to its array, or typing over its default
	// is entering something.
	for _, c := range []struct {
		ptr  string
		keys []string
		text string
		want string
	}{
		{"/shipping/address/verified", []string{"space"}, "", `"verified":true`},
		{"/shipping/address/tags", []string{"ctrl+n"}, "work", `"tags":["home","work"]`},
		{"/shipping/address/country", nil, "AT", `"country":"AT"`},
		{"/shipping/address/geo/lat", nil, "52.5", `"geo":{"lat":52.5}`},
	} {
		m := New(mustParse(t, shippingSchema), Options{})
		focusOn(m, c.ptr)
		keys(t, m, c.keys...)
		typeText(t, m, c.text)
		keys(t, m, "esc")
		if got := value(t, m); !strings.Contains(got, `"address":{`) || !strings.Contains(got, c.want) {
			t.Errorf("%s %v %q: %s, want the address with %s", c.ptr, c.keys, c.text, got, c.want)
		}
	}

	// Arguments read without the object leave it absent (its required boolean is no value
	// entered); with it, it is sent.
	m = New(mustParse(t, shippingSchema), Options{Initial: []byte(`{"shipping":{"method":"pickup"}}`)})
	if got := value(t, m); got != `{"shipping":{"method":"pickup"}}` {
		t.Fatalf("arguments without the object: %s", got)
	}
	m = New(mustParse(t, shippingSchema), Options{Initial: []byte(`{"shipping":{"method":"pickup","address":{"country":"FR","verified":true}}}`)})
	if got := value(t, m); got != `{"shipping":{"method":"pickup","address":{"country":"FR","verified":true}}}` {
		t.Fatalf("an object read from JSON: %s", got)
	}
}

// focusOn moves the focus to the field at ptr, as keys would, its bindings enabled.
func focusOn(m *Model, ptr string) {
	m.focusField(findField(m.root, ptr))
	m.syncKeys()
}

// TestOptionalVariantStaysAbsent: an optional choice of objects is not sent for the
// defaults of its first alternative, and its row says so; entering a value sends it.
func TestOptionalVariantStaysAbsent(t *testing.T) {
	m := New(mustParse(t, `{"properties":{"target":{"oneOf":[
		{"type":"object","title":"Repository","properties":{"url":{"type":"string"},"branch":{"type":"string","default":"main"}},"required":["url"]},
		{"type":"object","title":"Service","properties":{"name":{"type":"string"}},"required":["name"]}]}}}`), Options{})
	if got := value(t, m); got != `{}` {
		t.Fatalf("fresh form: %s, want the target absent", got)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "‹Repository›  "+hintAbsent) {
		t.Fatalf("the absent choice is not drawn as unset:\n%s", v)
	}
	keys(t, m, "down")
	typeText(t, m, "https://example.com/repo.git")
	keys(t, m, "esc")
	if got := value(t, m); got != `{"target":{"url":"https://example.com/repo.git","branch":"main"}}` {
		t.Fatalf("after typing the url: %s", got)
	}
}
