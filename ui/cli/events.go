package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/events"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// EventsCmd groups the Events extension's commands.
type EventsCmd struct {
	List    EventsListCmd    `cmd:"" help:"List the server's event types (events/list, every page): name, delivery modes, inputSchema, payloadSchema."`
	Poll    EventsPollCmd    `cmd:"" help:"Poll an event type (events/poll): once, or --every DURATION, or until --count occurrences; NDJSON on stdout."`
	Stream  EventsStreamCmd  `cmd:"" help:"Hold a push stream (events/stream) and print each notification as NDJSON until Ctrl-C or --count; resumes from the cursor when the stream dies."`
	Webhook EventsWebhookCmd `cmd:"" help:"Subscribe by webhook (events/subscribe) with a local receiver that verifies each delivery's signature; refreshes before the TTL, unsubscribes on exit; NDJSON on stdout."`
}

// EventsListCmd lists event types.
type EventsListCmd struct{}

// Run implements the command.
func (EventsListCmd) Run(r *runner) error {
	s, done, err := r.connectOneShot()
	if err != nil {
		return err
	}
	defer done()
	if !s.HasEvents() {
		fmt.Fprintf(r.stderr, "mcpscope: the server did not declare the %s extension; asking anyway\n", events.Extension)
	}
	types, err := s.EventTypes(r.ctx)
	if err != nil {
		return err
	}
	out := make([]json.RawMessage, 0, len(types))
	for _, t := range types {
		out = append(out, t.Raw)
		for _, f := range t.Findings {
			fmt.Fprintf(r.stderr, "mcpscope: %s: %s\n", f.Code, jsonview.EscapeText(f.Message))
		}
	}
	return r.printJSON(out)
}

// eventSubArgs are what every mode's command takes to name a subscription.
type eventSubArgs struct {
	Name     string        `arg:"" help:"The event type's name."`
	Args     []string      `arg:"" optional:"" help:"Subscription arguments as key=value (typed by the type's inputSchema) or key:=JSON."`
	JSONArgs string        `name:"args" help:"All arguments as one JSON object (key=value pairs override its members)." placeholder:"JSON"`
	Cursor   string        `help:"Resume after this cursor (by default delivery starts from now)."`
	MaxAge   time.Duration `name:"max-age" help:"Replay nothing older than this (maxAgeMs)." placeholder:"DURATION"`
	Count    int           `help:"Stop after this many occurrences (0: until Ctrl-C)."`
}

// eventLine is one NDJSON line of the events commands.
type eventLine struct {
	Mode      string              `json:"mode"`
	Kind      string              `json:"kind"` // event, batch, active, heartbeat, error, terminated, subscribed, delivery, gap, verification, lost, reconnect, closed
	Event     json.RawMessage     `json:"event,omitempty"`
	Cursor    *string             `json:"cursor"`
	Truncated bool                `json:"truncated,omitempty"`
	Detail    any                 `json:"detail,omitempty"`
	Findings  []map[string]string `json:"findings,omitempty"`
}

// eventsOut writes NDJSON lines, masked and escaped for the terminal, and counts
// occurrences against --count.
type eventsOut struct {
	r     *runner
	mu    sync.Mutex
	count int
	limit int
	stop  context.CancelFunc
}

func (o *eventsOut) line(l eventLine, fs []protocol.Finding) {
	l.Findings = eventFindingsJSON(fs)
	b, err := json.Marshal(l)
	if err != nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	mask := o.r.flags.screenMasker(o.r.command)
	fmt.Fprintf(o.r.stdout, "%s\n", jsonview.EscapeJSON(mask.Bytes(b)))
	if l.Kind == "event" {
		o.count++
		if o.limit > 0 && o.count >= o.limit && o.stop != nil {
			o.stop()
		}
	}
}

// done reports whether --count occurrences were printed.
func (o *eventsOut) done() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.limit > 0 && o.count >= o.limit
}

// eventFindingsJSON is findings as JSON, each with the extension's section it rests on.
func eventFindingsJSON(fs []protocol.Finding) []map[string]string {
	var out []map[string]string
	for _, f := range fs {
		m := map[string]string{"code": f.Code, "severity": f.Severity.String(), "message": f.Message}
		if ref, ok := protocol.EventsSpecRef(f.Code); ok {
			m["spec"] = ref.URL()
		}
		out = append(out, m)
	}
	return out
}

// open connects, finds the event type and builds the subscription; it warns on stderr when
// the type does not offer mode (the request is still sent: the server's answer is news).
func (a eventSubArgs) open(r *runner, mode string) (*session.Session, func(), session.EventSub, *events.Tracker, error) {
	if _, err := buildArgs(a.JSONArgs, a.Args, nil); err != nil {
		return nil, nil, session.EventSub{}, nil, usageError{err}
	}
	s, done, err := r.connect()
	if err != nil {
		return nil, nil, session.EventSub{}, nil, err
	}
	if !s.HasEvents() {
		fmt.Fprintf(r.stderr, "mcpscope: the server did not declare the %s extension; asking anyway\n", events.Extension)
	}
	typ := events.Type{Name: a.Name}
	types, err := s.EventTypes(r.ctx)
	found := false
	for _, t := range types {
		if t.Name == a.Name {
			typ, found = t, true
		}
	}
	switch {
	case err != nil:
		fmt.Fprintf(r.stderr, "mcpscope: events/list failed (%v); payloads are not validated\n", err)
	case !found:
		fmt.Fprintf(r.stderr, "mcpscope: %s is not in events/list; subscribing anyway, payloads not validated\n", a.Name)
	case !typ.Offers(mode):
		fmt.Fprintf(r.stderr, "mcpscope: %s offers delivery %v, not %s; asking anyway\n", a.Name, typ.Delivery, mode)
	}
	tr := events.NewTracker(typ)
	if err := tr.SchemaError(); err != nil {
		fmt.Fprintf(r.stderr, "mcpscope: %s's payloadSchema does not compile (%v); payloads are not validated\n", a.Name, err)
	}
	args, err := buildArgs(a.JSONArgs, a.Args, typ.InputSchema)
	if err != nil {
		done()
		return nil, nil, session.EventSub{}, nil, usageError{err}
	}
	sub := session.EventSub{Name: a.Name, Arguments: args, MaxAgeMs: a.MaxAge.Milliseconds()}
	if a.Cursor != "" {
		c := a.Cursor
		sub.Cursor = &c
	}
	return s, done, sub, tr, nil
}

// EventsPollCmd polls.
type EventsPollCmd struct {
	eventSubArgs `embed:""`
	Every        time.Duration `help:"Poll again after this long (default with --count: the server's nextPollMs, at least 1s; without either: poll once)." placeholder:"DURATION"`
	MaxEvents    int           `name:"max-events" help:"Ask for at most this many events per poll (maxEvents)."`
}

// minPollInterval is the floor under a server's nextPollMs (the extension's default).
const minPollInterval = time.Second

// Run implements the command.
func (c EventsPollCmd) Run(r *runner) error {
	s, done, sub, tr, err := c.open(r, events.ModePoll)
	if err != nil {
		return err
	}
	defer done()
	ctx, stop := context.WithCancel(r.ctx)
	defer stop()
	out := &eventsOut{r: r, limit: c.Count, stop: stop}
	for {
		res, resp, err := s.PollEvents(ctx, sub, c.MaxEvents, tr)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return r.rpcFailure(resp, err)
		}
		for _, o := range res.Events {
			out.line(eventLine{Mode: "poll", Kind: "event", Event: o.Raw, Cursor: res.Cursor}, o.Findings)
		}
		out.line(eventLine{Mode: "poll", Kind: "batch", Cursor: res.Cursor, Truncated: res.Truncated,
			Detail: map[string]any{"events": len(res.Events), "hasMore": res.HasMore, "nextPollMs": res.NextPollMs}}, resp.Event.Frame.Findings)
		sub.Cursor = res.Cursor
		if out.done() || (c.Every <= 0 && c.Count <= 0) {
			return nil
		}
		wait := c.Every
		switch {
		case res.HasMore:
			wait = 0
		case wait <= 0 && res.NextPollMs != nil:
			wait = max(time.Duration(*res.NextPollMs)*time.Millisecond, minPollInterval)
		case wait <= 0:
			wait = minPollInterval
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
	}
}

// EventsStreamCmd holds a push stream.
type EventsStreamCmd struct {
	eventSubArgs `embed:""`
	Silence      time.Duration `help:"Treat the stream as dead after this long without an event or heartbeat, and reconnect from the cursor." default:"60s"`
}

// maxReconnects bounds the reconnections in a row that deliver nothing.
const maxReconnects = 5

// Run implements the command.
func (c EventsStreamCmd) Run(r *runner) error {
	s, done, sub, tr, err := c.open(r, events.ModePush)
	if err != nil {
		return err
	}
	defer done()
	ctx, stop := context.WithCancel(r.ctx)
	defer stop()
	out := &eventsOut{r: r, limit: c.Count, stop: stop}
	for failures := 0; ; failures++ {
		heard := false
		resp, err := s.StreamEvents(ctx, sub, tr, c.Silence, func(it session.StreamItem) {
			heard = true
			if it.Lost != nil {
				out.line(eventLine{Mode: "push", Kind: "lost", Detail: it.Lost.String()}, nil)
				return
			}
			n := it.Note
			l := eventLine{Mode: "push", Kind: n.Kind, Cursor: n.Cursor, Truncated: n.Truncated}
			if n.Occurrence != nil {
				l.Event = n.Occurrence.Raw
			}
			if n.Error != nil {
				l.Detail = n.Error
			}
			out.line(l, it.Event.Frame.Findings)
			if n.Kind == events.NoteTerminated {
				stop()
			}
		})
		if ctx.Err() != nil {
			return nil
		}
		if err == nil {
			out.line(eventLine{Mode: "push", Kind: "closed", Cursor: tr.Last(), Detail: "the server ended the stream"}, resp.Event.Frame.Findings)
			return nil
		}
		var rpc *session.RPCError
		if errors.As(err, &rpc) {
			return r.rpcFailure(resp, err)
		}
		if heard {
			failures = 0
		}
		if failures >= maxReconnects {
			return fmt.Errorf("events/stream %s: %d reconnections in a row failed: %w", c.Name, failures, err)
		}
		sub.Cursor = tr.Last()
		out.line(eventLine{Mode: "push", Kind: "reconnect", Cursor: sub.Cursor, Detail: err.Error()}, nil)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Duration(failures) * time.Second):
		}
	}
}

// EventsWebhookCmd holds a webhook subscription.
type EventsWebhookCmd struct {
	eventSubArgs `embed:""`
	Listen       string        `help:"Where the receiver listens." default:"127.0.0.1:0" placeholder:"ADDR"`
	PublicURL    string        `name:"public-url" help:"The https URL that reaches the receiver from the server (a tunnel); by default the server is given the loopback address." placeholder:"URL"`
	TTL          time.Duration `name:"ttl" help:"The subscription lifetime to suggest (ttlMs; the server grants its own); 0: the server's default." placeholder:"DURATION"`
}

// Run implements the command.
func (c EventsWebhookCmd) Run(r *runner) error {
	s, done, sub, tr, err := c.open(r, events.ModeWebhook)
	if err != nil {
		return err
	}
	defer done()
	ctx, stop := context.WithCancel(r.ctx)
	defer stop()
	out := &eventsOut{r: r, limit: c.Count, stop: stop}
	rcv, err := s.NewWebhookReceiver(c.Listen, c.PublicURL, tr, func(d session.Delivery) {
		l := eventLine{Mode: "webhook", Kind: "delivery",
			Detail: map[string]any{"status": d.Status, "webhook-id": d.Header.Get(events.HeaderID), "signature": d.Verdict}}
		switch {
		case d.Occurrence != nil && d.Verdict.OK && !d.Verdict.Stale:
			l.Kind, l.Event, l.Cursor = "event", d.Occurrence.Raw, d.Occurrence.Cursor
		case d.Envelope != nil:
			l.Kind, l.Cursor = d.Envelope.Type, d.Envelope.Cursor
			if d.Envelope.Type == "terminated" {
				stop()
			}
		}
		out.line(l, d.Findings)
	})
	if err != nil {
		return err
	}
	defer rcv.Close()
	fmt.Fprintf(r.stderr, "mcpscope: webhook receiver on %s; the server is given %s\n", rcv.Local, rcv.CallbackURL)
	err = s.HoldWebhook(ctx, sub, rcv, c.TTL, func(res events.SubscribeResult, resp *session.Response, err error) {
		if err != nil {
			l := eventLine{Mode: "webhook", Kind: "error", Detail: err.Error()}
			var fs []protocol.Finding
			if resp != nil && resp.Event != nil && resp.Event.Frame.Error != nil {
				l.Detail, fs = json.RawMessage(resp.Event.Frame.Error.Raw), resp.Event.Frame.Findings
			}
			out.line(l, fs)
			return
		}
		detail := map[string]any{"id": res.ID, "refreshBefore": res.RefreshBefore}
		if res.Status != nil {
			detail["deliveryStatus"] = res.Status
		}
		out.line(eventLine{Mode: "webhook", Kind: "subscribed", Cursor: res.Cursor, Truncated: res.Truncated, Detail: detail}, resp.Event.Frame.Findings)
	})
	var rpc *session.RPCError
	if errors.As(err, &rpc) {
		return err
	}
	if err != nil && r.ctx.Err() == nil {
		return err
	}
	return nil
}
