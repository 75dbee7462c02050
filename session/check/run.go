package check

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// runner is the state of one run.
type runner struct {
	ctx       context.Context
	s         *session.Session
	ev        *events
	o         Options
	run       *Run
	rev       protocol.Revision
	caps      protocol.CheckContext
	pages     map[session.ListKind][]listed // each item with the page that carried it
	outSchema map[string]*compiled          // tools' outputSchemas, compiled
	inSchema  map[string]*compiled          // tools' inputSchemas, compiled
	cancelled []cancelled                   // the requests check cancelled
}

// listed is one item of a list and the Seq of the response that carried it.
type listed struct {
	raw json.RawMessage
	key string
	seq uint64
}

// cancelled is a request check gave up on.
type cancelled struct {
	seq     uint64 // its request event
	method  string
	running bool // it had run for CallWait: the server had no reason to finish it
}

// runEra runs every step of a check in one era.
func runEra(ctx context.Context, newSession NewSession, proto string, o Options) (*Run, error) {
	s, done, err := newSession(proto)
	if err != nil {
		return nil, err
	}
	ev := collect(s.SubscribeWith(session.SubscribeOptions{Lossless: true}))
	began := time.Now()
	if err := s.Connect(ctx); err != nil {
		done()
		<-ev.done
		return nil, err
	}
	info := s.Info()
	run := &Run{Revision: info.Revision, Stateless: info.Stateless, Transport: info.Transport,
		Startup: time.Since(began), supported: info.SupportedVersions, AppsDeclared: s.Caps().Apps}
	r := &runner{ctx: ctx, s: s, ev: ev, o: o, run: run, rev: info.Revision,
		caps:  protocol.CheckContext{Revision: info.Revision, ServerCaps: info.Capabilities},
		pages: map[session.ListKind][]listed{}, outSchema: map[string]*compiled{}, inSchema: map[string]*compiled{}}
	run.Definitions = Definitions{Revision: info.Revision, ServerInfo: info.Implementation,
		Capabilities: info.Capabilities, Instructions: info.Instructions, Listed: map[session.ListKind]bool{}}
	r.handshake(info)
	r.cardStep(info)
	for _, kind := range session.ListKinds {
		r.list(kind)
	}
	r.definitions()
	r.content()
	r.cost()
	r.reads()
	r.appsStep()
	r.eventsStep()
	r.calls()
	r.inputValidation()
	r.errorBehaviour()
	r.cancellation()
	done()
	<-ev.done
	r.evidence(ev.snapshot())
	slices.SortStableFunc(run.Items, func(a, b Item) int { return Rank(b.Severity) - Rank(a.Severity) })
	return run, nil
}

// add records a finding on the given events.
func (r *runner) add(f protocol.Finding, evs ...*session.Event) {
	r.addRef(f, protocol.SpecFor(f.Code, r.rev), evs...)
}

// addRef records a finding with an explicit spec reference.
func (r *runner) addRef(f protocol.Finding, ref protocol.SpecRef, evs ...*session.Event) {
	it := Item{Code: f.Code, Severity: f.Severity, Message: f.Message, Spec: ref}
	for _, e := range evs {
		if e == nil {
			continue
		}
		if it.Excerpt == "" {
			it.Excerpt = excerpt(e)
		}
		it.Frames = append(it.Frames, e.Seq)
	}
	r.run.Items = append(r.run.Items, it)
}

// note records something check did not do, and why.
func (r *runner) note(format string, args ...any) {
	r.run.Notes = append(r.run.Notes, fmt.Sprintf(format, args...))
}

// handshakeEvent is the response that completed the handshake.
func (r *runner) handshakeEvent() *session.Event {
	for _, e := range r.ev.snapshot() {
		if e.Kind == session.EvFrame && e.Dir == protocol.ServerToClient && e.Frame.Kind == protocol.KindResult &&
			(e.Corr.Method == "initialize" || e.Corr.Method == "server/discover") {
			if e.Corr.Method == "server/discover" && len(protocol.CheckDiscoverResult(e.Frame.Result)) > 0 {
				continue
			}
			return e
		}
	}
	return nil
}

// instructionsLimit is the length of instructions beyond which check mentions it.
const instructionsLimit = 8 << 10

// handshake checks what the handshake's answer says about the server.
func (r *runner) handshake(info session.ServerInfo) {
	hs := r.handshakeEvent()
	if info.Implementation.Name == "" {
		r.add(protocol.NewFinding(protocol.FindHandshake, "serverInfo has no name"), hs)
	}
	if info.Implementation.Version == "" {
		r.add(protocol.NewFinding(protocol.FindHandshake, "serverInfo has no version"), hs)
	}
	if len(info.Capabilities) == 0 || protocol.JSONType(info.Capabilities) != "object" {
		r.add(protocol.NewFinding(protocol.FindHandshake, "the answer has no capabilities object"), hs)
	}
	if n := len(info.Instructions); n > instructionsLimit {
		r.add(protocol.NewFindingOn(protocol.FindHandshake, protocol.EvidenceCost,
			"instructions are %d bytes long; every conversation with this server carries them", n), hs)
	}
	if r.run.Startup > r.o.Slow["startup"] {
		r.add(protocol.NewFindingOn(protocol.FindStartup, r.timingEvidence(), "the handshake completed %s after the start, over the %s threshold",
			r.run.Startup.Round(time.Millisecond), r.o.Slow["startup"]), hs)
	}
	if !r.run.Stateless && protocol.Declared(r.caps, "server:logging") {
		r.setLevel()
	}
}

// setLevel checks that a server declaring logging accepts logging/setLevel.
func (r *runner) setLevel() {
	mark := r.lastSeq()
	resp, err := r.s.Call(r.ctx, "logging/setLevel", map[string]string{"level": "info"}, session.WithTimeout(errWait))
	if err != nil {
		r.add(protocol.NewFinding(protocol.FindCapabilityMismatch, "the server declares logging, but logging/setLevel failed: %v", err),
			r.shown(resp, mark, "logging/setLevel"))
	}
}

// respEvent is the response event of resp, or its request's when none came.
func respEvent(resp *session.Response) *session.Event {
	switch {
	case resp == nil:
		return nil
	case resp.Event != nil:
		return resp.Event
	}
	return resp.Request
}

// listInfo is how each list is asked for and what names its items.
var listInfo = map[session.ListKind]struct{ method, capability, key string }{
	session.ListTools:     {"tools/list", "tools", "name"},
	session.ListPrompts:   {"prompts/list", "prompts", "name"},
	session.ListResources: {"resources/list", "resources", "uri"},
	session.ListTemplates: {"resources/templates/list", "resources", "uriTemplate"},
}

// maxPages bounds a listing.
const maxPages = 100

// list fetches one list to its last page, twice, flagging cursor loops, duplicates and an
// order that changes; a list the server does not declare is asked for once, to see whether
// it is served anyway.
func (r *runner) list(kind session.ListKind) {
	li := listInfo[kind]
	declared := protocol.Declared(r.caps, "server:"+li.capability)
	items, pages, err := r.fetch(kind)
	if !declared {
		if err == nil && len(items) > 0 {
			r.add(protocol.NewFinding(protocol.FindCapabilityMismatch,
				"%s returns %d items, but the server does not declare the %s capability", li.method, len(items), li.capability), pages[0])
		}
		return
	}
	if session.NotServed(kind, err) {
		// A list the capability covers but the server does not serve: it has none (pins
		// and diffs compare the rest), and the capability claims more than it serves.
		r.add(protocol.NewFinding(protocol.FindCapabilityMismatch, "the server declares %s, but %s failed: %v; treated as having none",
			li.capability, li.method, err), pages...)
		r.run.Definitions.Listed[kind] = true
		return
	}
	if err != nil {
		r.add(protocol.NewFinding(protocol.FindCapabilityMismatch, "the server declares %s, but %s failed: %v", li.capability, li.method, err), pages...)
		return
	}
	r.pages[kind] = items
	raw := make([]json.RawMessage, len(items))
	for i, it := range items {
		raw[i] = it.raw
	}
	switch kind {
	case session.ListTools:
		r.run.Definitions.Tools = raw
	case session.ListPrompts:
		r.run.Definitions.Prompts = raw
	case session.ListResources:
		r.run.Definitions.Resources = raw
	case session.ListTemplates:
		r.run.Definitions.Templates = raw
	}
	r.run.Definitions.Listed[kind] = true
	firstSeen := map[string]listed{}
	for _, it := range items {
		if prev, dup := firstSeen[it.key]; dup && it.key != "" {
			page := "on two pages"
			if prev.seq == it.seq {
				page = "twice on one page"
			}
			r.add(protocol.NewFinding(protocol.FindPagination, "%s lists %s %q %s", li.method, li.key, it.key, page),
				r.event(prev.seq), r.event(it.seq))
			continue
		}
		firstSeen[it.key] = it
	}
	if len(pages) > 10 {
		return // a long list is not listed again
	}
	again, pages2, err := r.fetch(kind)
	if err != nil {
		r.add(protocol.NewFinding(protocol.FindPagination, "%s failed when listed a second time: %v", li.method, err), pages2...)
		return
	}
	if !slices.EqualFunc(items, again, func(a, b listed) bool { return a.key == b.key }) {
		r.add(protocol.NewFinding(protocol.FindPagination, "%s returned %s between two listings: %s",
			li.method, "another order or other items", orderDiff(items, again)), append(pages, pages2...)...)
	}
}

// orderDiff says where two listings first differ.
func orderDiff(a, b []listed) string {
	for i := range min(len(a), len(b)) {
		if a[i].key != b[i].key {
			return fmt.Sprintf("item %d was %q, then %q", i+1, a[i].key, b[i].key)
		}
	}
	return fmt.Sprintf("%d items, then %d", len(a), len(b))
}

// event finds the event with Seq seq.
func (r *runner) event(seq uint64) *session.Event {
	for _, e := range r.ev.snapshot() {
		if e.Seq == seq {
			return e
		}
	}
	return nil
}

// fetch lists every page of kind; pages are the response events (the request's where none came).
func (r *runner) fetch(kind session.ListKind) (items []listed, pages []*session.Event, err error) {
	li := listInfo[kind]
	seen := map[string]*session.Event{}
	cursor := ""
	for range maxPages {
		var params any
		if cursor != "" {
			params = map[string]string{"cursor": cursor}
		}
		resp, err := r.s.Call(r.ctx, li.method, params)
		if e := respEvent(resp); e != nil {
			pages = append(pages, e)
		}
		if err != nil {
			return items, pages, err
		}
		var page struct {
			Next *string `json:"nextCursor"`
		}
		_ = json.Unmarshal(resp.Result, &page)
		var res map[string]json.RawMessage
		_ = json.Unmarshal(resp.Result, &res)
		elems, ok := protocol.ArrayElements(res[string(kind)])
		if !ok && res[string(kind)] != nil {
			return items, pages, fmt.Errorf("%q is a %s, not an array", kind, protocol.JSONType(res[string(kind)]))
		}
		for _, el := range elems {
			var k map[string]json.RawMessage
			_ = json.Unmarshal(el, &k)
			var key string
			_ = json.Unmarshal(k[li.key], &key)
			items = append(items, listed{raw: el, key: key, seq: resp.Event.Seq})
		}
		if page.Next == nil || *page.Next == "" {
			return items, pages, nil
		}
		if prev := seen[*page.Next]; prev != nil {
			r.add(protocol.NewFinding(protocol.FindPagination, "%s repeats cursor %q: a client following nextCursor never ends",
				li.method, *page.Next), prev, resp.Event)
			return items, pages, nil
		}
		seen[*page.Next] = resp.Event
		cursor = *page.Next
	}
	r.add(protocol.NewFinding(protocol.FindPagination, "%s still had a nextCursor after %d pages; check stopped there", li.method, maxPages),
		pages[len(pages)-1])
	return items, pages, nil
}

// definitions checks every listed tool, prompt, resource and template.
func (r *runner) definitions() {
	for _, it := range r.pages[session.ListTools] {
		src := r.event(it.seq)
		for _, f := range protocol.CheckToolDefinition(it.raw, r.rev) {
			r.add(f, src)
		}
		var t struct {
			Name   string          `json:"name"`
			Input  json.RawMessage `json:"inputSchema"`
			Output json.RawMessage `json:"outputSchema"`
		}
		_ = json.Unmarshal(it.raw, &t)
		if protocol.JSONType(t.Input) == "object" {
			if c, err := compileSchema(t.Input, r.rev); err != nil {
				r.add(protocol.NewFinding(protocol.FindToolSchema, "tool %q: inputSchema is not a valid JSON Schema (%s): %v",
					t.Name, dialect(t.Input, r.rev), err), src)
			} else {
				r.inSchema[t.Name] = c
			}
		}
		if protocol.JSONType(t.Output) == "object" && r.rev >= protocol.Rev20250618 {
			c, err := compileSchema(t.Output, r.rev)
			if err != nil {
				r.add(protocol.NewFinding(protocol.FindToolSchema, "tool %q: outputSchema is not a valid JSON Schema (%s): %v",
					t.Name, dialect(t.Output, r.rev), err), src)
			} else {
				r.outSchema[t.Name] = c
			}
		}
	}
	for _, it := range r.pages[session.ListPrompts] {
		for _, f := range protocol.CheckPromptDefinition(it.raw) {
			r.add(f, r.event(it.seq))
		}
	}
	for _, kind := range []session.ListKind{session.ListResources, session.ListTemplates} {
		for _, it := range r.pages[kind] {
			for _, f := range protocol.CheckResourceDefinition(it.raw, kind == session.ListTemplates) {
				r.add(f, r.event(it.seq))
			}
		}
	}
}

// reads reads the first Read resources, and the templates whose variables completion fills.
func (r *runner) reads() {
	res := r.pages[session.ListResources]
	if r.o.Read <= 0 {
		if len(res) > 0 {
			r.note("resources not read (--read 0)")
		}
		return
	}
	if len(res) > r.o.Read {
		r.note("%d of %d resources read (--read %d)", r.o.Read, len(res), r.o.Read)
		res = res[:r.o.Read]
	}
	for _, it := range res {
		if it.key != "" {
			r.read(it.key, "resource")
		}
	}
	tpls := r.pages[session.ListTemplates]
	if len(tpls) > r.o.Read {
		tpls = tpls[:r.o.Read]
	}
	unread := 0
	for _, it := range tpls {
		uri, ok := r.expand(it.key)
		if !ok {
			unread++
			continue
		}
		r.read(uri, "resource from template "+it.key)
	}
	if unread > 0 {
		r.note("%d resource templates not read: completion/complete gave no value for their variables", unread)
	}
}

// read reads one resource and checks the result has contents.
func (r *runner) read(uri, what string) {
	mark := r.lastSeq()
	resp, err := r.s.Call(r.ctx, "resources/read", map[string]string{"uri": uri}, session.WithTimeout(errWait))
	if err != nil {
		r.add(protocol.NewFinding(protocol.FindResourceRead, "%s %s cannot be read: %v", what, uri, err), r.shown(resp, mark, "resources/read"))
		return
	}
	var res struct {
		Contents []json.RawMessage `json:"contents"`
	}
	if json.Unmarshal(resp.Result, &res) != nil || len(res.Contents) == 0 {
		r.add(protocol.NewFinding(protocol.FindResourceRead, "%s %s: the result has no contents", what, uri), resp.Event)
	}
}

// expand fills a template's variables with the first completion the server offers.
func (r *runner) expand(tpl string) (string, bool) {
	vars := protocol.TemplateVariables(tpl)
	if len(vars) == 0 || protocol.TemplateProblem(tpl) != "" || !protocol.Declared(r.caps, "server:completions") {
		return "", false
	}
	values := map[string]string{}
	for _, v := range vars {
		got, err := r.s.Complete(r.ctx, map[string]string{"type": "ref/resource", "uri": tpl}, v, "", values)
		if err != nil || len(got) == 0 {
			return "", false
		}
		values[v] = got[0]
	}
	return expandTemplate(tpl, values), true
}
