package demo

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Completion candidates for prompt arguments.
var (
	greetStyles   = []string{"casual", "formal", "pirate", "poetic"}
	languages     = []string{"c", "go", "java", "javascript", "python", "ruby", "rust", "typescript", "zig"}
	reviewFocuses = []string{"correctness", "performance", "readability", "security", "tests"}
	// languageFocuses adds focuses that only make sense for one language, to
	// show completion using context.arguments.
	languageFocuses = map[string][]string{
		"go":   {"concurrency", "error handling"},
		"rust": {"lifetimes", "unsafe"},
		"c":    {"memory safety"},
	}
)

// addPrompts registers the demo prompts.
func (d *demo) addPrompts() {
	d.server.AddPrompt(&mcp.Prompt{
		Name:        "greet",
		Title:       "Greeting",
		Description: "Asks the model to greet someone. The style argument has completion.",
		Arguments: []*mcp.PromptArgument{
			{Name: "name", Title: "Name", Description: "Who to greet.", Required: true},
			{Name: "style", Title: "Style", Description: "casual, formal, pirate or poetic (default casual)."},
		},
	}, d.getGreet)
	d.server.AddPrompt(&mcp.Prompt{
		Name:        "code_review",
		Title:       "Code review",
		Description: "Asks for a code review. language and focus have completion; focus suggestions depend on the language.",
		Arguments: []*mcp.PromptArgument{
			{Name: "language", Title: "Language", Description: "Programming language of the code.", Required: true},
			{Name: "focus", Title: "Focus", Description: "What to pay most attention to."},
			{Name: "code", Title: "Code", Description: "The code to review (may span several lines)."},
		},
	}, d.getCodeReview)
	d.server.AddPrompt(&mcp.Prompt{
		Name:        "showcase",
		Title:       "Content showcase",
		Description: "Returns several messages mixing text, an image and an embedded resource.",
		Arguments: []*mcp.PromptArgument{
			{Name: "topic", Title: "Topic", Description: "What the conversation is about (default MCP)."},
		},
		Icons: []mcp.Icon{{Source: pngDataURI(16), MIMEType: "image/png", Sizes: []string{"16x16"}}},
	}, d.getShowcase)
}

// requireArg returns a required prompt argument or an invalid-params error.
func requireArg(req *mcp.GetPromptRequest, name string) (string, error) {
	v := strings.TrimSpace(req.Params.Arguments[name])
	if v == "" {
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("prompt %s: missing required argument %q", req.Params.Name, name)}
	}
	return v, nil
}

func (d *demo) getGreet(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	name, err := requireArg(req, "name")
	if err != nil {
		return nil, err
	}
	style := req.Params.Arguments["style"]
	if style == "" {
		style = "casual"
	}
	return &mcp.GetPromptResult{
		Description: "A " + style + " greeting",
		Messages: []*mcp.PromptMessage{{
			Role:    "user",
			Content: &mcp.TextContent{Text: fmt.Sprintf("Write a short, %s greeting for %s.", style, name)},
		}},
	}, nil
}

func (d *demo) getCodeReview(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	lang, err := requireArg(req, "language")
	if err != nil {
		return nil, err
	}
	focus := req.Params.Arguments["focus"]
	if focus == "" {
		focus = "correctness"
	}
	code := req.Params.Arguments["code"]
	if code == "" {
		code = "func add(a, b int) int { return a - b }"
	}
	return &mcp.GetPromptResult{
		Description: "Review " + lang + " code for " + focus,
		Messages: []*mcp.PromptMessage{
			{Role: "user", Content: &mcp.TextContent{Text: fmt.Sprintf("Please review this %s code, focusing on %s:\n\n```%s\n%s\n```", lang, focus, lang, code)}},
		},
	}, nil
}

func (d *demo) getShowcase(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	topic := req.Params.Arguments["topic"]
	if topic == "" {
		topic = "MCP"
	}
	return &mcp.GetPromptResult{
		Description: "A conversation about " + topic + " with mixed content",
		Messages: []*mcp.PromptMessage{
			{Role: "user", Content: &mcp.TextContent{Text: "Let's talk about " + topic + ". Here is a picture and a document."}},
			{Role: "user", Content: &mcp.ImageContent{MIMEType: "image/png", Data: demoPNG(32)}},
			{Role: "user", Content: &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: uriReadme, MIMEType: "text/markdown", Text: readmeText}}},
			{Role: "assistant", Content: &mcp.TextContent{Text: "Thanks! I can see a generated logo and the read-me of the demo server."}},
			{Role: "user", Content: &mcp.ResourceLink{URI: notesPrefix + "mcp", Name: "notes-mcp", MIMEType: "text/markdown"}},
		},
	}, nil
}

func (d *demo) getBonusPrompt(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
		{Role: "user", Content: &mcp.TextContent{Text: "You found the bonus prompt."}},
	}}, nil
}

// complete answers completion/complete for prompt arguments and for the
// {topic} variable of the notes template.
func (d *demo) complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	ref, arg := req.Params.Ref, req.Params.Argument
	var ctxArgs map[string]string
	if req.Params.Context != nil {
		ctxArgs = req.Params.Context.Arguments
	}
	var candidates []string
	switch {
	case ref.Type == "ref/prompt" && ref.Name == "greet" && arg.Name == "style":
		candidates = greetStyles
	case ref.Type == "ref/prompt" && ref.Name == "code_review" && arg.Name == "language":
		candidates = languages
	case ref.Type == "ref/prompt" && ref.Name == "code_review" && arg.Name == "focus":
		candidates = append(slices.Clone(reviewFocuses), languageFocuses[strings.ToLower(ctxArgs["language"])]...)
		slices.Sort(candidates)
	case ref.Type == "ref/prompt" && ref.Name == "showcase" && arg.Name == "topic":
		candidates = noteTopics
	case ref.Type == "ref/resource" && ref.URI == notesPattern && arg.Name == "topic":
		candidates = noteTopics
	}
	values := []string{}
	prefix := strings.ToLower(arg.Value)
	for _, c := range candidates {
		if strings.HasPrefix(c, prefix) {
			values = append(values, c)
		}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: len(values)}}, nil
}
