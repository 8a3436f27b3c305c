package eval

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode"

	"memoria/memory"

	_ "modernc.org/sqlite" // registers the "sqlite" driver (FTS5 included)
)

// DefaultMaxCached is how many workspace indexes a Baseline keeps built.
const DefaultMaxCached = 16

// Baseline is the lexical baseline of the data set's README: SQLite FTS5
// bm25 with the porter unicode61 tokenizer over a workspace's memory/*.md
// files cut into non-overlapping windows of Size lines (one line per row
// when Size is 1; blank windows are skipped), queried with the question as
// an OR of its terms (see MatchExpr), returning the top K windows.
//
// Each workspace's index is built in memory on first use and kept, up to
// MaxCached workspaces (least recently used first out). A Baseline is safe
// for concurrent use; Close releases the indexes.
type Baseline struct {
	// Size is the window height in lines; K is how many results to return.
	Size, K int
	// MaxCached bounds the number of built workspace indexes kept; 0 means
	// DefaultMaxCached.
	MaxCached int

	mu    sync.Mutex
	cache map[string]*wsIndex
	tick  int64
}

// wsIndex is one workspace's in-memory FTS5 table.
type wsIndex struct {
	ready   chan struct{} // closed once db/err are set
	db      *sql.DB
	err     error
	users   int
	lastUse int64
}

// NewBaseline returns a Baseline over windows of size lines returning k
// results.
func NewBaseline(size, k int) *Baseline {
	return &Baseline{Size: size, K: k}
}

// BaselineLines is the "one line per result" baseline: the top k lines.
func BaselineLines(k int) RecallFunc {
	return NewBaseline(1, k).Recall
}

// BaselineWindows is the "windows of size lines" baseline: the top k
// non-overlapping windows (lines 1–size, size+1–2·size, … of each file).
func BaselineWindows(size, k int) RecallFunc {
	return NewBaseline(size, k).Recall
}

// Recall returns the top K windows of q.Workspace for q.Question, best
// bm25 first (ties by file order). A question without terms yields none.
func (b *Baseline) Recall(ctx context.Context, q Query) ([]memory.Source, error) {
	if b.Size < 1 || b.K < 1 {
		return nil, fmt.Errorf("baseline: size %d and k %d must be positive", b.Size, b.K)
	}
	if q.Workspace == "" {
		return nil, fmt.Errorf("baseline: query %s has no workspace", q.ID)
	}
	expr := MatchExpr(q.Question)
	if expr == "" {
		return nil, nil
	}
	idx, err := b.acquire(ctx, q.Workspace)
	if err != nil {
		return nil, err
	}
	defer b.release(idx)
	rows, err := idx.db.QueryContext(ctx,
		`SELECT path, start, stop FROM doc WHERE doc MATCH ? ORDER BY bm25(doc), rowid LIMIT ?`, expr, b.K)
	if err != nil {
		return nil, fmt.Errorf("baseline: query %s: %w", q.ID, err)
	}
	defer rows.Close()
	var out []memory.Source
	for rows.Next() {
		var s memory.Source
		if err := rows.Scan(&s.Path, &s.Start, &s.End); err != nil {
			return nil, fmt.Errorf("baseline: query %s: scan: %w", q.ID, err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("baseline: query %s: %w", q.ID, err)
	}
	return out, nil
}

// Close closes every cached index. The Baseline may be used again after.
func (b *Baseline) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	var errs []error
	for ws, e := range b.cache {
		if e.users > 0 {
			continue // in use; released entries are evicted later
		}
		if e.db != nil {
			if err := e.db.Close(); err != nil {
				errs = append(errs, fmt.Errorf("baseline: close %s: %w", ws, err))
			}
		}
		delete(b.cache, ws)
	}
	return errors.Join(errs...)
}

// acquire returns the built index of workspace ws, building it if needed,
// and marks it in use until release.
func (b *Baseline) acquire(ctx context.Context, ws string) (*wsIndex, error) {
	b.mu.Lock()
	if b.cache == nil {
		b.cache = map[string]*wsIndex{}
	}
	e := b.cache[ws]
	build := e == nil
	if build {
		e = &wsIndex{ready: make(chan struct{})}
		b.cache[ws] = e
	}
	e.users++
	b.tick++
	e.lastUse = b.tick
	b.mu.Unlock()

	if build {
		e.db, e.err = buildIndex(ws, b.Size)
		close(e.ready)
	} else {
		select {
		case <-e.ready:
		case <-ctx.Done():
			b.release(e)
			return nil, fmt.Errorf("baseline: wait for index of %s: %w", ws, ctx.Err())
		}
	}
	if e.err != nil {
		err := e.err
		b.mu.Lock()
		if b.cache[ws] == e {
			delete(b.cache, ws) // let a later call retry
		}
		e.users--
		b.mu.Unlock()
		return nil, err
	}
	return e, nil
}

// release marks e no longer in use and evicts the least recently used idle
// indexes beyond MaxCached.
func (b *Baseline) release(e *wsIndex) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e.users--
	limit := b.MaxCached
	if limit <= 0 {
		limit = DefaultMaxCached
	}
	for len(b.cache) > limit {
		var oldWS string
		var old *wsIndex
		for ws, c := range b.cache {
			if c.users == 0 && (old == nil || c.lastUse < old.lastUse) {
				oldWS, old = ws, c
			}
		}
		if old == nil {
			return
		}
		delete(b.cache, oldWS)
		if old.db != nil {
			_ = old.db.Close() // in-memory database: nothing to lose
		}
	}
}

// buildIndex loads ws/memory/*.md into a new in-memory FTS5 table, one row
// per non-blank window of size lines.
func buildIndex(ws string, size int) (*sql.DB, error) {
	files, err := filepath.Glob(filepath.Join(ws, "memory", "*.md"))
	if err != nil {
		return nil, fmt.Errorf("baseline: list %s: %w", ws, err)
	}
	sort.Strings(files)
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, fmt.Errorf("baseline: open index for %s: %w", ws, err)
	}
	// Each connection to ":memory:" is its own database: keep exactly one.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if err := fillIndex(db, ws, files, size); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// fillIndex creates the doc table and inserts the windows of files.
func fillIndex(db *sql.DB, ws string, files []string, size int) error {
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `CREATE VIRTUAL TABLE doc USING fts5(
		body, path UNINDEXED, start UNINDEXED, stop UNINDEXED, tokenize='porter unicode61')`); err != nil {
		return fmt.Errorf("baseline: create index for %s: %w", ws, err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("baseline: index %s: %w", ws, err)
	}
	defer tx.Rollback() //nolint:errcheck // no-op after Commit
	ins, err := tx.PrepareContext(ctx, `INSERT INTO doc(body, path, start, stop) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("baseline: index %s: %w", ws, err)
	}
	defer ins.Close()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("baseline: index %s: %w", ws, err)
		}
		rel := "memory/" + filepath.Base(f)
		for _, w := range Windows(string(data), size) {
			if _, err := ins.ExecContext(ctx, w.Text, rel, w.Start, w.End); err != nil {
				return fmt.Errorf("baseline: index %s: %w", rel, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("baseline: index %s: commit: %w", ws, err)
	}
	return nil
}

// Window is a run of lines of one file: its text and 1-based inclusive
// line range.
type Window struct {
	Start, End int
	Text       string
}

// Windows cuts text into non-overlapping windows of size lines (lines
// 1..size, size+1..2·size, …; the last one may be shorter) and drops
// windows that are blank. A trailing newline does not start a new line.
func Windows(text string, size int) []Window {
	size = max(size, 1)
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	var out []Window
	for i := 0; i < len(lines); i += size {
		j := min(i+size, len(lines))
		body := strings.Join(lines[i:j], "\n")
		body = strings.ReplaceAll(body, "\r", "")
		if strings.TrimSpace(body) == "" {
			continue
		}
		out = append(out, Window{Start: i + 1, End: j, Text: body})
	}
	return out
}

// MatchExpr turns a question into an FTS5 query: its whitespace-separated
// terms, each double-quoted (inner quotes doubled) so that FTS5 syntax never
// breaks the query, joined with OR. Terms without a letter or digit are
// dropped. Punctuation inside a quoted term is left to the tokenizer, so
// "doctor's" becomes the phrase doctor+s and "March?" the term march.
// Repeated terms are kept, as bm25 weighs them again; an empty result means
// the question has no terms.
func MatchExpr(question string) string {
	var terms []string
	for _, f := range strings.Fields(question) {
		if !strings.ContainsFunc(f, isWordRune) {
			continue
		}
		terms = append(terms, `"`+strings.ReplaceAll(f, `"`, `""`)+`"`)
	}
	return strings.Join(terms, " OR ")
}

// isWordRune reports whether r is a letter or digit.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}
