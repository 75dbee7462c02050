package tokens

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
)

// Encoding names the vocabulary every count uses; outputs say it.
const Encoding = "o200k_base"

// encoder loads the vocabulary on first use.
var encoder = sync.OnceValues(loadEncoder)

// loadEncoder parses the vocabulary shipped in the binary.
func loadEncoder() (*tiktoken.Tiktoken, error) {
	tiktoken.SetBpeLoader(loader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding(Encoding)
	if err != nil {
		return nil, fmt.Errorf("load the %s vocabulary: %w", Encoding, err)
	}
	return enc, nil
}

// Count is the number of tokens of s. The first call loads the vocabulary (some hundred
// milliseconds); it fails only if the vocabulary shipped in the binary cannot be read.
func Count(s string) (int, error) {
	enc, err := encoder()
	if err != nil {
		return 0, err
	}
	if s == "" {
		return 0, nil
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return len(enc.EncodeOrdinary(s)), nil
		}
	}
	encode := func(p string) int { return len(enc.EncodeOrdinary(p)) }
	return piecesCost(s, encode), nil
}

// toolMembers are the members of a tool a host forwards to a model.
var toolMembers = []string{"name", "title", "description", "inputSchema", "outputSchema"}

// promptMembers are the members of a prompt a host shows a model or a user.
var promptMembers = []string{"name", "title", "description", "arguments"}

// Tool is the cost of one tool of a tools/list result: its compact JSON with the members
// a host forwards to a model, in the order sent.
func Tool(raw json.RawMessage) (int, error) { return Count(pick(raw, toolMembers)) }

// Prompt is the cost of one prompt of a prompts/list result.
func Prompt(raw json.RawMessage) (int, error) { return Count(pick(raw, promptMembers)) }

// pick is the compact JSON object of raw's members named in keep, in raw's order; raw
// compacted as it is when it is not an object.
func pick(raw json.RawMessage, keep []string) string {
	members, ok := protocol.ObjectMembers(raw)
	if !ok {
		var b bytes.Buffer
		if json.Compact(&b, raw) != nil {
			return string(raw)
		}
		return b.String()
	}
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, m := range members {
		want := false
		for _, k := range keep {
			want = want || k == m.Key
		}
		if !want {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		key, _ := json.Marshal(m.Key)
		b.Write(key)
		b.WriteByte(':')
		if json.Compact(&b, m.Value) != nil {
			b.Write(m.Value)
		}
	}
	b.WriteByte('}')
	return b.String()
}
