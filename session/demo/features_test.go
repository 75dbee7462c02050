package demo

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestResources(t *testing.T) {
	s := startStdio(t)
	initialize(t, s.lineClient, "2025-11-25", `{}`)

	var uris []string
	var sizes []int
	cursor := ""
	for {
		params := `{}`
		if cursor != "" {
			params = fmt.Sprintf(`{"cursor":%q}`, cursor)
		}
		var page struct {
			Resources []struct {
				URI      string `json:"uri"`
				MIMEType string `json:"mimeType"`
			} `json:"resources"`
			NextCursor string `json:"nextCursor"`
		}
		s.roundTrip("resources/list", params).result(t, &page)
		sizes = append(sizes, len(page.Resources))
		for _, r := range page.Resources {
			uris = append(uris, r.URI)
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if !slices.Equal(sizes, []int{10, 10, 10, 1}) {
		t.Errorf("page sizes = %v, want three pages of 10 and the app's", sizes)
	}
	for _, want := range []string{uriReadme, uriConfig, uriLogo, uriChime, uriCounter, "demo://items/25", uriDiceApp} {
		if !slices.Contains(uris, want) {
			t.Errorf("resources/list lacks %s", want)
		}
	}

	var templates struct {
		ResourceTemplates []struct{ URITemplate string } `json:"resourceTemplates"`
	}
	s.roundTrip("resources/templates/list", `{}`).result(t, &templates)
	if len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != notesPattern {
		t.Errorf("templates = %+v", templates)
	}

	reads := []struct{ uri, mime, text, blobMagic string }{
		{uriReadme, "text/markdown", "# mcpscope demo server", ""},
		{uriConfig, "application/json", `"pageSize": 10`, ""},
		{uriLogo, "image/png", "", "\x89PNG"},
		{uriChime, "audio/wav", "", "RIFF"},
		{"demo://items/07", "text/plain", "item 07 of 25", ""},
		{"demo://notes/go", "text/markdown", "# Notes on go", ""},
	}
	for _, rd := range reads {
		var res struct {
			Contents []struct {
				URI, MIMEType, Text, Blob string
			} `json:"contents"`
		}
		s.roundTrip("resources/read", fmt.Sprintf(`{"uri":%q}`, rd.uri)).result(t, &res)
		if len(res.Contents) != 1 {
			t.Fatalf("%s: %d contents", rd.uri, len(res.Contents))
		}
		c := res.Contents[0]
		blob, _ := base64.StdEncoding.DecodeString(c.Blob)
		if c.URI != rd.uri || c.MIMEType != rd.mime || !strings.Contains(c.Text, rd.text) || !strings.HasPrefix(string(blob), rd.blobMagic) {
			t.Errorf("read %s = %s %s %.40q blob %.4q", rd.uri, c.URI, c.MIMEType, c.Text, blob)
		}
	}
	if r := s.roundTrip("resources/read", `{"uri":"demo://missing"}`); r.Error == nil {
		t.Errorf("reading a missing resource: %s", r.raw)
	}
}

func TestPromptsAndCompletion(t *testing.T) {
	s := startStdio(t)
	initialize(t, s.lineClient, "2025-11-25", `{}`)

	var list struct {
		Prompts []struct {
			Name      string
			Arguments []struct {
				Name     string
				Required bool
			}
		}
	}
	s.roundTrip("prompts/list", `{}`).result(t, &list)
	var names []string
	for _, p := range list.Prompts {
		names = append(names, p.Name)
	}
	if !slices.Equal(names, []string{"code_review", "greet", "showcase"}) {
		t.Errorf("prompts = %v", names)
	}

	var greet struct {
		Messages []struct {
			Role    string
			Content content
		}
	}
	s.roundTrip("prompts/get", `{"name":"greet","arguments":{"name":"Ada","style":"pirate"}}`).result(t, &greet)
	if len(greet.Messages) != 1 || !strings.Contains(greet.Messages[0].Content.Text, "pirate greeting for Ada") {
		t.Errorf("greet = %+v", greet)
	}
	if r := s.roundTrip("prompts/get", `{"name":"greet","arguments":{}}`); r.Error == nil || r.Error.Code != -32602 {
		t.Errorf("greet without its required argument: %s", r.raw)
	}

	var showcase struct {
		Messages []struct {
			Role    string
			Content content
		}
	}
	s.roundTrip("prompts/get", `{"name":"showcase"}`).result(t, &showcase)
	var kinds []string
	for _, m := range showcase.Messages {
		kinds = append(kinds, m.Role+":"+m.Content.Type)
	}
	if want := []string{"user:text", "user:image", "user:resource", "assistant:text", "user:resource_link"}; !slices.Equal(kinds, want) {
		t.Errorf("showcase messages = %v, want %v", kinds, want)
	}

	completions := []struct{ params, want string }{
		{`{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"style","value":"p"}}`, `["pirate","poetic"]`},
		{`{"ref":{"type":"ref/prompt","name":"code_review"},"argument":{"name":"language","value":"ru"}}`, `["ruby","rust"]`},
		{`{"ref":{"type":"ref/prompt","name":"code_review"},"argument":{"name":"focus","value":"c"},"context":{"arguments":{"language":"go"}}}`, `["concurrency","correctness"]`},
		{`{"ref":{"type":"ref/prompt","name":"code_review"},"argument":{"name":"focus","value":"c"}}`, `["correctness"]`},
		{`{"ref":{"type":"ref/resource","uri":"demo://notes/{topic}"},"argument":{"name":"topic","value":"s"}}`, `["sampling","stdio","streamable-http"]`},
		{`{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"name","value":"x"}}`, `[]`},
	}
	for _, c := range completions {
		r := s.roundTrip("completion/complete", c.params)
		if !strings.Contains(string(r.Result), `"values":`+c.want) {
			t.Errorf("complete %s = %s, want values %s", c.params, r.raw, c.want)
		}
	}
}
