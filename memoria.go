package memoria

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"memoria/datephrase"
	"memoria/embed"
	"memoria/ingest"
	"memoria/memory"
	"memoria/postgres"
	"memoria/query"
	"memoria/recall"
	"memoria/sqlite"
	"memoria/workspace"
)

// Options configure how a workspace is opened. The zero value is ready to use.
type Options struct {
	// IndexPath puts the derived index somewhere other than
	// <workspace>/.memory/index.sqlite (for read-only workspaces). A
	// postgres:// or postgresql:// URL keeps it in a PostgreSQL database
	// that many workspaces share (package postgres, docs/team.md).
	IndexPath string
	// IndexName names the workspace in a shared database; "" means the
	// workspace folder's name.
	IndexName string
	// Warn receives one-line warnings (skipped files, malformed lines).
	Warn func(msg string)
	// Progress is called while files are parsed during a build.
	Progress func(done, total int)
	// PassageLines overrides how many lines a passage spans at most.
	PassageLines int
	// MaxFileSize overrides the largest file indexed (bytes).
	MaxFileSize int64
	// Embedder embeds queries for semantic recall. Nil means the default
	// model (DefaultEmbedder), loaded on the first recall that can use it
	// (the index holds vectors from it); without it recall is lexical.
	Embedder embed.Embedder
	// Built is called when Open builds the index from scratch, with why
	// ("new", "corrupt", "foreign" or "outdated") and what the build
	// wrote. May be nil.
	Built func(reason string, st Stats)
	// BoundMemory has a build of the index set the process's soft memory
	// limit while it runs (unless GOMEMLIMIT or the program set one): a
	// lower peak for a little more time collecting garbage. For programs
	// that do little else meanwhile, as the memoria command.
	BoundMemory bool
}

// Workspace is an open Memoria workspace: its Markdown and the index
// derived from it. A Workspace is safe for concurrent use by several
// goroutines (an MCP server recalls and retains from many at once): reads
// share the index, and every write to the Markdown takes the workspace's
// write lock, which also orders it against other processes. Several
// processes may open the same workspace at once; none waits for another
// to close it. Close releases the index; no method may be called after.
type Workspace struct {
	dir  string
	ix   memory.Store
	path string // where the index is
	opts Options

	embedOnce sync.Once
	embedder  embed.Embedder // nil: no model

	// Why the last recall ran without its semantic channel ("" when it
	// ran), said once through Options.Warn.
	lexicalWhy  atomic.Value // string
	lexicalOnce sync.Once
	lag         atomic.Int64 // items the last semantic recall may have missed
	lagOnce     sync.Once
	// languageOnce: LanguageNotice, once per Workspace.
	languageOnce sync.Once
	reembedOnce  sync.Once      // a damaged vector store is embedded again once
	reembed      sync.WaitGroup // that embedding, which Close stops and waits for
	stopReembed  context.CancelFunc

	// checked is when the last sync by this Workspace that succeeded
	// began, or a later moment MarkFresh was told of (Unix nanoseconds;
	// 0: none yet): the index held every change made to the Markdown
	// before it. syncMu lets concurrent recalls that allow a stale index
	// (RecallOptions.MaxStale) share one sync.
	checked atomic.Int64
	syncMu  sync.Mutex

	healing healing
	clock   func() time.Time // nil: time.Now; tests set it

	// The query parser's table of entity names, kept while the index's
	// list of names (the same slice) is unchanged.
	namesMu    sync.Mutex
	nameTable  *query.NameTable
	nameSource []memory.KnownName
}

// Open opens the workspace in dir, creating or repairing its index as
// needed (a corrupt or outdated index is rebuilt from the Markdown).
func Open(ctx context.Context, dir string, opts Options) (*Workspace, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	if IsIndexURL(opts.IndexPath) {
		return openShared(ctx, abs, opts)
	}
	iopts := sqlite.Options{
		PassageLines: opts.PassageLines,
		MaxFileSize:  opts.MaxFileSize,
		Warn:         opts.Warn,
		Progress:     opts.Progress,
		BoundMemory:  opts.BoundMemory,
	}
	var ix *sqlite.Index
	if opts.IndexPath != "" {
		ix, err = sqlite.OpenAt(ctx, abs, opts.IndexPath, iopts)
	} else {
		ix, err = sqlite.Open(ctx, abs, iopts)
	}
	if err != nil {
		return nil, err
	}
	if ix.Rebuilt != "" && opts.Built != nil {
		opts.Built(ix.Rebuilt, ix.BuildStats)
	}
	return &Workspace{dir: abs, ix: ix, opts: opts, path: ix.Path()}, nil
}

// IsIndexURL reports whether an index location is a PostgreSQL database
// rather than a file.
func IsIndexURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// openShared opens the workspace with its index in a PostgreSQL database.
func openShared(ctx context.Context, dir string, opts Options) (*Workspace, error) {
	db, err := databases.open(ctx, opts.IndexPath, opts.Warn)
	if err != nil {
		return nil, err
	}
	name := opts.IndexName
	if name == "" {
		name = filepath.Base(dir)
	}
	ix, err := db.Workspace(ctx, name, dir, postgres.WorkspaceOptions{
		Rows:     ingest.Options{PassageLines: opts.PassageLines, MaxFileSize: opts.MaxFileSize},
		Warn:     opts.Warn,
		Progress: opts.Progress,
	})
	if err != nil {
		databases.release(opts.IndexPath)
		return nil, err
	}
	if ix.Rebuilt != "" && opts.Built != nil {
		opts.Built(ix.Rebuilt, ix.BuildStats)
	}
	return &Workspace{dir: dir, ix: sharedIndex{ix, opts.IndexPath}, opts: opts, path: db.URL() + "#" + name}, nil
}

// sharedIndex is a workspace's index in a shared database: closing it
// releases the process's connections to the database when it is the last.
type sharedIndex struct {
	*postgres.Index
	url string
}

func (s sharedIndex) Close() error {
	databases.release(s.url)
	return nil
}

// databases are the shared databases this process has open, one
// connection pool each however many workspaces it opens in them (an
// evaluation opens a hundred), closed with the last of those.
var databases = openDatabases{byURL: map[string]*openDatabase{}}

type openDatabases struct {
	mu    sync.Mutex
	byURL map[string]*openDatabase
}

type openDatabase struct {
	db   *postgres.DB
	refs int
}

func (d *openDatabases) open(ctx context.Context, url string, warn func(string)) (*postgres.DB, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if o, ok := d.byURL[url]; ok {
		o.refs++
		return o.db, nil
	}
	db, err := postgres.Open(ctx, url, postgres.Options{Warn: warn})
	if err != nil {
		return nil, err
	}
	d.byURL[url] = &openDatabase{db: db, refs: 1}
	return db, nil
}

func (d *openDatabases) release(url string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if o, ok := d.byURL[url]; ok {
		if o.refs--; o.refs == 0 {
			o.db.Close()
			delete(d.byURL, url)
		}
	}
}

// Dir is the workspace folder.
func (w *Workspace) Dir() string { return w.dir }

// IndexPath is the derived index file.
func (w *Workspace) IndexPath() string { return w.path }

// Close releases the index.
func (w *Workspace) Close() error {
	w.reembedOnce.Do(func() {}) // no embedding starts after this
	if w.stopReembed != nil {
		w.stopReembed()
	}
	w.reembed.Wait()
	return w.ix.Close()
}

// Sync brings the index up to date with the Markdown (only changed files
// are re-parsed). Recall does this itself.
func (w *Workspace) Sync(ctx context.Context) (st memory.Stats, err error) {
	start := time.Now()
	err = w.repairing(ctx, func() (err error) {
		st, err = w.ix.Sync(ctx)
		return err
	})
	if err == nil {
		w.markChecked(start)
	}
	return st, err
}

// MarkFresh records that the caller knows the workspace's Markdown did
// not change between the start of its last successful sync and t, as a
// watcher of its folders that saw no change since then knows (package
// team's KeepFresh with package watch's Folders): Checked moves to t, and
// recalls with RecallOptions.MaxStale answer without checking every file.
// Before a first successful sync it does nothing: there is nothing the
// Markdown could be unchanged from.
func (w *Workspace) MarkFresh(t time.Time) {
	if w.checked.Load() != 0 {
		w.markChecked(t)
	}
}

// markChecked records that a sync that began at t succeeded.
func (w *Workspace) markChecked(t time.Time) {
	for {
		old := w.checked.Load()
		if old >= t.UnixNano() || w.checked.CompareAndSwap(old, t.UnixNano()) {
			return
		}
	}
}

// Checked is when the last successful sync by this Workspace began (a
// recall's, Sync, or a watch's), or the later moment MarkFresh vouched
// for: the index holds every change made to the Markdown before then, and
// perhaps later ones. Zero before the first. A recall with
// RecallOptions.MaxStale answers from an index that may be this old.
func (w *Workspace) Checked() time.Time {
	n := w.checked.Load()
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

// freshWithin brings the index up to date unless this Workspace's last
// sync began less than maxStale ago; concurrent callers share one sync.
func (w *Workspace) freshWithin(ctx context.Context, maxStale time.Duration) error {
	fresh := func() bool { return time.Since(w.Checked()) < maxStale }
	if fresh() {
		return nil
	}
	w.syncMu.Lock()
	defer w.syncMu.Unlock()
	if fresh() { // another caller synced while this one waited
		return nil
	}
	_, err := w.Sync(ctx)
	return err
}

// Rebuild builds the index afresh from the Markdown.
func (w *Workspace) Rebuild(ctx context.Context) (memory.Stats, error) { return w.ix.Rebuild(ctx) }

// Status reports what the index holds and whether it is fresh.
func (w *Workspace) Status(ctx context.Context) (st memory.Status, err error) {
	err = w.repairing(ctx, func() (err error) {
		st, err = w.ix.Status(ctx)
		return err
	})
	return st, err
}

// repairing runs f, and once more after rebuilding the index from the
// Markdown if f found it damaged (memory.ErrCorrupt): the index is
// derived, so damage costs a rebuild, never an answer. Open catches a
// damaged header; this catches damage further in, found by a query.
//
// An index that can heal in place (sqlite.Index, kept open by a
// long-lived process) heals by steps instead (heal): its database is
// opened again, which mends a broken handle (a truncated or overwritten
// -shm, a file deleted or replaced), then, if f still finds damage, built
// afresh into a new file. f runs at most three times; calls that find the
// damage together wait for one repair and run again on its result.
func (w *Workspace) repairing(ctx context.Context, f func() error) error {
	h, ok := w.ix.(healer)
	if !ok {
		err := f()
		if !errors.Is(err, memory.ErrCorrupt) {
			return err
		}
		if w.opts.Warn != nil {
			w.opts.Warn(fmt.Sprintf("index %s is damaged (%v); rebuilding it from the Markdown", w.path, err))
		}
		if _, rerr := w.ix.Rebuild(ctx); rerr != nil {
			return fmt.Errorf("%w; rebuilding it failed too: %w", err, rerr)
		}
		return f()
	}
	var err error
	for step := 0; step < 3; step++ {
		opened := h.Opened()
		if err = f(); err == nil || ctx.Err() != nil {
			return err
		}
		// An error that is no damage stands, unless the database was
		// opened anew while f ran (another call's repair closed the one
		// f was reading).
		if !errors.Is(err, memory.ErrCorrupt) && h.Opened() == opened {
			return err
		}
		if step == 2 {
			break
		}
		if herr := w.heal(ctx, h, opened, step, err); herr != nil {
			return herr
		}
	}
	return err
}

// healer is a Store that can mend itself while open (sqlite.Index).
type healer interface {
	// Opened counts the openings of its database.
	Opened() int64
	// Reopen closes its database and opens the file again (or builds it,
	// where there is none usable).
	Reopen(ctx context.Context) error
	// RebuildDamaged builds a new file from the Markdown in the place of
	// the damaged one.
	RebuildDamaged(ctx context.Context) (Stats, error)
}

// healBackoff is how long after a repair that failed the next is tried:
// meanwhile calls fail at once with why, rather than each repeat a
// rebuild that fails (a read-only or full disk).
const healBackoff = 5 * time.Second

// healing is the state of a Workspace's repairs.
type healing struct {
	mu       sync.Mutex
	failed   error     // why the last repair failed; nil after one succeeded
	failedAt time.Time // when
}

// heal repairs the index after cause, an error of a call that began when
// the database had been opened `opened` times: nothing if another call
// repaired it since, else the step-th remedy (0: open it again; then:
// build it afresh).
func (w *Workspace) heal(ctx context.Context, h healer, opened int64, step int, cause error) error {
	w.healing.mu.Lock()
	defer w.healing.mu.Unlock()
	if h.Opened() != opened {
		return nil // repaired while this call waited, or ran
	}
	now := w.now()
	if failed := w.healing.failed; failed != nil && now.Sub(w.healing.failedAt) < healBackoff {
		why := ""
		if !strings.Contains(cause.Error(), failed.Error()) {
			why = ": " + failed.Error()
		}
		return fmt.Errorf("%w (repairing it failed %s ago%s; next try at %s)",
			cause, now.Sub(w.healing.failedAt).Round(time.Millisecond), why, w.healing.failedAt.Add(healBackoff).Format(time.TimeOnly))
	}
	var err error
	if step == 0 {
		// Quietly: opening again costs nothing and loses nothing; the
		// index warns itself if it has to build the file (it was corrupt
		// or gone).
		err = h.Reopen(ctx)
	} else {
		if w.opts.Warn != nil {
			w.opts.Warn(fmt.Sprintf("index %s is damaged (%v); rebuilding it from the Markdown", w.path, cause))
		}
		_, err = h.RebuildDamaged(ctx)
	}
	if err != nil {
		if ctx.Err() == nil { // a call given up is no failure of the disk
			w.healing.failed, w.healing.failedAt = err, now
		}
		return fmt.Errorf("%w; repairing it failed too: %w", cause, err)
	}
	w.healing.failed = nil
	return nil
}

// now is the clock of repairs: time.Now, or the one a test set.
func (w *Workspace) now() time.Time {
	if w.clock != nil {
		return w.clock()
	}
	return time.Now()
}

// Bounds on what a caller may ask of a recall: a larger K is taken as
// MaxK, and a longer query is refused (ErrInvalid). They keep one request
// from taking a server's memory or time.
const (
	MaxK          = 1000
	MaxQueryBytes = 16 << 10
)

// RecallOptions shape a recall. The zero value asks for DefaultK results
// with no filters, "now" being the wall clock.
type RecallOptions struct {
	K        int       // results wanted; 0 means recall.DefaultK, above MaxK means MaxK
	Budget   int       // token budget for all results; 0 means none
	Since    time.Time // only memory of this day or later (ParseTimeBound reads 30d, 2025-11-01…); zero means no bound
	Until    time.Time // only memory of this day or earlier; zero means no bound
	Kinds    []string  // world, experience, opinion, observation, passage (or W/B/O/S)
	Entities []string  // only items mentioning one of these (names, aliases or slugs)
	Now      time.Time // "now" for relative times; zero means time.Now()
	Explain  bool      // attach why each result ranks where it does
	Lexical  bool      // no semantic channel, even when a model and vectors are there
	// Floor drops results that are not about the query: they say none of
	// its own words and come from no channel of an entity it names, and
	// are not near it in meaning (recall.Plan.Floor). Context sets it.
	Floor bool
	// MinScore drops results scoring below it. Scores are relative (1 for
	// the best result), so 0.3 keeps what ranks at least 30% as high as
	// the best; 0 keeps all.
	MinScore float64
	// MaxStale lets the recall answer from the index as it stands when
	// this Workspace last synced less than MaxStale ago (Checked), instead
	// of checking every file of the workspace first: for long-lived
	// servers that keep their workspaces fresh themselves (package team),
	// which then say how old the index may be. 0: check first, so that
	// results are never stale.
	MaxStale time.Duration
	// Corpus, set for each of several recalls whose results are merged
	// (package team's RecallAll: all the workspaces it asks, this one
	// among them), weighs the query's words by their rarity among all
	// the corpus's workspaces, as if they were one index, so that the
	// bm25 of results (recall.Evidence.Lexical) compares across them.
	// The terms searched for, and the items found, are this workspace's
	// as without it; only their scores and order may differ. Nil: the
	// workspace's own counts, as when it is asked alone.
	Corpus *Corpus
	// Ranker scores the candidates instead of the weights fitted for the
	// index's model (recall.FittedRanker); nil uses those. Candidates,
	// when set, receives each recall's candidate pool with its features.
	// Both are for fitting and judging rankings (go run ./recall/fit).
	Ranker     *recall.Ranker
	Candidates func([]recall.Candidate)
}

// Corpus is several workspaces whose recalls are compared (RecallOptions.
// Corpus). Its counts take only the workspaces it is made of, which a
// caller must be allowed to read: a team server makes it of those a
// token may read.
type Corpus struct{ scope *postgres.Scope }

// NewCorpus returns the corpus of these workspaces for one merged recall
// (the counts it has seen stay fixed for its life, so that every
// workspace's results are weighed alike). Workspaces not all in one
// shared index, or fewer than two, weigh words by their own counts: a
// SQLite index keeps no other workspace's.
func NewCorpus(ws ...*Workspace) *Corpus {
	ixs := make([]*postgres.Index, len(ws))
	for i, w := range ws {
		if s, ok := w.ix.(sharedIndex); ok {
			ixs[i] = s.Index
		}
	}
	return &Corpus{postgres.NewScope(ixs)}
}

// corpusIndex is a shared index whose searches weigh words among a
// corpus's workspaces.
type corpusIndex struct {
	sharedIndex
	scope *postgres.Scope
}

func (c corpusIndex) Search(ctx context.Context, terms []string, f memory.Filter, limit int) ([]memory.Hit, error) {
	return c.SearchWithin(ctx, c.scope, terms, f, limit)
}

// Recall answers a query from the workspace's memory. The index is brought
// up to date with the Markdown first, so results are never stale, unless
// o.MaxStale allows an index synced a little earlier.
func (w *Workspace) Recall(ctx context.Context, text string, o RecallOptions) ([]recall.Result, error) {
	if len(text) > MaxQueryBytes {
		return nil, invalidError{fmt.Errorf("the query is %d bytes; at most %d are searched", len(text), MaxQueryBytes)}
	}
	o.K = min(o.K, MaxK)
	if o.MinScore < 0 || o.MinScore > 1 {
		return nil, invalidError{fmt.Errorf("min score %g: want a number from 0 to 1 (scores are relative to the best result's 1)", o.MinScore)}
	}
	var res []Result
	run := func() (err error) {
		res, err = w.recall(ctx, text, o)
		if err == nil && o.MinScore > 0 {
			res = slices.DeleteFunc(res, func(r Result) bool { return r.Score < o.MinScore })
		}
		return err
	}
	if o.MaxStale > 0 {
		if err := w.freshWithin(ctx, o.MaxStale); err != nil {
			return nil, err
		}
		return res, w.repairing(ctx, run)
	}
	start := time.Now()
	err := w.repairing(ctx, func() error {
		if ov, ok := w.ix.(overlapper); ok {
			_, err := ov.SyncAround(ctx, run)
			return err
		}
		if _, err := w.ix.Sync(ctx); err != nil {
			return err
		}
		return run()
	})
	if err == nil {
		w.markChecked(start)
	}
	return res, err
}

// overlapper is a Store that checks the Markdown for changes while a
// query runs on the index as it stands, and runs the query again only if
// the check found a change (sqlite.Index in a one-shot process): the
// common case costs the longer of the two, not their sum.
type overlapper interface {
	SyncAround(ctx context.Context, query func() error) (Stats, error)
}

// names returns the name table for the query parser, built again only
// when the index's list of entity names changed.
func (w *Workspace) names(ctx context.Context) (*query.NameTable, error) {
	names, err := w.ix.EntityNames(ctx)
	if err != nil {
		return nil, err
	}
	w.namesMu.Lock()
	defer w.namesMu.Unlock()
	same := w.nameTable != nil && len(names) == len(w.nameSource) &&
		(len(names) == 0 || &names[0] == &w.nameSource[0])
	if !same {
		w.nameTable = query.NewNameTable(nil)
		for _, n := range names {
			w.nameTable.Add(n.Slug, n.Key)
		}
		w.nameSource = names
	}
	return w.nameTable, nil
}

// recall is Recall on the index as it stands.
func (w *Workspace) recall(ctx context.Context, text string, o RecallOptions) ([]recall.Result, error) {
	now := o.Now
	if now.IsZero() {
		now = time.Now()
	}
	table, err := w.names(ctx)
	if err != nil {
		return nil, err
	}
	q, err := query.Parse(text, query.Options{Now: now, Kinds: o.Kinds, Names: table})
	if err != nil {
		return nil, invalidError{err} // the options given: an unknown kind
	}
	plan := recall.Plan{
		Query: *q, K: o.K, Budget: o.Budget, Explain: o.Explain, Floor: o.Floor,
		Ranker: o.Ranker, Candidates: o.Candidates,
	}
	// Since and Until are hard limits; a time the text speaks of only
	// ranks what falls in it higher.
	plan.Filter.Since, plan.Filter.Until = o.Since, o.Until
	if !o.Since.IsZero() && !o.Until.IsZero() && memory.Day(o.Since).After(memory.Day(o.Until)) {
		return nil, invalidError{fmt.Errorf("the time window is empty: since %s is after until %s", o.Since.Format(time.DateOnly), o.Until.Format(time.DateOnly))}
	}
	for _, e := range o.Entities {
		slug, err := w.resolveEntity(ctx, table, e)
		if errors.Is(err, ErrUnknownEntity) || errors.Is(err, ErrAmbiguousEntity) {
			return nil, invalidError{err}
		}
		if err != nil {
			return nil, err
		}
		plan.Filter.Entities = append(plan.Filter.Entities, slug)
	}
	if !o.Lexical && strings.TrimSpace(text) != "" {
		if plan.Vector, err = w.queryVector(ctx, text); err != nil {
			return nil, err
		}
		if plan.Vector != nil {
			if plan.Model, err = w.ix.VectorModel(ctx); err != nil {
				return nil, err
			}
		}
	}
	var ix recall.Index = w.ix
	if s, ok := w.ix.(sharedIndex); ok && o.Corpus != nil && o.Corpus.scope != nil {
		ix = corpusIndex{s, o.Corpus.scope}
	}
	return recall.Run(ctx, ix, plan)
}

// ParseNow reads a "now" (YYYY-MM-DD or YYYY-MM-DDTHH:MM).
func ParseNow(s string) (time.Time, error) { return datephrase.ParseNow(s) }

// ParseDay reads the day of a daily log, YYYY-MM-DD, from 1900-01-01 to
// 9999-12-31. The error wraps ErrInvalid. (A zero day means "today" to
// RetainOptions, so "0001-01-01" must not slip through as one.)
func ParseDay(s string) (time.Time, error) {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil || d.Year() < 1900 {
		return time.Time{}, invalidError{fmt.Errorf("day %q: want YYYY-MM-DD, from 1900-01-01 on", s)}
	}
	return d, nil
}

// ParseTimeBound reads the lower bound of a time window as people write
// it, relative to now: a span back (30d, 2w, 6m, 1y, 12h), a date
// (2025-11-03), a date and time, today, yesterday, or a period in words
// (last week, this month, Nov 2025: its first day). "" is no bound (the
// zero time). The error wraps ErrInvalid.
func ParseTimeBound(s string, now time.Time) (time.Time, error) {
	if strings.TrimSpace(s) == "" {
		return time.Time{}, nil
	}
	t, err := datephrase.ParseBound(s, now)
	if err != nil {
		return time.Time{}, invalidError{err}
	}
	return t, nil
}

// ParseUntilBound reads the upper bound of a time window: the forms of
// ParseTimeBound, except that a period in words counts to its last day
// ("last week" until its Sunday).
func ParseUntilBound(s string, now time.Time) (time.Time, error) {
	if strings.TrimSpace(s) == "" {
		return time.Time{}, nil
	}
	t, err := datephrase.ParseUntil(s, now)
	if err != nil {
		return time.Time{}, invalidError{err}
	}
	return t, nil
}

// Lines is text read back from a workspace file with its citation.
type Lines = workspace.Lines

// Get reads the lines a citation points at ("memory/2025-11-27.md#L12-L15"),
// straight from the Markdown. A citation without lines reads the whole file.
func (w *Workspace) Get(ref string) (Lines, error) {
	return workspace.ReadLines(w.dir, ref)
}
