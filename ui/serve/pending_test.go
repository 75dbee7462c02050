package serve

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// eraOpener opens a stdio session on the target's command in the target's protocol, with
// the roots it names declared.
func eraOpener(t Target) (*Opened, error) {
	o, _ := eraSession(t)
	return o, nil
}

// eraSession is eraOpener's session and its transport.
func eraSession(t Target) (*Opened, transport.Transport) {
	var tr transport.Transport
	if t.URL != "" {
		tr = transport.NewStreamableHTTP(transport.HTTPOptions{URL: t.URL})
	} else {
		tr = transport.NewStdio(transport.StdioOptions{Command: t.Command[0], Args: t.Command[1:], Env: t.Env})
	}
	var roots []session.Root
	for _, r := range t.Roots {
		roots = append(roots, session.RootFromPath(r))
	}
	h := &session.Headless{Roots: roots, Elicit: t.Elicit, SamplingReply: t.SamplingReply}
	caps := session.DefaultCaps()
	caps.Tasks = true
	s := session.New(session.Config{Transport: tr, Protocol: t.Protocol, Caps: caps, Responder: h})
	return &Opened{Session: s, Header: recordings.Header{Server: strings.Join(t.Command, " ") + t.URL, Transport: tr.Name(), Protocol: t.Protocol}}, tr
}

// TestPendingQuestions: in both eras, a call whose server asks (a form, a URL, sampling)
// returns at once with the question pending; the agent answers it (a form's content checked
// against its schema) and await_call gives the call's result, built from the answer.
func TestPendingQuestions(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(era, func(t *testing.T) {
			s := New(Options{Open: eraOpener, RecordDir: t.TempDir()})
			defer s.Close()
			cs := inMemory(t, s)
			var c Connected
			callInto(t, cs, "connect", map[string]any{"command": []string{bin, "demo"}, "protocol": era}, &c)
			if !strings.HasPrefix(c.Answers.Elicitation, "asked") || !strings.HasPrefix(c.Answers.Sampling, "asked") {
				t.Errorf("default policies: %+v", c.Answers)
			}

			// A form: the call returns with the question; a wrong answer is refused.
			var form Answer
			callInto(t, cs, "call_tool", map[string]any{"session": c.Session, "name": "ask_user", "arguments": map[string]any{"message": "Who are you?"}}, &form)
			if form.Call == "" || len(form.Pending) != 1 || form.Pending[0].Kind != "form" || form.Pending[0].Message != "Who are you?" ||
				!strings.Contains(string(form.Pending[0].Schema), `"name"`) || form.Pending[0].Session != c.Session || form.Result != nil {
				t.Fatalf("call_tool ask_user: %+v", form)
			}
			q := form.Pending[0]
			var list PendingOut
			callInto(t, cs, "pending", map[string]any{}, &list)
			if len(list.Questions) != 1 || list.Questions[0].ID != q.ID || len(list.Calls) != 1 || list.Calls[0] != form.Call {
				t.Errorf("pending: %+v", list)
			}
			if msg, _ := toolError(t, cs, "answer", map[string]any{"id": q.ID, "action": "accept", "content": map[string]any{"name": "Ada", "age": 200}}); !strings.Contains(msg, "schema") {
				t.Errorf("an answer outside the schema: %s", msg)
			}
			var sent Answered
			callInto(t, cs, "answer", map[string]any{"id": q.ID, "action": "accept", "content": map[string]any{"name": "Ada", "age": 36}}, &sent)
			if sent.Session != c.Session || !strings.Contains(string(sent.Sent), `"Ada"`) || len(sent.Calls) != 1 {
				t.Errorf("answer: %+v", sent)
			}
			var done Answer
			callInto(t, cs, "await_call", map[string]any{"call": form.Call}, &done)
			if !strings.Contains(string(done.Result), "Thanks, Ada") || done.Call != "" || done.Exchange.RequestSeq == 0 || done.Exchange.ResponseSeq == 0 {
				t.Errorf("await_call after the form: %s %+v", done.Result, done)
			}
			if msg, _ := toolError(t, cs, "await_call", map[string]any{"call": form.Call}); !strings.Contains(msg, "already") {
				t.Errorf("await_call twice: %s", msg)
			}

			// A URL: accept says the user is done with the page.
			var url Answer
			callInto(t, cs, "call_tool", map[string]any{"session": c.Session, "name": "ask_url"}, &url)
			if len(url.Pending) != 1 || url.Pending[0].Kind != "url" || !strings.HasPrefix(url.Pending[0].URL, "https://example.com/") {
				t.Fatalf("call_tool ask_url: %+v", url)
			}
			callInto(t, cs, "answer", map[string]any{"id": url.Pending[0].ID, "action": "accept"}, &sent)
			callInto(t, cs, "await_call", map[string]any{"call": url.Call}, &done)
			if done.Exchange.ResponseSeq == 0 || done.Exchange.ToolError {
				t.Errorf("await_call after the URL: %s %+v", done.Result, done)
			}

			// Sampling: the agent writes the model's reply.
			var smp Answer
			callInto(t, cs, "call_tool", map[string]any{"session": c.Session, "name": "summarize", "arguments": map[string]any{"text": "a long text"}}, &smp)
			if len(smp.Pending) != 1 || smp.Pending[0].Kind != "sampling" || !strings.Contains(string(smp.Pending[0].Params), "a long text") {
				t.Fatalf("call_tool summarize: %+v", smp)
			}
			callInto(t, cs, "answer", map[string]any{"id": smp.Pending[0].ID, "action": "accept", "text": "short-reply-42"}, &sent)
			callInto(t, cs, "await_call", map[string]any{"call": smp.Call}, &done)
			if !strings.Contains(string(done.Result), "short-reply-42") {
				t.Errorf("await_call after sampling: %s %+v", done.Result, done)
			}

			// Declined: the server is told.
			callInto(t, cs, "call_tool", map[string]any{"session": c.Session, "name": "ask_user"}, &form)
			callInto(t, cs, "answer", map[string]any{"id": form.Pending[0].ID, "action": "decline"}, &sent)
			callInto(t, cs, "await_call", map[string]any{"call": form.Call}, &done)
			if !strings.Contains(string(done.Result), "declined") {
				t.Errorf("await_call after decline: %s", done.Result)
			}
			list = PendingOut{}
			callInto(t, cs, "pending", map[string]any{}, &list)
			if len(list.Questions) != 0 || len(list.Calls) != 0 {
				t.Errorf("pending at the end: %+v", list)
			}
		})
	}
}

// TestElicitPolicy: a fixed policy answers without asking, as before.
func TestElicitPolicy(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	s := New(Options{Open: eraOpener, RecordDir: t.TempDir()})
	defer s.Close()
	cs := inMemory(t, s)
	var c Connected
	callInto(t, cs, "connect", map[string]any{"command": []string{bin, "demo"}, "protocol": "2025-11-25", "elicit": "decline", "sampling": "decline"}, &c)
	var a Answer
	callInto(t, cs, "call_tool", map[string]any{"session": c.Session, "name": "ask_user"}, &a)
	if a.Call != "" || !strings.Contains(string(a.Result), "declined") {
		t.Errorf("ask_user with elicit decline: %+v", a)
	}
	callInto(t, cs, "call_tool", map[string]any{"session": c.Session, "name": "summarize", "arguments": map[string]any{"text": "x"}}, &a)
	if a.Call != "" || a.Exchange.ResponseSeq == 0 {
		t.Errorf("summarize with sampling decline: %+v", a)
	}
}

// TestCallTimeout: a call whose server does not answer within timeout_ms ends with the
// failure in its exchange, and is not left among the calls to read; a call handed over
// with wait_ms is read with await_call.
func TestCallTimeout(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	s := New(Options{Open: eraOpener, RecordDir: t.TempDir()})
	defer s.Close()
	cs := inMemory(t, s)
	var c Connected
	callInto(t, cs, "connect", map[string]any{"command": []string{bin, "demo"}, "protocol": "2025-11-25"}, &c)
	var slow Answer
	callInto(t, cs, "call_tool", map[string]any{"session": c.Session, "name": "slow", "arguments": map[string]any{"seconds": 5}, "timeout_ms": 200}, &slow)
	if !strings.Contains(slow.Exchange.Failure, "no response within") || slow.Call != "" {
		t.Errorf("a call past its timeout: %+v", slow)
	}
	var handed Answer
	callInto(t, cs, "call_tool", map[string]any{"session": c.Session, "name": "slow", "arguments": map[string]any{"seconds": 0.5}, "wait_ms": 1}, &handed)
	if handed.Call == "" || handed.Exchange.ResponseSeq != 0 {
		t.Fatalf("a call handed over after wait_ms: %+v", handed)
	}
	var done Answer
	callInto(t, cs, "await_call", map[string]any{"call": handed.Call}, &done)
	if done.Exchange.ResponseSeq == 0 || done.Exchange.Failure != "" {
		t.Errorf("await_call of the handed-over call: %+v", done)
	}
	var list PendingOut
	callInto(t, cs, "pending", map[string]any{}, &list)
	if len(list.Calls) != 0 {
		t.Errorf("calls left to read: %v", list.Calls)
	}
}

// TestQuestionBounded: a question larger than 16 KiB is shown cut, its schema left out,
// and the answer is still checked against the whole schema.
func TestQuestionBounded(t *testing.T) {
	qs := newQuestions()
	a := &asker{qs: qs, elicit: policyAsk, inner: &session.Headless{}}
	a.setID("s1")
	big := strings.Repeat("x", 20<<10)
	params := `{"message":"` + big + `","requestedSchema":{"type":"object","description":"` + big +
		`","properties":{"n":{"type":"integer"}},"required":["n"]}}`
	got := make(chan string, 1)
	go func() {
		res, _ := a.Respond(context.Background(), &session.ServerRequest{Method: "elicitation/create", Params: json.RawMessage(params)})
		got <- string(res)
	}()
	var q Question
	for {
		list, changed, _ := qs.list("s1", 0)
		if len(list) > 0 {
			q = list[0]
			break
		}
		<-changed
	}
	if !q.Cut || q.Schema != nil || len(q.Message) > maxParamsShown {
		t.Errorf("a large question: cut %v, schema %d bytes, message %d bytes", q.Cut, len(q.Schema), len(q.Message))
	}
	s := &Server{questions: qs, calls: newCalls(), reg: newRegistry()}
	if _, err := s.answer(context.Background(), AnswerIn{ID: q.ID, Action: "accept", Content: json.RawMessage(`{"n":"not a number"}`)}); err == nil {
		t.Error("an answer outside the whole schema was sent")
	}
	if _, err := s.answer(context.Background(), AnswerIn{ID: q.ID, Action: "accept", Content: json.RawMessage(`{"n":3}`)}); err != nil {
		t.Fatal(err)
	}
	if r := <-got; r != `{"action":"accept","content":{"n":3}}` {
		t.Errorf("sent %s", r)
	}
}
