package card

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/mcpscope/mcpscope/protocol"
)

// Media types of the extension.
const (
	// MediaType is a card's: clients ask for it with Accept, servers answer with it.
	MediaType = "application/mcp-server-card+json"
	// CatalogMediaType is an AI Catalog's, when served over HTTP.
	CatalogMediaType = "application/ai-catalog+json"
)

// Transport types a remote may name.
const (
	TypeStreamable = "streamable-http"
	TypeSSE        = "sse"
)

// Card is what mcpscope reads of a server card. Every member is read by its exact key (as
// protocol.MemberString does), so a card with "Name" beside "name" is judged by "name".
type Card struct {
	Schema      string   `json:"$schema,omitempty"`
	Name        string   `json:"name"`
	Version     string   `json:"version"`
	Description string   `json:"description,omitempty"`
	Title       string   `json:"title,omitempty"`
	WebsiteURL  string   `json:"websiteUrl,omitempty"`
	Remotes     []Remote `json:"remotes,omitempty"`
}

// Remote is one endpoint a card names.
type Remote struct {
	Type     string   `json:"type"`
	URL      string   `json:"url"`
	Headers  []Header `json:"headers,omitempty"`
	Versions []string `json:"supportedProtocolVersions,omitempty"`
	// Variables are the names of the variables the remote defines for its url template.
	Variables []string `json:"variables,omitempty"`
}

// Header is a header a remote describes.
type Header struct {
	Name     string `json:"name"`
	Required bool   `json:"isRequired,omitempty"`
	Secret   bool   `json:"isSecret,omitempty"`
}

// Templated reports whether the remote's url has {variables} to fill in before use.
func (r Remote) Templated() bool {
	for i := 0; i < len(r.URL); i++ {
		if r.URL[i] == '{' {
			return true
		}
	}
	return false
}

// ErrNotObject is Decode's error for a document that is not a JSON object.
var ErrNotObject = errors.New("the document is not a JSON object")

// Decode reads a card. It is lenient: members of the wrong type are left empty (Validate
// says what is wrong); only a document that is not a JSON object is an error.
//
// Bounded: one pass over raw per member read; the caller bounds raw.
func Decode(raw []byte) (Card, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(raw, &probe); err != nil || probe == nil {
		return Card{}, ErrNotObject
	}
	str := func(obj []byte, key string) string {
		s, _ := protocol.MemberString(obj, key)
		return s
	}
	c := Card{Schema: str(raw, "$schema"), Name: str(raw, "name"), Version: str(raw, "version"),
		Description: str(raw, "description"), Title: str(raw, "title"), WebsiteURL: str(raw, "websiteUrl")}
	for _, r := range members(raw, "remotes") {
		rem := Remote{Type: str(r, "type"), URL: str(r, "url")}
		for _, h := range members(r, "headers") {
			hd := Header{Name: str(h, "name")}
			hd.Required, _ = boolMember(h, "isRequired")
			hd.Secret, _ = boolMember(h, "isSecret")
			rem.Headers = append(rem.Headers, hd)
		}
		for _, v := range members(r, "supportedProtocolVersions") {
			var s string
			if json.Unmarshal(v, &s) == nil {
				rem.Versions = append(rem.Versions, s)
			}
		}
		if v, ok := protocol.MemberValue(r, "variables"); ok {
			if ms, ok := protocol.ObjectMembers(v); ok {
				for _, m := range ms {
					rem.Variables = append(rem.Variables, m.Key)
				}
			}
		}
		c.Remotes = append(c.Remotes, rem)
	}
	return c, nil
}

// members is the elements of obj's array member key (none when it is absent or no array).
func members(obj []byte, key string) []json.RawMessage {
	v, ok := protocol.MemberValue(obj, key)
	if !ok {
		return nil
	}
	var arr []json.RawMessage
	if json.Unmarshal(v, &arr) != nil {
		return nil
	}
	return arr
}

// boolMember is obj's boolean member key.
func boolMember(obj []byte, key string) (bool, bool) {
	v, ok := protocol.MemberValue(obj, key)
	if !ok {
		return false, false
	}
	b, err := strconv.ParseBool(string(v))
	return b, err == nil
}
