package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"memoria"
	"memoria/embed"
	"memoria/eval"
	"memoria/memory"
	"memoria/recall"
)

// runEval scores recall on a JSONL set of queries with gold lines and
// prints R@5, R@10, MRR, NDCG@10 and lines cited per category.
func runEval(ctx context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("eval", e, &c)
	k := fs.Int("k", 10, "`N` results per query")
	baseline := fs.Bool("baseline", false, "also run the BM25 baseline over 3-line windows and compare")
	failures := fs.Int("failures", 0, "list up to `N` scored queries with no hit in the top 10")
	cache := fs.String("index-dir", "", "`DIR` where the per-workspace indexes go (default: the user cache folder); eval workspaces may be read-only")
	workers := fs.Int("workers", 2, "`N` queries run at once")
	semantic := fs.Bool("semantic", false, "embed each workspace (slow the first time: the vectors are kept in the index) and recall with the semantic channel; lexical-only otherwise")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("eval needs one queries file, e.g. ../shared/data/longmemeval100/queries.jsonl")
	}
	queries, err := eval.LoadQueries(pos[0])
	if err != nil {
		return err
	}
	if *cache == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		*cache = filepath.Join(base, "memoria", "eval")
	}
	// --index postgres://… (or $MEMORIA_INDEX_URL) keeps every workspace's
	// index in that database, each named after its path; an index file
	// cannot serve several workspaces.
	shared := c.index
	if shared == "" {
		shared = e.getenv("MEMORIA_INDEX_URL")
	}
	if shared != "" && !memoria.IsIndexURL(shared) {
		return usagef("eval keeps one index per workspace under --index-dir; --index takes a postgres:// URL only")
	}
	spaces := &evalWorkspaces{dir: *cache, url: shared, open: map[string]*evalWorkspace{}, warn: func(m string) {}}
	if *semantic {
		if spaces.model, err = memoria.DefaultEmbedder(); err != nil {
			return err
		}
	}
	defer spaces.close()
	recallFn := func(ctx context.Context, q eval.Query) ([]memory.Source, error) {
		ws, err := spaces.get(ctx, q.Workspace)
		if err != nil {
			return nil, err
		}
		return ws.recall(ctx, q, *k)
	}
	report, err := eval.Run(ctx, queries, recallFn, eval.RunOptions{Name: "memoria", Workers: *workers})
	if err != nil {
		return err
	}
	if c.json {
		return report.WriteJSON(e.stdout)
	}
	if err := report.WriteTable(e.stdout); err != nil {
		return err
	}
	if *baseline {
		b := eval.NewBaseline(3, *k)
		defer b.Close()
		base, err := eval.Run(ctx, queries, b.Recall, eval.RunOptions{Name: "bm25-3line", Workers: *workers})
		if err != nil {
			return err
		}
		fmt.Fprintln(e.stdout)
		if err := eval.WriteComparison(e.stdout, report, base); err != nil {
			return err
		}
	}
	if *failures > 0 {
		fmt.Fprintln(e.stdout, "\nmisses (no hit in the top 10):")
		for i, f := range report.Failures(10) {
			if i >= *failures {
				break
			}
			fmt.Fprintf(e.stdout, "  %s [%s] %q\n", f.ID, f.Category, f.Question)
		}
	}
	return nil
}

// evalWorkspaces opens each evaluation workspace once, with its index in a
// cache folder keyed by the workspace's path.
type evalWorkspaces struct {
	dir   string
	url   string // a shared database instead of index files in dir
	warn  func(string)
	mu    sync.Mutex
	open  map[string]*evalWorkspace
	model embed.Embedder // nil: lexical recall only
}

type evalWorkspace struct {
	once    sync.Once
	ws      *memoria.Workspace
	err     error
	mu      sync.Mutex // one recall at a time per workspace (one SQLite connection)
	lexical bool
}

func (s *evalWorkspaces) get(ctx context.Context, dir string) (*evalWorkspace, error) {
	s.mu.Lock()
	w, ok := s.open[dir]
	if !ok {
		w = &evalWorkspace{}
		s.open[dir] = w
	}
	s.mu.Unlock()
	w.once.Do(func() {
		abs, err := filepath.Abs(dir)
		if err != nil {
			w.err = err
			return
		}
		sum := sha256.Sum256([]byte(abs))
		name := filepath.Base(abs) + "-" + hex.EncodeToString(sum[:4])
		o := memoria.Options{IndexPath: filepath.Join(s.dir, name, "index.sqlite"), Warn: s.warn, Embedder: s.model}
		if s.url != "" {
			o.IndexPath, o.IndexName = s.url, name
		}
		w.ws, w.err = memoria.Open(ctx, abs, o)
		if w.err == nil && s.model != nil {
			_, w.err = w.ws.Embed(ctx, s.model, nil)
		}
		w.lexical = s.model == nil
	})
	return w, w.err
}

func (w *evalWorkspace) recall(ctx context.Context, q eval.Query, k int) ([]memory.Source, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	results, err := w.ws.Recall(ctx, q.Question, memoria.RecallOptions{K: k, Now: q.Now, Lexical: w.lexical})
	if err != nil {
		return nil, err
	}
	return recall.Cites(results), nil
}

func (s *evalWorkspaces) close() {
	for _, w := range s.open {
		if w.ws != nil {
			w.ws.Close()
		}
	}
}
