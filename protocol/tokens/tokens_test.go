package tokens

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
)

// TestKnownTokens: the vocabulary gives the token ids OpenAI's tiktoken gives for o200k_base.
func TestKnownTokens(t *testing.T) {
	enc, err := encoder()
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string][]int{
		"Hello world":   {13225, 2375},
		"Hello, world!": {13225, 11, 2375, 0},
		"你好世界":          {177519, 28428},
	} {
		if got := enc.EncodeOrdinary(text); !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
		if n, _ := Count(text); n != len(want) {
			t.Errorf("Count(%q) = %d, want %d", text, n, len(want))
		}
	}
}

// fixedTool is a tool definition with members a host does not forward (annotations, _meta).
const fixedTool = `{"name":"get_weather","title":"Weather","description":"Get current weather information for a location",
 "inputSchema":{"type":"object","properties":{"location":{"type":"string","description":"City name or zip code"}},"required":["location"]},
 "annotations":{"readOnlyHint":true},"_meta":{"x":1}}`

// TestToolCost: a tool costs the tokens of its compact JSON with the forwarded members only,
// in the order sent.
func TestToolCost(t *testing.T) {
	want := `{"name":"get_weather","title":"Weather","description":"Get current weather information for a location",` +
		`"inputSchema":{"type":"object","properties":{"location":{"type":"string","description":"City name or zip code"}},"required":["location"]}}`
	if got := pick(json.RawMessage(fixedTool), toolMembers); got != want {
		t.Fatalf("forwarded JSON\n got %s\nwant %s", got, want)
	}
	enc, _ := encoder()
	n, err := Tool(json.RawMessage(fixedTool))
	if err != nil {
		t.Fatal(err)
	}
	if n != len(enc.EncodeOrdinary(want)) || n != 49 {
		t.Errorf("tool costs %d tokens, want 49", n)
	}
	p, _ := Prompt(json.RawMessage(`{"name":"greet","description":"Hello world","arguments":[],"icons":[]}`))
	if p == 0 || p >= n {
		t.Errorf("prompt costs %d tokens", p)
	}
}

// BenchmarkCount3000Tools counts a list of 3,000 tools, the vocabulary already loaded.
// README's figure: under 100 ms.
func BenchmarkCount3000Tools(b *testing.B) {
	tools := make([]json.RawMessage, 3000)
	for i := range tools {
		tools[i] = json.RawMessage(fmt.Sprintf(`{"name":"tool_%d","description":"Tool number %d reads a record from the catalogue and returns its fields as JSON.","inputSchema":{"type":"object","properties":{"id":{"type":"string","description":"The record's id."},"fields":{"type":"array","items":{"type":"string"}}},"required":["id"]}}`, i, i))
	}
	if _, err := Count("warm"); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		b.StopTimer()
		forget() // from cold: no piece remembered from the last round
		b.StartTimer()
		for _, t := range tools {
			if _, err := Tool(t); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestASCIIPiecesMatchTheExpression: on ASCII text the hand-made split counts what the
// vocabulary's expression counts: random text over the characters each alternative turns
// on, and real definitions.
func TestASCIIPiecesMatchTheExpression(t *testing.T) {
	enc, err := encoder()
	if err != nil {
		t.Fatal(err)
	}
	alphabet := "aZbY09 \t\n\r\v\f'sStTrReEvVmMlLdD/.,:\"{}[]_-<>\x00\x1b"
	rng := uint64(1)
	texts := []string{fixedTool, "", " ", "  x", "a  ", "\n\n  \n x", "it's ALL'S we're", "12345 678", "  ///\n\n", "x'", "x'r", "ABCdef GHI jk"}
	for range 3000 {
		var b []byte
		for range int(rng>>59) + 1 {
			rng = rng*6364136223846793005 + 1442695040888963407
			b = append(b, alphabet[(rng>>33)%uint64(len(alphabet))])
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		var pieces []string
		asciiPieces(s, func(p string) { pieces = append(pieces, p) })
		got := 0
		for _, p := range pieces {
			got += len(enc.EncodeOrdinary(p))
		}
		if want := len(enc.EncodeOrdinary(s)); got != want {
			t.Fatalf("%q: pieces %q count %d, the expression %d", s, pieces, got, want)
		}
	}
}

// FuzzASCIIPieces: the split agrees with the expression on any ASCII text.
func FuzzASCIIPieces(f *testing.F) {
	f.Add(fixedTool)
	f.Add("it's  \n\n x ABCdef 1234//\r\n")
	enc, err := encoder()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 {
				return
			}
		}
		got := 0
		asciiPieces(s, func(p string) { got += len(enc.EncodeOrdinary(p)) })
		if want := len(enc.EncodeOrdinary(s)); got != want {
			t.Fatalf("%q: %d, want %d", s, got, want)
		}
	})
}

// BenchmarkLoadVocabulary is the cost of the first count, which parses the vocabulary. Run
// it with -benchtime 1x: tiktoken-go keeps the parsed ranks, so later rounds measure only
// the encoder built from them.
func BenchmarkLoadVocabulary(b *testing.B) {
	for b.Loop() {
		encoder = sync.OnceValues(loadEncoder)
		if _, err := encoder(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCountConcurrently: check --all counts several servers' tools at once; the counts
// agree with one another and with a count alone.
func TestCountConcurrently(t *testing.T) {
	want, err := Tool(json.RawMessage(fixedTool))
	if err != nil {
		t.Fatal(err)
	}
	forget()
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for i := range 8 {
		wg.Go(func() {
			for j := range 50 {
				text := fmt.Sprintf(`{"name":"t%d_%d","description":"Same words, again and again."}`, i, j)
				if _, err := Count(text); err != nil {
					errs <- err.Error()
					return
				}
				if n, _ := Tool(json.RawMessage(fixedTool)); n != want {
					errs <- fmt.Sprintf("%d tokens, want %d", n, want)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
