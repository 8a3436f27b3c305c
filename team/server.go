package team

import (
	"cmp"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"memoria"
	"memoria/workspace"
)

// Config is a team server's configuration, read from a JSON file
// (LoadConfig): the shared index, the workspaces it serves, and who may
// do what with them.
type Config struct {
	// Index is the PostgreSQL database of the workspaces' indexes
	// (postgres://…). Empty: $MEMORIA_INDEX_URL.
	Index string `json:"index"`
	// Workspaces maps each workspace's name in the index to its folder of
	// Markdown on this machine (a local disk or a mount).
	Workspaces map[string]string `json:"workspaces"`
	// Tokens are the bearer tokens the server accepts.
	Tokens []Token `json:"tokens"`
}

// Token is a bearer token and what it may do. The file holds the token's
// SHA-256, not the token: reading the configuration gives no access.
type Token struct {
	Name   string   `json:"name"`   // who holds it, for logs
	SHA256 string   `json:"sha256"` // hex SHA-256 of the token (HashToken)
	Read   []string `json:"read"`   // workspaces it may recall from ("*": all)
	Write  []string `json:"write"`  // workspaces it may retain to, reflect and edit core memory of ("*": all); writing implies reading
}

// HashToken is the SHA-256 a Config holds for a token.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// LoadConfig reads a configuration file and checks it.
func LoadConfig(path string) (Config, error) {
	var c Config
	b, err := os.ReadFile(path)
	if err != nil {
		return c, fmt.Errorf("team config: %w", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("team config %s: %w", path, err)
	}
	if err := c.check(); err != nil {
		return c, fmt.Errorf("team config %s: %w", path, err)
	}
	return c, nil
}

func (c *Config) check() error {
	if len(c.Workspaces) == 0 {
		return errors.New("no workspaces")
	}
	if len(c.Tokens) == 0 {
		return errors.New("no tokens: a team server never answers without one")
	}
	seen := map[string]bool{}
	for i, t := range c.Tokens {
		sum, err := hex.DecodeString(t.SHA256)
		if err != nil || len(sum) != sha256.Size {
			return fmt.Errorf("token %d (%s): sha256 must be the token's SHA-256 in 64 hex digits (printf %%s TOKEN | sha256sum)", i+1, t.Name)
		}
		if seen[t.SHA256] {
			return fmt.Errorf("token %d (%s): the same token twice", i+1, t.Name)
		}
		seen[t.SHA256] = true
		for _, n := range slices.Concat(t.Read, t.Write) {
			if _, ok := c.Workspaces[n]; !ok && n != "*" {
				return fmt.Errorf("token %d (%s): unknown workspace %q", i+1, t.Name, n)
			}
		}
	}
	return nil
}

// Options tune a Server.
type Options struct {
	Logger *slog.Logger     // nil: discard
	Now    func() time.Time // "now" for recall and retain; nil: time.Now
	Warn   func(string)     // the workspaces' warnings; nil: to Logger
	// MaxStale is how old a workspace's index may be when a recall answers
	// from it: the server keeps each workspace fresh in the background
	// every MaxStale/2 (KeepFresh: a sync of those whose folders changed,
	// or of every one where folders are not watched), and a recall checks
	// the files itself only when that is late. Every answer says how old
	// each index was (RecallAnswer.Freshness), and status when each was
	// last synced.
	// 0 means DefaultMaxStale; negative: every recall checks every file of
	// its workspaces first, and nothing runs in the background.
	MaxStale time.Duration
}

// DefaultMaxStale is how old a workspace's index may be, by default, when
// a team server's recall answers from it. Writes through the server
// (retain, core, reflect) sync their workspace before they return.
const DefaultMaxStale = 2 * time.Second

// Server answers a team's requests (ServeHTTP). It holds every
// workspace open on the shared index; several servers may run against
// one database, and answer the same.
type Server struct {
	spaces map[string]*memoria.Workspace
	names  []string // sorted
	tokens []grant
	log    *slog.Logger
	now    func() time.Time

	maxStale  time.Duration // 0: none (every recall syncs)
	stopFresh context.CancelFunc
	freshDone chan struct{}
}

// grant is a token's access, resolved.
type grant struct {
	name        string
	sum         [sha256.Size]byte
	read, write map[string]bool
}

// Open opens every workspace of the configuration on its shared index.
func Open(ctx context.Context, c Config, o Options) (*Server, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if c.Index == "" {
		c.Index = os.Getenv("MEMORIA_INDEX_URL")
	}
	if !memoria.IsIndexURL(c.Index) {
		return nil, fmt.Errorf("team config: index %q: a team server needs a PostgreSQL index (postgres://…)", c.Index)
	}
	s := &Server{spaces: map[string]*memoria.Workspace{}, log: o.Logger, now: o.Now, maxStale: cmp.Or(o.MaxStale, DefaultMaxStale)}
	s.maxStale = max(s.maxStale, 0)
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if s.now == nil {
		s.now = time.Now
	}
	warn := o.Warn
	if warn == nil {
		warn = func(m string) { s.log.Warn(m) }
	}
	for name, dir := range c.Workspaces {
		ws, err := memoria.Open(ctx, dir, memoria.Options{IndexPath: c.Index, IndexName: name, Warn: warn})
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("workspace %s: %w", name, err)
		}
		s.spaces[name] = ws
		s.names = append(s.names, name)
	}
	sort.Strings(s.names)
	for _, t := range c.Tokens {
		g := grant{name: t.Name, read: map[string]bool{}, write: map[string]bool{}}
		sum, _ := hex.DecodeString(t.SHA256)
		copy(g.sum[:], sum)
		for _, n := range s.expand(t.Read) {
			g.read[n] = true
		}
		for _, n := range s.expand(t.Write) {
			g.read[n], g.write[n] = true, true // writing implies reading
		}
		s.tokens = append(s.tokens, g)
	}
	if s.maxStale > 0 {
		all := make([]Space, len(s.names))
		for i, n := range s.names {
			all[i] = Space{n, s.spaces[n]}
		}
		bg, stop := context.WithCancel(context.WithoutCancel(ctx))
		s.stopFresh, s.freshDone = stop, make(chan struct{})
		go func() {
			defer close(s.freshDone)
			KeepFresh(bg, all, s.maxStale, warn)
		}()
	}
	return s, nil
}

// expand reads a token's list of workspaces: "*" is every one served.
func (s *Server) expand(names []string) []string {
	if slices.Contains(names, "*") {
		return s.names
	}
	return names
}

// Close stops keeping the workspaces fresh and closes them.
func (s *Server) Close() error {
	if s.stopFresh != nil {
		s.stopFresh()
		<-s.freshDone
	}
	var errs []error
	for _, ws := range s.spaces {
		errs = append(errs, ws.Close())
	}
	return errors.Join(errs...)
}

// Paths of the API. Every request carries "Authorization: Bearer TOKEN".
const (
	PathWorkspaces = "/v1/workspaces" // GET: the token's workspaces and what it may do with each
	PathRecall     = "/v1/recall"     // POST RecallRequest: results from every workspace asked (default: all the token may read)
	PathGet        = "/v1/get"        // POST GetRequest: the lines a citation points at
	PathRetain     = "/v1/retain"     // POST RetainRequest: facts appended to today's log
	PathStatus     = "/v1/status"     // GET: each readable workspace's index: items, freshness, last sync
	PathReflect    = "/v1/reflect"    // POST ReflectRequest: entity pages, opinions, core proposals (needs write)
	PathCore       = "/v1/core"       // POST CoreRequest: append to a block of core memory (needs write)
)

// ReflectRequest runs reflect on a workspace.
type ReflectRequest struct {
	Workspace string `json:"workspace"`
	Since     string `json:"since,omitempty"`   // 7d, 2025-11-01…; default: all history
	DryRun    bool   `json:"dry_run,omitempty"` // compute and report, write nothing
}

// CoreRequest appends text to a block of a workspace's core memory.
type CoreRequest struct {
	Workspace string `json:"workspace"`
	Block     string `json:"block"`
	Text      string `json:"text"`
}

// RecallRequest asks a team-wide recall.
type RecallRequest struct {
	Query      string   `json:"query"`
	K          int      `json:"k,omitempty"`
	Since      string   `json:"since,omitempty"` // 30d, 2025-11-01…
	Until      string   `json:"until,omitempty"`
	Kinds      []string `json:"kinds,omitempty"`
	Entities   []string `json:"entities,omitempty"`
	Workspaces []string `json:"workspaces,omitempty"` // default: all the token may read
}

// GetRequest reads lines of one workspace's Markdown.
type GetRequest struct {
	Workspace string `json:"workspace"`
	Ref       string `json:"ref"` // path#Lx-Ly
}

// RetainRequest writes facts, in the Retain grammar, to a workspace.
type RetainRequest struct {
	Workspace string   `json:"workspace"`
	Facts     []string `json:"facts"`
}

// WorkspaceStatus is one workspace as PathStatus reports it.
type WorkspaceStatus struct {
	Name     string    `json:"name"`
	Items    int       `json:"items"`
	Files    int       `json:"files"`
	Pending  int       `json:"pending"` // files changed on disk since the index saw them
	Synced   time.Time `json:"synced"`  // the last sync that changed the index
	Embedded int       `json:"embedded"`
	Texts    int       `json:"texts"`
	Write    bool      `json:"write"` // the token may write to it
	// Checked is when this server's last sync of the workspace began: a
	// recall answers from an index that holds every change made before it
	// (Options.MaxStale).
	Checked time.Time `json:"checked"`
}

// RecallAnswer is PathRecall's answer.
type RecallAnswer struct {
	Results []Result `json:"results"`
	// Freshness says, for each workspace asked, how old its index was
	// when it answered: the server syncs in the background, every
	// Options.MaxStale/2, rather than checking every file on every call.
	Freshness []Freshness `json:"freshness"`
}

// errNotVisible is the one answer for a workspace a token may not read,
// whether or not it exists: the answer must not tell them apart.
func errNotVisible(name string) error {
	return httpError{http.StatusNotFound, fmt.Sprintf("no workspace %q for this token", name)}
}

type httpError struct {
	code int
	msg  string
}

func (e httpError) Error() string { return e.msg }

// maxBody bounds a request body: a query is at most memoria.MaxQueryBytes,
// a retain a few facts.
const maxBody = 1 << 20

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g, ok := s.authorize(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="memoria"`)
		writeError(w, httpError{http.StatusUnauthorized, "missing or unknown bearer token"})
		return
	}
	start := time.Now()
	var out any
	var err error
	switch {
	case r.URL.Path == PathWorkspaces && r.Method == http.MethodGet:
		out = s.workspaces(g)
	case r.URL.Path == PathStatus && r.Method == http.MethodGet:
		out, err = s.status(r.Context(), g)
	case r.URL.Path == PathRecall && r.Method == http.MethodPost:
		var req RecallRequest
		if err = decode(r, &req); err == nil {
			out, err = s.recall(r.Context(), g, req)
		}
	case r.URL.Path == PathGet && r.Method == http.MethodPost:
		var req GetRequest
		if err = decode(r, &req); err == nil {
			out, err = s.get(g, req)
		}
	case r.URL.Path == PathRetain && r.Method == http.MethodPost:
		var req RetainRequest
		if err = decode(r, &req); err == nil {
			out, err = s.retain(r.Context(), g, req)
		}
	case r.URL.Path == PathReflect && r.Method == http.MethodPost:
		var req ReflectRequest
		if err = decode(r, &req); err == nil {
			out, err = s.reflect(r.Context(), g, req)
		}
	case r.URL.Path == PathCore && r.Method == http.MethodPost:
		var req CoreRequest
		if err = decode(r, &req); err == nil {
			out, err = s.core(r.Context(), g, req)
		}
	default:
		err = httpError{http.StatusNotFound, fmt.Sprintf("%s %s: no such call (see docs/team.md)", r.Method, r.URL.Path)}
	}
	s.log.Debug("request", "token", g.name, "method", r.Method, "path", r.URL.Path, "ms", time.Since(start).Milliseconds(), "err", err)
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

// authorize finds the request's token, comparing its hash with every
// token's in constant time.
func (s *Server) authorize(r *http.Request) (grant, bool) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return grant{}, false
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	found := -1
	for i, g := range s.tokens {
		if subtle.ConstantTimeCompare(sum[:], g.sum[:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		return grant{}, false
	}
	return s.tokens[found], true
}

func decode(r *http.Request, v any) error {
	dec := json.NewDecoder(io.LimitReader(r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return httpError{http.StatusBadRequest, "request body: " + err.Error()}
	}
	return nil
}

func writeError(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	var he httpError
	switch {
	case errors.As(err, &he):
		code = he.code
	case errors.Is(err, memoria.ErrInvalid), errors.Is(err, memoria.ErrUnknownEntity), errors.Is(err, memoria.ErrAmbiguousEntity), errors.Is(err, workspace.ErrBadSource), errors.Is(err, workspace.ErrNotMemoryFile), errors.Is(err, workspace.ErrNoLines):
		code = http.StatusBadRequest
	case errors.Is(err, os.ErrNotExist):
		code = http.StatusNotFound
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		code = http.StatusServiceUnavailable
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}

// readable returns the workspaces of names the token may read (all it may
// read when names is empty), or errNotVisible for the first it may not.
func (s *Server) readable(g grant, names []string) ([]Space, error) {
	if len(names) == 0 {
		names = s.names
		names = slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !g.read[n] })
	}
	var out []Space
	for _, n := range names {
		if !g.read[n] || s.spaces[n] == nil {
			return nil, errNotVisible(n)
		}
		if !slices.ContainsFunc(out, func(sp Space) bool { return sp.Name == n }) {
			out = append(out, Space{n, s.spaces[n]})
		}
	}
	return out, nil
}

func (s *Server) workspaces(g grant) []map[string]any {
	out := []map[string]any{}
	for _, n := range s.names {
		if g.read[n] {
			out = append(out, map[string]any{"name": n, "write": g.write[n]})
		}
	}
	return out
}

func (s *Server) recall(ctx context.Context, g grant, req RecallRequest) (RecallAnswer, error) {
	spaces, err := s.readable(g, req.Workspaces)
	if err != nil {
		return RecallAnswer{}, err
	}
	now := s.now()
	since, err := memoria.ParseTimeBound(req.Since, now)
	if err != nil {
		return RecallAnswer{}, err
	}
	until, err := memoria.ParseUntilBound(req.Until, now)
	if err != nil {
		return RecallAnswer{}, err
	}
	res, fresh, err := RecallAll(ctx, spaces, req.Query, memoria.RecallOptions{
		K: req.K, Since: since, Until: until, Kinds: req.Kinds, Entities: req.Entities, Now: now, MaxStale: s.maxStale,
	})
	if err != nil {
		return RecallAnswer{}, err
	}
	if res == nil {
		res = []Result{}
	}
	return RecallAnswer{Results: res, Freshness: fresh}, nil
}

func (s *Server) get(g grant, req GetRequest) (memoria.Lines, error) {
	spaces, err := s.readable(g, []string{req.Workspace})
	if err != nil {
		return memoria.Lines{}, err
	}
	return spaces[0].WS.Get(req.Ref)
}

// writable returns the workspace called name if the token may write to
// it: errNotVisible if it may not read it, 403 if it may only read it.
func (s *Server) writable(g grant, name string) (*memoria.Workspace, error) {
	spaces, err := s.readable(g, []string{name})
	if err != nil {
		return nil, err
	}
	if !g.write[name] {
		return nil, httpError{http.StatusForbidden, fmt.Sprintf("this token may read workspace %q, not write to it", name)}
	}
	return spaces[0].WS, nil
}

func (s *Server) retain(ctx context.Context, g grant, req RetainRequest) (memoria.RetainResult, error) {
	ws, err := s.writable(g, req.Workspace)
	if err != nil {
		return memoria.RetainResult{}, err
	}
	return ws.Retain(ctx, req.Facts, memoria.RetainOptions{Now: s.now()})
}

func (s *Server) reflect(ctx context.Context, g grant, req ReflectRequest) (memoria.ReflectReport, error) {
	ws, err := s.writable(g, req.Workspace)
	if err != nil {
		return memoria.ReflectReport{}, err
	}
	now := s.now()
	since, err := memoria.ParseTimeBound(req.Since, now)
	if err != nil {
		return memoria.ReflectReport{}, err
	}
	return ws.Reflect(ctx, memoria.ReflectOptions{Since: since, Now: now, DryRun: req.DryRun})
}

func (s *Server) core(ctx context.Context, g grant, req CoreRequest) (map[string]string, error) {
	ws, err := s.writable(g, req.Workspace)
	if err != nil {
		return nil, err
	}
	if err := ws.CoreAppend(ctx, req.Block, req.Text, memoria.CoreOptions{}); err != nil {
		return nil, err
	}
	return map[string]string{"workspace": req.Workspace, "path": ws.CorePath(), "block": req.Block}, nil
}

func (s *Server) status(ctx context.Context, g grant) ([]WorkspaceStatus, error) {
	spaces, err := s.readable(g, nil)
	if err != nil {
		return nil, err
	}
	out := make([]WorkspaceStatus, 0, len(spaces))
	for _, sp := range spaces {
		st, err := sp.WS.Status(ctx)
		if err != nil {
			return nil, fmt.Errorf("workspace %s: %w", sp.Name, err)
		}
		ws := WorkspaceStatus{Name: sp.Name, Items: st.Passages, Pending: st.Pending, Synced: st.Synced,
			Embedded: st.Embedded, Texts: st.Texts, Write: g.write[sp.Name], Checked: sp.WS.Checked().UTC()}
		for _, n := range st.Facts {
			ws.Items += n
		}
		for _, n := range st.Files {
			ws.Files += n
		}
		out = append(out, ws)
	}
	return out, nil
}
