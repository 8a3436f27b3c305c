package mcp

import (
	"bytes"
	"container/list"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"memoria"
)

// HTTPPath is where the streamable HTTP transport is served.
const HTTPPath = "/mcp"

// HTTPOptions guard the HTTP transport.
type HTTPOptions struct {
	// Token, when set, must come with every request as
	// "Authorization: Bearer TOKEN"; others get 401.
	Token string
	// AllowedOrigins are the origins (scheme://host[:port]) besides
	// loopback ones whose pages may call the server. A request with an
	// Origin header naming any other origin gets 403, as the MCP
	// specification requires (a page on evil.example.com must not drive
	// a server on this machine through the user's browser).
	AllowedOrigins []string
	// Page, when set, is served at every path but HTTPPath: the web page
	// and its API (package web), behind the same Origin and token checks.
	// There the token may also come as the page's cookie, which opening
	// /?token=TOKEN once sets (HttpOnly, SameSite=Strict) before
	// redirecting to the page without the token; and, on a loopback
	// address, the Host must be a loopback name or an allowed origin's
	// host, so that a page of another site that a DNS rebinding points at
	// this machine gets 403 (the SDK checks this for HTTPPath).
	Page http.Handler
	// MaxSessions caps the MCP sessions kept at once; 0 means
	// DefaultMaxSessions. Beyond it, each new session closes the least
	// recently used one (its client gets 404 and starts a new session, as
	// the MCP specification has it).
	MaxSessions int
}

// DefaultMaxSessions is how many MCP sessions the HTTP transport keeps at
// once. Each costs memory while idle (10,000 added 161 MB to a server)
// and lives until it has been idle for SessionTimeout; without a cap any
// client that can reach the server, with no token set any local process,
// could grow it without bound. A thousand is far more agents than one
// memory serves.
const DefaultMaxSessions = 1000

// SessionTimeout is how long an idle MCP session is kept.
const SessionTimeout = 30 * time.Minute

// HTTPHandler serves the MCP streamable HTTP transport at HTTPPath, and
// HTTPOptions.Page at every other path. Requests from a foreign Origin get
// 403, a missing or wrong bearer token 401 (see HTTPOptions); a POST whose
// body is not one JSON-RPC message the SDK can take gets 400 with a
// JSON-RPC error, as on stdio. The SDK's protection against DNS rebinding
// stays on.
func (s *Server) HTTPHandler(o HTTPOptions) http.Handler {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.srv },
		&sdk.StreamableHTTPOptions{Logger: s.log, SessionTimeout: SessionTimeout})
	max := o.MaxSessions
	if max <= 0 {
		max = DefaultMaxSessions
	}
	lru := &sessionLRU{srv: s.srv, max: max, order: list.New(), byID: map[string]*list.Element{}}
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, checkedMessages(lru.handler(h)))
	if o.Page != nil {
		mux.Handle("/", pageGuard(o, o.Page))
	}
	want := sha256.Sum256([]byte(o.Token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, o.AllowedOrigins) {
			http.Error(w, fmt.Sprintf("origin %q may not call this server: pages on this machine may; start serve with --allow-origin %s to allow it", origin, origin), http.StatusForbidden)
			return
		}
		if o.Token != "" && (o.Page == nil || r.URL.Path == HTTPPath) && !bearerOK(r, want) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="memoria"`)
			http.Error(w, "missing or wrong bearer token: send Authorization: Bearer <the server's token>", http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// bearerOK reports whether r carries the bearer token whose SHA-256 is
// want.
func bearerOK(r *http.Request, want [32]byte) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	sum := sha256.Sum256([]byte(strings.TrimSpace(got)))
	return ok && subtle.ConstantTimeCompare(sum[:], want[:]) == 1
}

// PageCookie is the name of the cookie that carries the page's session
// for a token: one name per token, so that servers on other ports of the
// same host (cookies do not tell ports apart) keep theirs.
func PageCookie(token string) string {
	sum := sha256.Sum256([]byte("memoria page cookie\x00" + token))
	return "memoria_" + hex.EncodeToString(sum[:4])
}

// pageSession is the cookie's value for a token: derived from it, so that
// the cookie is no bearer token for HTTPPath.
func pageSession(token string) [32]byte {
	return sha256.Sum256([]byte("memoria page session\x00" + token))
}

// pageGuard checks a request for the page: its Host on a loopback
// listener, and with a token, a bearer token, the page's cookie, or (a
// GET) ?token=TOKEN, which sets the cookie and redirects without it.
func pageGuard(o HTTPOptions, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(o.Token))
	session := pageSession(o.Token)
	name := PageCookie(o.Token)
	value := hex.EncodeToString(session[:])
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowed(r, o.AllowedOrigins) {
			http.Error(w, fmt.Sprintf("host %q: this server answers its page on loopback names only (localhost, 127.0.0.1, [::1])", r.Host), http.StatusForbidden)
			return
		}
		if o.Token == "" || bearerOK(r, want) {
			next.ServeHTTP(w, r)
			return
		}
		if c, err := r.Cookie(name); err == nil && subtle.ConstantTimeCompare([]byte(c.Value), []byte(value)) == 1 {
			next.ServeHTTP(w, r)
			return
		}
		q := r.URL.Query()
		if q.Has("token") && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			sum := sha256.Sum256([]byte(q.Get("token")))
			if subtle.ConstantTimeCompare(sum[:], want[:]) == 1 {
				http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: "/", HttpOnly: true,
					SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
				q.Del("token")
				to := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
				w.Header().Set("Referrer-Policy", "no-referrer")
				http.Redirect(w, r, to.String(), http.StatusSeeOther)
				return
			}
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="memoria"`)
		http.Error(w, "this page needs the server's token: open /?token=TOKEN once (the token given to memoria serve with --token or $MEMORIA_TOKEN), or send Authorization: Bearer TOKEN", http.StatusUnauthorized)
	})
}

// hostAllowed: on a loopback listener, the request's Host must be a
// loopback name or the host of an allowed origin.
func hostAllowed(r *http.Request, allowed []string) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return true
	}
	lhost, _, err := net.SplitHostPort(local.String())
	if err != nil || !isLoopback(lhost) {
		return true
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if isLoopback(host) {
		return true
	}
	for _, a := range allowed {
		if u, err := url.Parse(a); err == nil && strings.EqualFold(u.Hostname(), host) {
			return true
		}
	}
	return false
}

// With runs fn on the server's workspace, held as a tool call holds it
// (a Replace waits for it); it fails when the server has no workspace.
// The web page reads and writes through it.
func (s *Server) With(fn func(ws *memoria.Workspace) error) error {
	if err := s.workspace(); err != nil {
		return err
	}
	defer s.wsMu.RUnlock()
	return fn(s.ws)
}

// originAllowed: a loopback origin (a page served from this machine), or
// one of allowed, compared without case and without a trailing slash.
func originAllowed(origin string, allowed []string) bool {
	origin = strings.TrimSuffix(origin, "/")
	for _, a := range allowed {
		if strings.EqualFold(strings.TrimSuffix(a, "/"), origin) {
			return true
		}
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	return isLoopback(u.Hostname())
}

// checkedMessages answers a POST whose body is not one JSON-RPC message
// the SDK can take with 400 and a JSON-RPC error (the SDK accepted an id
// without a method with 202 and never answered it). Other requests pass.
func checkedMessages(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxMessageBytes+1))
		r.Body.Close()
		if err != nil {
			http.Error(w, "reading the request: "+err.Error(), http.StatusBadRequest)
			return
		}
		var id any
		code, msg := jsonrpc.CodeInvalidRequest, fmt.Sprintf("message over %d bytes", MaxMessageBytes)
		if len(body) <= MaxMessageBytes {
			id, code, msg = check(bytes.TrimSpace(body))
		}
		if code != 0 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			replyError(w, id, code, msg)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		next.ServeHTTP(w, r)
	})
}

// ErrRemote is returned by CheckListenAddr for an address that is not
// loopback when remote access was not allowed.
var ErrRemote = errors.New("not a loopback address")

// CheckListenAddr accepts host:port when host is a loopback address
// (127.0.0.1, ::1, localhost); any other host (including an empty one,
// which means every interface) needs allowRemote.
func CheckListenAddr(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("listen address %q: %w (want HOST:PORT, e.g. 127.0.0.1:7377)", addr, err)
	}
	if allowRemote || isLoopback(host) {
		return nil
	}
	return fmt.Errorf("%w: %q would expose memory beyond this machine; use 127.0.0.1, or pass --allow-remote (with --token)", ErrRemote, addr)
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// ServeHTTP serves the streamable HTTP transport on ln until ctx is done,
// then shuts down, giving open requests a few seconds.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, o HTTPOptions) error {
	hs := &http.Server{Handler: s.HTTPHandler(o), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
		return nil
	}
}

// sessionIDHeader carries the MCP session's id (the SDK's own is not
// exported).
const sessionIDHeader = "Mcp-Session-Id"

// sessionLRU caps the SDK's sessions, which the SDK does not: it keeps
// every session until it has been idle for SessionTimeout. It sees each
// session's id on the response that created it and on every request of
// the session, and closes the least recently used one when a new one
// goes over max.
type sessionLRU struct {
	srv   *sdk.Server
	max   int
	mu    sync.Mutex
	order *list.List               // of session ids, most recently used first
	byID  map[string]*list.Element // id → its element of order
}

func (c *sessionLRU) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id := r.Header.Get(sessionIDHeader); id != "" {
			c.touch(id)
			next.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
		// A request without an id that got one started a session (the
		// SDK sets the header before it answers).
		if id := w.Header().Get(sessionIDHeader); id != "" && r.Method == http.MethodPost {
			c.add(id)
		}
	})
}

// touch marks a session as just used.
func (c *sessionLRU) touch(id string) {
	c.mu.Lock()
	if e, ok := c.byID[id]; ok {
		c.order.MoveToFront(e)
	}
	c.mu.Unlock()
}

// add records a new session and closes the least recently used ones over
// max. A session that ends otherwise (its client's DELETE, the idle
// timeout) leaves the record when it does.
func (c *sessionLRU) add(id string) {
	var ss *sdk.ServerSession
	for s := range c.srv.Sessions() {
		if s.ID() == id {
			ss = s
			break
		}
	}
	if ss == nil {
		return // already closed (its initialisation failed)
	}
	c.mu.Lock()
	if _, ok := c.byID[id]; ok {
		c.mu.Unlock()
		return
	}
	c.byID[id] = c.order.PushFront(id)
	var evict []string
	for c.order.Len() > c.max {
		e := c.order.Back()
		c.order.Remove(e)
		delete(c.byID, e.Value.(string))
		evict = append(evict, e.Value.(string))
	}
	c.mu.Unlock()
	go func() {
		ss.Wait()
		c.mu.Lock()
		if e, ok := c.byID[id]; ok {
			c.order.Remove(e)
			delete(c.byID, id)
		}
		c.mu.Unlock()
	}()
	for _, old := range evict {
		for s := range c.srv.Sessions() {
			if s.ID() == old {
				// Close waits for the session's requests in flight; the
				// new session's answer does not wait for that.
				go s.Close()
				break
			}
		}
	}
}
