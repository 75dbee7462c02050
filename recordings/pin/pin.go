package pin

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/mcpscope/mcpscope/session"
)

// FormatVersion is the version of the pin file format; the member "mcpscope_pin" holding it
// is what marks a file as a pin file.
const FormatVersion = 1

// HashAlgorithm is how an item's canonical JSON is hashed; hashes are written "sha256:HEX".
const HashAlgorithm = "sha256"

// Kind is what an item is.
type Kind string

// The kinds of items, in the order a Set keeps them.
const (
	KindCapabilities Kind = "capabilities"
	KindInstructions Kind = "instructions"
	KindTool         Kind = "tool"
	KindPrompt       Kind = "prompt"
	KindResource     Kind = "resource"
	KindTemplate     Kind = "template"
)

// Kinds in display order.
var Kinds = []Kind{KindCapabilities, KindInstructions, KindTool, KindPrompt, KindResource, KindTemplate}

// listKinds maps each list to the kind of its items.
var listKinds = map[session.ListKind]Kind{
	session.ListTools:     KindTool,
	session.ListPrompts:   KindPrompt,
	session.ListResources: KindResource,
	session.ListTemplates: KindTemplate,
}

// KindOf is the kind of the items of a list.
func KindOf(l session.ListKind) Kind { return listKinds[l] }

// Item is one pinned definition.
type Item struct {
	Kind Kind `json:"kind"`
	// Name identifies the item within its kind: a tool's or prompt's name, a resource's
	// uri, a template's uriTemplate; "" for capabilities and instructions. A name listed
	// twice gets "#2", "#3" … after its later occurrences.
	Name string `json:"name"`
	// Hash is "sha256:" and the hex SHA-256 of the definition's canonical JSON.
	Hash string `json:"hash"`
	// Definition is the item as the server sent it.
	Definition json.RawMessage `json:"definition"`
}

// Key is the item's identity in a Set: its kind and name.
func (it Item) Key() string { return string(it.Kind) + " " + it.Name }

// Label is how reports name the item: `tool "echo"`, `capabilities`.
func (it Item) Label() string {
	if it.Name == "" {
		return string(it.Kind)
	}
	return string(it.Kind) + " " + strconv.Quote(it.Name)
}

// Server says which server a Set was taken from; Compare does not look at it.
type Server struct {
	Name     string `json:"name,omitempty"`
	Version  string `json:"version,omitempty"`
	Revision string `json:"revision,omitempty"` // the negotiated protocol revision
}

// Set is a server's definitions, one Item each.
type Set struct {
	Format           int       `json:"mcpscope_pin"`
	Canonicalization string    `json:"canonicalization"`
	HashAlgorithm    string    `json:"hashAlgorithm"`
	Created          time.Time `json:"created,omitzero"`
	Server           Server    `json:"server"`
	Items            []Item    `json:"items"`
	// Source says where the set was read from (a file, or "live server"); not saved.
	Source string `json:"-"`
	// Notes are what reading it noticed: a list the server declares but does not serve,
	// taken as empty; not saved.
	Notes []string `json:"-"`
}

// New builds a Set from what a session learned in its handshake and the items of its lists.
func New(info session.ServerInfo, lists map[session.ListKind][]json.RawMessage) *Set {
	s := &Set{Format: FormatVersion, Canonicalization: Canonicalization, HashAlgorithm: HashAlgorithm,
		Server: Server{Name: info.Implementation.Name, Version: info.Implementation.Version, Revision: string(info.Revision)}}
	caps := info.Capabilities
	if len(caps) == 0 {
		caps = json.RawMessage("{}")
	}
	s.add(KindCapabilities, "", caps)
	if info.Instructions != "" {
		b, _ := json.Marshal(info.Instructions)
		s.add(KindInstructions, "", b)
	}
	for _, l := range session.ListKinds {
		seen := map[string]int{}
		for i, raw := range lists[l] {
			name := itemName(l, raw, i)
			seen[name]++
			if n := seen[name]; n > 1 {
				name += "#" + strconv.Itoa(n)
			}
			s.add(listKinds[l], name, raw)
		}
	}
	return s
}

// itemName reads the member that names an item of list l; "#i" when it has none.
func itemName(l session.ListKind, raw json.RawMessage, i int) string {
	var v struct {
		Name        *string `json:"name"`
		URI         *string `json:"uri"`
		URITemplate *string `json:"uriTemplate"`
	}
	_ = json.Unmarshal(raw, &v)
	var p *string
	switch l {
	case session.ListResources:
		p = v.URI
	case session.ListTemplates:
		p = v.URITemplate
	default:
		p = v.Name
	}
	if p == nil {
		return "#" + strconv.Itoa(i+1)
	}
	return *p
}

func (s *Set) add(k Kind, name string, def json.RawMessage) {
	var c bytes.Buffer
	if json.Compact(&c, def) == nil {
		def = c.Bytes()
	}
	s.Items = append(s.Items, Item{Kind: k, Name: name, Hash: Hash(def), Definition: def})
}

// Hash is "sha256:" and the hex SHA-256 of def's canonical JSON (RFC 8785); of def's bytes
// as they are when def cannot be put in canonical form (not JSON, or a number beyond a double).
func Hash(def []byte) string {
	b, err := Canonical(def)
	if err != nil {
		b = def
	}
	sum := sha256.Sum256(b)
	return HashAlgorithm + ":" + hex.EncodeToString(sum[:])
}

// Find returns the item of kind k named name.
func (s *Set) Find(k Kind, name string) (Item, bool) {
	if s == nil {
		return Item{}, false
	}
	for _, it := range s.Items {
		if it.Kind == k && it.Name == name {
			return it, true
		}
	}
	return Item{}, false
}

// Save writes the set to path as indented JSON (replacing the file through a temporary one
// in the same directory).
func (s *Set) Save(path string) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".pin-*")
	if err != nil {
		return fmt.Errorf("write pin file: %w", err)
	}
	_, err = tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write pin file: %w", err)
	}
	return nil
}

// ErrNotPin says a file is not a pin file.
var ErrNotPin = errors.New("not a pin file")

// Load reads a pin file. Each item's hash is checked against its definition: a file edited
// by hand is an error rather than a set that compares wrongly.
func Load(path string) (*Set, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read pin file: %w", err)
	}
	return Parse(b, path)
}

// Parse reads a pin file's text; name is for messages.
func Parse(b []byte, name string) (*Set, error) {
	var s Set
	if err := json.Unmarshal(b, &s); err != nil || s.Format == 0 {
		return nil, fmt.Errorf("%s: %w", name, ErrNotPin)
	}
	if s.Format != FormatVersion {
		return nil, fmt.Errorf("%s: pin file format %d; this mcpscope reads %d", name, s.Format, FormatVersion)
	}
	for _, it := range s.Items {
		if h := Hash(it.Definition); h != it.Hash {
			return nil, fmt.Errorf("%s: %s: the hash %s does not match its definition (%s): the file was edited", name, it.Label(), it.Hash, h)
		}
	}
	s.Source = name
	return &s, nil
}

// Without returns the set without its items of the given kinds.
func (s *Set) Without(kinds ...Kind) *Set {
	out := *s
	out.Items = nil
	for _, it := range s.Items {
		if !slices.Contains(kinds, it.Kind) {
			out.Items = append(out.Items, it)
		}
	}
	return &out
}
