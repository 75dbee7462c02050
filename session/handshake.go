package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/auth"
	"github.com/mcpscope/mcpscope/session/transport"
)

const codeUnsupportedVer = -32022

// handshake runs the handshake the configured protocol asks for.
func (s *Session) handshake(ctx context.Context) error {
	want := s.cfg.Protocol
	if want == "auto" {
		return s.autoHandshake(ctx)
	}
	rev, ok := protocol.ParseRevision(want)
	if !ok {
		return fmt.Errorf("unknown protocol revision %q (known: %s)", want, revisionList())
	}
	if rev.Stateless() {
		err := s.discover(ctx, rev, 0, false)
		var rpc *RPCError
		var hs *transport.HTTPStatusError
		if errors.As(err, &rpc) && rpc.Code == protocol.MethodNotFound || errors.As(err, &hs) && hs.Status >= 400 && hs.Status < 500 {
			err = fmt.Errorf("%w: the server does not speak %s (it does not know server/discover); use --protocol auto or an earlier revision", err, rev)
		}
		return err
	}
	return s.initialize(ctx, rev)
}

func revisionList() string {
	var out []string
	for _, r := range protocol.Revisions {
		out = append(out, string(r))
	}
	return strings.Join(out, ", ")
}

// autoHandshake finds the server's era: from the era cache when it has this server, else by
// probing server/discover with a short timeout. A modern answer keeps the stateless era,
// anything else falls back to initialize, as the 2026-07-28 versioning page describes for
// dual-era clients. The era learnt is cached; a cached era that fails is forgotten and the
// server probed again.
func (s *Session) autoHandshake(ctx context.Context) error {
	e, cached := s.cfg.EraCache.Load()
	if cached && !s.cfg.Reprobe {
		if p, ok := s.tr.(transport.LegacyPreferrer); ok && e.Transport == "sse" {
			p.PreferLegacy()
		}
		if e.Era == EraModern {
			s.step(fmt.Sprintf("era from cache: modern (protocol %s, learnt %s); server/discover is the handshake", e.Revision, e.Learnt.Format(time.DateTime)))
			// The discover request is the handshake itself; it stays a probe, so a server
			// that is no longer modern falls back below.
		} else {
			over := ""
			if e.Transport == "sse" {
				over = " over HTTP+SSE"
			}
			s.step(fmt.Sprintf("era from cache: earlier era (initialize%s; protocol %s, learnt %s); no server/discover probe (--reprobe probes again)", over, e.Revision, e.Learnt.Format(time.DateTime)))
			err := s.initialize(ctx, protocol.LatestStateful)
			if err == nil {
				s.rememberEra(e)
				return nil
			}
			if s.ctx.Err() != nil || ctx.Err() != nil || errors.Is(err, ErrServerExited) || unreachable(err) || authorizationFailed(err) {
				return err // no answer about the era: the cache stays
			}
			s.cfg.EraCache.Forget()
			e = EraEntry{} // whatever the probe finds is written
			s.step("the cached era did not hold (" + err.Error() + "): probing server/discover again")
		}
	}
	err := s.probeHandshake(ctx)
	if err == nil {
		s.rememberEra(e) // the zero entry when nothing was cached
	}
	return err
}

// rememberEra stores the era the handshake found in the era cache, unless the cache already
// says so (cached): a one-shot command on a known server writes no file.
func (s *Session) rememberEra(cached EraEntry) {
	info := s.Info()
	e := EraEntry{Era: EraLegacy, Revision: string(info.Revision), Learnt: time.Now()}
	if info.Stateless {
		e.Era = EraModern
	}
	if info.Transport == "sse" {
		e.Transport = "sse"
	}
	if e.Era == cached.Era && e.Revision == cached.Revision && e.Transport == cached.Transport {
		return
	}
	if err := s.cfg.EraCache.Store(e); err != nil {
		s.step("could not cache the era: " + err.Error())
	}
}

// probeHandshake probes server/discover and falls back to initialize when the server is not
// of the modern era.
func (s *Session) probeHandshake(ctx context.Context) error {
	modern := latestStateless()
	s.step("probing server/discover (protocol " + string(modern) + ")")
	err := s.discover(ctx, modern, s.cfg.ProbeTimeout, true)
	if err != nil && errors.Is(err, ErrTimeout) && !s.heard.Load() && s.ctx.Err() == nil && ctx.Err() == nil {
		// Not a word from the server, not even on stderr: it has not started yet (npx
		// fetching a package, a slow runtime), and its era is unknown. A server of the
		// earlier era answers an unknown method with an error, so waiting costs only a
		// silent one its time; falling back now would leave a modern server that reads
		// the first probe late taking initialize as a second handshake.
		wait := max(s.cfg.ProbeTimeout*5, 15*time.Second)
		s.step(fmt.Sprintf("no word from the server in %s: it may still be starting; probing again, up to %s", s.cfg.ProbeTimeout, wait))
		err = s.discover(ctx, modern, wait, true)
	}
	if err == nil {
		return nil
	}
	var legacy legacyHint
	if errors.As(err, &legacy) && legacy.rev != "" {
		s.step(fmt.Sprintf("server supports only earlier revisions (%s): falling back to initialize", strings.Join(legacy.supported, ", ")))
		return s.initialize(ctx, legacy.rev)
	}
	if s.ctx.Err() != nil || ctx.Err() != nil {
		return err
	}
	if errors.Is(err, ErrServerExited) || unreachable(err) {
		return err // nothing answered: initialize would not be answered either
	}
	if authorizationFailed(err) {
		return err // initialize would need the same authorization, and ask for it again
	}
	var hs *transport.HTTPStatusError
	if errors.As(err, &hs) && (hs.Status == http.StatusUnauthorized || hs.Status == http.StatusForbidden) {
		// Not an answer about the era: initialize would meet the same refusal, and the
		// error would then blame it.
		return err
	}
	var nm notModern
	if errors.As(err, &nm) {
		s.step("server/discover answered with no valid DiscoverResult (" + nm.why + "): a server of the earlier era; falling back to initialize")
		return s.initialize(ctx, protocol.LatestStateful)
	}
	s.step("server/discover failed (" + err.Error() + "): a server of the earlier era; falling back to initialize")
	return s.initialize(ctx, protocol.LatestStateful)
}

// unreachable reports whether err says nothing answered at all: the connection was refused
// or the host name does not resolve. (A connection cut after it was made may be a server's
// answer to a method it does not know, so it is not one.)
func unreachable(err error) bool {
	var dns *net.DNSError
	return errors.Is(err, syscall.ECONNREFUSED) || errors.As(err, &dns)
}

// authorizationFailed reports whether err is an authorization that failed (denied, an
// error of the authorization server, --no-auth-prompt): no answer about the era, and
// another handshake would only ask for the authorization again.
func authorizationFailed(err error) bool {
	var ae *auth.Error
	return errors.As(err, &ae)
}

// notModern is a probe answered with a result that is not a DiscoverResult: by the
// versioning page's rules, a server of the earlier era.
type notModern struct{ why string }

func (n notModern) Error() string { return n.why }

// legacyHint is a discover failure that names the server's supported revisions.
type legacyHint struct {
	rev       protocol.Revision
	supported []string
	err       error
}

func (l legacyHint) Error() string { return l.err.Error() }

func latestStateless() protocol.Revision {
	for i := len(protocol.Revisions) - 1; i >= 0; i-- {
		if protocol.Revisions[i].Stateless() {
			return protocol.Revisions[i]
		}
	}
	return protocol.Revisions[len(protocol.Revisions)-1]
}

// discover runs the stateless handshake: server/discover with _meta, then every request
// carries _meta of its own.
func (s *Session) discover(ctx context.Context, rev protocol.Revision, timeout time.Duration, probe bool) error {
	stateless := true
	o := callOpts{stateless: &stateless, version: string(rev), timeout: timeout, probe: probe}
	resp, err := s.call(ctx, "server/discover", nil, o)
	if err != nil {
		var rpc *RPCError
		if errors.As(err, &rpc) && rpc.Code == codeUnsupportedVer {
			return s.unsupportedVersion(ctx, rpc, timeout, probe)
		}
		return err
	}
	if bad := protocol.CheckDiscoverResult(resp.Result); len(bad) > 0 {
		if probe {
			return notModern{why: bad[0].Message}
		}
		s.step(fmt.Sprintf("%s (%d problems; see the response's findings): going on with %s as asked", bad[0].Message, len(bad), rev))
	}
	info, err := HandshakeInfo("server/discover", rev, resp.Result)
	if err != nil {
		return err
	}
	if info.Revision == "" {
		return legacyFrom(info.SupportedVersions, fmt.Errorf("server/discover lists %s; mcpscope speaks %s", strings.Join(info.SupportedVersions, ", "), revisionList()))
	}
	chosen := info.Revision
	s.mu.Lock()
	s.info = info
	s.mu.Unlock()
	s.step(fmt.Sprintf("stateless handshake done: protocol %s (server supports %s)", chosen, strings.Join(info.SupportedVersions, ", ")))
	return nil
}

// unsupportedVersion handles UnsupportedProtocolVersionError: retry with a mutually
// supported modern revision, or report the legacy ones.
func (s *Session) unsupportedVersion(ctx context.Context, rpc *RPCError, timeout time.Duration, probe bool) error {
	var data struct {
		Supported []string `json:"supported"`
	}
	_ = json.Unmarshal(rpc.Data, &data)
	if rev, ok := pickRevision(data.Supported, true); ok {
		s.step("server asked for protocol " + string(rev) + ": retrying server/discover")
		return s.discover(ctx, rev, timeout, probe)
	}
	return legacyFrom(data.Supported, fmt.Errorf("server supports %s: %w", strings.Join(data.Supported, ", "), rpc))
}

func legacyFrom(supported []string, err error) error {
	rev, _ := pickRevision(supported, false)
	return legacyHint{rev: rev, supported: supported, err: err}
}

// pickRevision chooses the newest revision in list that mcpscope speaks, of the given era.
func pickRevision(list []string, stateless bool) (protocol.Revision, bool) {
	var best protocol.Revision
	for _, v := range list {
		r, ok := protocol.ParseRevision(v)
		if ok && r.Stateless() == stateless && r > best {
			best = r
		}
	}
	return best, best != ""
}

// initialize runs the stateful handshake: initialize, then notifications/initialized.
func (s *Session) initialize(ctx context.Context, offer protocol.Revision) error {
	params := map[string]any{
		"protocolVersion": string(offer),
		"capabilities":    s.capsJSON,
		"clientInfo":      s.cfg.ClientInfo,
	}
	stateless := false
	resp, err := s.call(ctx, "initialize", mustJSON(params), callOpts{stateless: &stateless, version: string(offer), noMeta: true})
	if err != nil {
		return fmt.Errorf("initialize (offered %s): %w", offer, err)
	}
	info, err := HandshakeInfo("initialize", offer, resp.Result)
	if err != nil {
		return err
	}
	rev, ok := protocol.ParseRevision(string(info.Revision))
	if !ok || rev.Stateless() {
		return fmt.Errorf("server answered protocol version %q, which mcpscope cannot speak with initialize (it speaks %s); try --protocol with one of those", info.Revision, revisionList())
	}
	s.mu.Lock()
	s.info = info
	s.mu.Unlock()
	// The notification goes out before anything else, but nothing waits for the server to
	// take it (HTTP's 202): the lifecycle asks only that it be sent.
	if err := s.notify(ctx, "notifications/initialized", nil, true); err != nil {
		return fmt.Errorf("notifications/initialized: %w", err)
	}
	if rev != offer {
		s.step(fmt.Sprintf("server chose protocol %s (offered %s)", rev, offer))
	}
	return nil
}

// listenBound is how long the session waits for the server to answer the standalone GET
// before its first request: long enough for any live server, short enough that one that
// never answers does not stall the session (the GET goes on waiting in the background).
const listenBound = 2 * time.Second

// afterReady starts what follows a handshake: the standalone GET stream on Streamable HTTP
// (stateful era only: 2026-07-28 has subscriptions/listen instead), opened or refused before
// the first request, as the reference clients do, since a server can send requests unrelated
// to a call only on it; and the log level of the stateful era.
func (s *Session) afterReady() {
	info := s.Info()
	if !info.Stateless && !s.cfg.NoListen {
		if l, ok := s.tr.(interface{ Listen(context.Context) error }); ok {
			answered := make(chan struct{})
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				err := l.Listen(s.ctx)
				close(answered)
				if err != nil && s.ctx.Err() == nil {
					s.errorEvent("standalone GET stream: %v", err)
				}
			}()
			select {
			case <-answered:
			case <-s.ctx.Done():
			case <-time.After(listenBound):
				s.step(fmt.Sprintf("the server has not answered the standalone GET within %s; going on without waiting for it", listenBound))
			}
		}
	}
	if s.cfg.LogLevel != "" && !info.Stateless && s.serverHas("logging") {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			if err := s.SetLogLevel(s.ctx, s.cfg.LogLevel); err != nil && s.ctx.Err() == nil {
				s.errorEvent("logging/setLevel: %v", err)
			}
		}()
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := protocol.Marshal(v)
	if err != nil {
		panic(err) // only called on values built here
	}
	return b
}
