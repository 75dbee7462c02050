package export

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"time"
)

// key names an event of a recording that may span restarts: its session and number.
type key struct {
	gen int
	seq uint64
}

// exchange is an HTTP exchange with the frames that travelled on it.
type exchange struct {
	ev    *Event
	at    int      // index of its event
	body  *Event   // the frame the request carried
	frame []*Event // frames that arrived on its response
}

// harBuild gathers what BuildHAR needs from the whole recording.
type harBuild struct {
	src       *Source
	evs       []*Event
	exchanges map[key]*exchange
	order     []*exchange
	bySeq     map[key]*Event // frames by their seq
	answers   map[key]*Event // the first result or error for a request, by the request's key
	used      map[*Event]bool
	pages     map[int]*HARPage
	scheme    string
	faults    harFaults // har_fault.go
}

// BuildHAR makes a HAR 1.2 log of src. Every HTTP exchange is an entry with its masked
// headers, its timings (wait: until the response headers; receive: until the last frame
// that arrived on it), the frame it carried as the request body and the frames that came
// back as the response body (an event stream rebuilt as text/event-stream). Frames that
// travelled on no HTTP exchange (every frame of a stdio session) are entries of their own
// under the pseudo URL mcp+stdio://server/METHOD?id=ID (a frame sent to the server) or
// mcp+stdio://client/METHOD?id=ID (one the server sent), with the method "MCP": a request
// with its answer (status 200, or 500 for a JSON-RPC error, 0 when unanswered), a
// notification alone (status 204), any other frame alone under its kind. In a recording
// of an HTTP session such frames use the scheme mcp+frame. An MCP App's messages with
// mcpscope, its host, are entries under mcp+app://host/METHOD (from the app) and
// mcp+app://app/METHOD (to it). Each session of the recording is a page.
func BuildHAR(src *Source, creatorVersion string) (*HAR, error) {
	b := &harBuild{src: src, exchanges: map[key]*exchange{}, bySeq: map[key]*Event{}, answers: map[key]*Event{}, used: map[*Event]bool{},
		pages: map[int]*HARPage{}, scheme: "mcp+stdio"}
	if src.Header.Transport != "stdio" {
		b.scheme = "mcp+frame"
	}
	if err := src.Each(func(e *Event) error {
		b.add(e)
		return nil
	}); err != nil {
		return nil, err
	}
	b.attach()
	b.bodies()
	h := &HAR{Log: HARLog{Version: "1.2", Creator: HARCreator{Name: "mcpscope", Version: creatorVersion},
		Pages: []HARPage{}, Entries: []*HAREntry{}}}
	for _, x := range b.order {
		h.Log.Entries = append(h.Log.Entries, b.httpEntry(x))
	}
	for _, e := range b.evs {
		if e.Kind == "frame" && !b.used[e] {
			h.Log.Entries = append(h.Log.Entries, b.frameEntry(e))
		}
	}
	h.Log.Faults = b.faults.list
	sort.SliceStable(h.Log.Entries, func(i, j int) bool { return h.Log.Entries[i].started.Before(h.Log.Entries[j].started) })
	gens := make([]int, 0, len(b.pages))
	for g := range b.pages {
		gens = append(gens, g)
	}
	sort.Ints(gens)
	for _, g := range gens {
		h.Log.Pages = append(h.Log.Pages, *b.pages[g])
	}
	return h, nil
}

func (b *harBuild) add(e *Event) {
	b.evs = append(b.evs, e)
	b.faults.add(e)
	if _, ok := b.pages[e.Gen]; !ok {
		title := b.src.Header.Server
		if e.Gen > 1 {
			title += fmt.Sprintf(" (session %d)", e.Gen)
		}
		b.pages[e.Gen] = &HARPage{StartedDateTime: harTime(e.Time), ID: pageID(e.Gen), Title: title,
			PageTimings: HARPageTimings{OnContentLoad: -1, OnLoad: -1}}
	}
	switch {
	case e.HTTP != nil:
		x := &exchange{ev: e, at: len(b.evs) - 1}
		b.exchanges[key{e.Gen, e.HTTP.ID}] = x
		b.order = append(b.order, x)
	case e.Kind == "frame":
		b.bySeq[key{e.Gen, e.Seq}] = e
		k := key{e.Gen, e.Request}
		if (e.FrameKind == "result" || e.FrameKind == "error") && e.Request != 0 && b.answers[k] == nil {
			b.answers[k] = e
		}
	}
}

// attach puts each frame that arrived on an HTTP exchange on it.
func (b *harBuild) attach() {
	for _, e := range b.evs {
		if e.Kind == "frame" && e.Exchange != 0 {
			if x := b.exchanges[key{e.Gen, e.Exchange}]; x != nil {
				x.frame = append(x.frame, e)
				b.used[e] = true
			}
		}
	}
}

func pageID(gen int) string { return "session_" + strconv.Itoa(max(gen, 1)) }

// bodies finds the frame each POST carried: the request its response frames answer, else
// the last frame sent before it that no other exchange carried (a notification, or a
// response to the server), preferring one whose method the Mcp-Method header names.
func (b *harBuild) bodies() {
	for _, x := range b.order {
		if x.ev.HTTP.Method != http.MethodPost {
			continue
		}
		for _, f := range x.frame {
			if req := b.bySeq[key{f.Gen, f.Request}]; f.Request != 0 && req != nil && req.Out() && !b.used[req] {
				x.body = req
				b.used[req] = true
				break
			}
		}
	}
	// A redirect's earlier hops carried the body the last hop was answered for.
	for i := len(b.order) - 1; i > 0; i-- {
		x, prev := b.order[i], b.order[i-1]
		if x.ev.HTTP.Hop > 0 && x.body != nil && prev.body == nil && prev.ev.HTTP.Hop == x.ev.HTTP.Hop-1 {
			prev.body = x.body
		}
	}
	for _, x := range b.order {
		if x.body != nil || x.ev.HTTP.Method != http.MethodPost || x.ev.HTTP.Step != "" || x.ev.HTTP.Hop > 0 {
			continue
		}
		want := x.ev.HTTP.ReqHeaders.Get("Mcp-Method")
		var pick *Event
		for i := x.at - 1; i >= 0 && i >= x.at-64; i-- {
			e := b.evs[i]
			if e.Kind != "frame" || !e.Out() || b.used[e] || e.Gen != x.ev.Gen || e.Lane != "" {
				continue
			}
			if want == "" || e.Method == want {
				pick = e
				break
			}
			if pick == nil {
				pick = e
			}
		}
		if pick != nil {
			x.body = pick
			b.used[pick] = true
		}
	}
	// A redirect's next hop carries the same body.
	for i, x := range b.order {
		if x.ev.HTTP.Hop > 0 && x.body == nil && i > 0 && b.order[i-1].ev.HTTP.Hop == x.ev.HTTP.Hop-1 {
			x.body = b.order[i-1].body
		}
	}
}

// httpEntry is the entry of an HTTP exchange.
func (b *harBuild) httpEntry(x *exchange) *HAREntry {
	h := x.ev.HTTP
	start := x.ev.Time
	wait := time.Duration(h.DurationMS * float64(time.Millisecond))
	var receive time.Duration
	if n := len(x.frame); n > 0 {
		receive = max(0, x.frame[n-1].Time.Sub(start)-wait)
	}
	en := &HAREntry{PageRef: pageID(x.ev.Gen), StartedDateTime: harTime(start), started: start,
		Timings: HARTimings{Blocked: -1, DNS: -1, Connect: -1, SSL: -1, Wait: ms(wait), Receive: ms(receive)}}
	en.Time = en.Timings.Wait + en.Timings.Receive
	en.Comment = h.Purpose
	switch {
	case h.Purpose == "card":
		en.Comment = "server card: " + h.Step
	case h.Purpose == "webhook":
		en.Comment = "events webhook: " + h.Step // a POST the receiver got, not one mcpscope made
	case h.Step != "":
		en.Comment = "authorization: " + h.Step
	}
	en.Request = HARRequest{Method: h.Method, URL: h.URL, HTTPVersion: "unknown", Cookies: []HARNameValue{},
		Headers: harHeaders(h.ReqHeaders), QueryString: harQuery(h.URL), HeadersSize: -1}
	var reqBody []byte
	if x.body != nil {
		reqBody = x.body.Raw()
	} else if h.ReqBody != "" {
		reqBody = []byte(h.ReqBody)
	}
	if reqBody != nil {
		mt := h.ReqHeaders.Get("Content-Type")
		if mt == "" {
			mt = "application/json"
		}
		text, enc := bodyText(reqBody)
		en.Request.PostData = &HARPostData{MimeType: mt, Text: text, Encoding: enc}
	}
	en.Request.BodySize = int64(len(reqBody))
	ct := h.RespHeaders.Get("Content-Type")
	en.Response = HARResponse{Status: h.Status, StatusText: http.StatusText(h.Status), HTTPVersion: "unknown",
		Cookies: []HARNameValue{}, Headers: harHeaders(h.RespHeaders), HeadersSize: -1, BodySize: -1}
	if h.Status == 0 {
		en.Response.StatusText = ""
		en.Error = h.Err
	}
	if r := h.Redirect; r != nil {
		en.Response.RedirectURL = r.Location
	}
	var body []byte
	switch {
	case len(x.frame) > 0 && bytes.HasPrefix([]byte(ct), []byte("text/event-stream")):
		for _, f := range x.frame {
			if f.SSEID != "" {
				body = append(append(append(body, "id: "...), f.SSEID...), '\n')
			}
			if f.SSEEvent != "" {
				body = append(append(append(body, "event: "...), f.SSEEvent...), '\n')
			}
			for _, l := range bytes.Split(f.Raw(), []byte("\n")) {
				body = append(append(append(body, "data: "...), l...), '\n')
			}
			body = append(body, '\n')
		}
	case len(x.frame) > 0:
		for i, f := range x.frame {
			if i > 0 {
				body = append(body, '\n')
			}
			body = append(body, f.Raw()...)
		}
	case h.RespBody != "":
		body = []byte(h.RespBody)
	}
	if ct == "" {
		ct = "x-unknown"
	}
	text, enc := bodyText(body)
	en.Response.Content = HARContent{Size: int64(len(body)), MimeType: ct, Text: text, Encoding: enc}
	return en
}

// frameEntry is the entry of a frame that travelled on no HTTP exchange, with its answer
// when it is a request.
func (b *harBuild) frameEntry(e *Event) *HAREntry {
	b.used[e] = true
	scheme, host := b.scheme, "server"
	if !e.Out() {
		host = "client"
	}
	if e.Lane != "" { // an MCP App's postMessage lane: mcp+app://host/… from the app, mcp+app://app/… to it
		scheme, host = "mcp+"+e.Lane, "app"
		if !e.Out() {
			host = "host"
		}
	}
	name := e.Method
	if name == "" || e.FrameKind != "request" && e.FrameKind != "notification" {
		name = e.FrameKind
		if e.Method != "" {
			name += "/" + e.Method
		}
	}
	u := scheme + "://" + host + "/" + name
	if len(e.ID) > 0 {
		u += "?id=" + url.QueryEscape(string(e.ID))
	}
	en := &HAREntry{PageRef: pageID(e.Gen), StartedDateTime: harTime(e.Time), started: e.Time,
		Timings: HARTimings{Blocked: -1, DNS: -1, Connect: -1, SSL: -1}}
	raw := e.Raw()
	text, enc := bodyText(raw)
	en.Request = HARRequest{Method: "MCP", URL: u, HTTPVersion: "unknown", Cookies: []HARNameValue{},
		Headers: []HARNameValue{}, QueryString: harQuery(u), HeadersSize: -1, BodySize: int64(len(raw)),
		PostData: &HARPostData{MimeType: "application/json", Text: text, Encoding: enc}}
	en.Response = HARResponse{HTTPVersion: "unknown", Cookies: []HARNameValue{}, Headers: []HARNameValue{},
		Content: HARContent{MimeType: "x-unknown"}, HeadersSize: -1, BodySize: -1}
	en.Comment = e.FrameKind
	switch e.FrameKind {
	case "notification":
		en.Response.Status, en.Response.StatusText, en.Response.BodySize = 204, "notification: no answer", 0
		return en
	case "request":
	default:
		en.Response.StatusText = "not a request"
		en.Response.BodySize = 0
		return en
	}
	answer := b.answers[key{e.Gen, e.Seq}]
	if answer == nil || b.used[answer] || answer.Out() == e.Out() {
		en.Error = "no answer recorded"
		en.Fault = b.faults.entry(e, nil)
		return en
	}
	en.Fault = b.faults.entry(e, answer)
	b.used[answer] = true
	en.Response.Status, en.Response.StatusText = 200, "OK"
	if answer.FrameKind == "error" {
		en.Response.Status, en.Response.StatusText = 500, "JSON-RPC error"
		if f := answer.Frame(); f != nil && f.Error != nil {
			en.Response.StatusText = fmt.Sprintf("JSON-RPC error %d", f.Error.Code)
		}
	}
	body := answer.Raw()
	text, enc = bodyText(body)
	en.Response.Content = HARContent{Size: int64(len(body)), MimeType: "application/json", Text: text, Encoding: enc}
	en.Response.BodySize = int64(len(body))
	en.Timings.Wait = ms(answer.Time.Sub(e.Time))
	en.Time = en.Timings.Wait
	return en
}
