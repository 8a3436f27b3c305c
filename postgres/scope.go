package postgres

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/jackc/pgx/v5"

	"memoria/memory"
)

// Scope is several workspaces of one database whose searches are
// compared, as a team-wide recall merges them: a search within a scope
// (SearchWithin) weighs each term by its rarity among all the scope's
// items, and their lengths by the scope's average, as if the workspaces
// were one index. bm25 computed with each workspace's own counts is not
// comparable across workspaces of very different sizes: a word on four
// of a small workspace's five lines weighs nothing there (FTS5's idf is
// at least 1e-6), and the line that answers lost to a larger
// workspace's weak match (docs/team.md). A scope's counts are summed by
// PostgreSQL over its workspaces only, in a transaction that may see
// them only: a caller who builds a scope of the workspaces it may read
// learns nothing of the others.
//
// A Scope is made for one team-wide recall: the first search takes the
// scope's size, and each term's count is looked up once, so that every
// workspace's results are weighed alike. The counts themselves are kept
// by the database across recalls, as a workspace's own are (cache.terms).
type Scope struct {
	db  *DB
	ids []int64  // sorted
	ixs []*Index // the same workspaces, in the same order

	mu            sync.Mutex
	sized         bool
	items, tokens int
	generations   int64          // the workspaces' generations summed
	terms         map[string]int // term → the scope's items containing it, as this scope saw them
	counts        *scopeCounts   // the database's counts for these workspaces
}

// scopeCounts are the counts of items containing each term among a set of
// workspaces, kept across their syncs as a workspace's own are (cache,
// memory.KeepTermCounts).
type scopeCounts struct {
	mu          sync.Mutex
	terms       map[string]int
	termsAt     int
	generations int64 // the workspaces' generations summed, when last checked: a sync of any moves it
}

// maxScopes bounds the sets of workspaces whose counts a database keeps (a
// team server has one per token, or per list of workspaces asked for);
// past it, all start again.
const maxScopes = 64

// NewScope returns the scope of these workspaces' indexes, nil unless
// there are at least two, all in one database: a workspace alone is
// weighed by its own counts, which a search does without a scope.
func NewScope(ixs []*Index) *Scope {
	var db *DB
	for _, ix := range ixs {
		if ix == nil || db != nil && ix.db != db {
			return nil
		}
		db = ix.db
	}
	ixs = slices.SortedFunc(slices.Values(ixs), func(a, b *Index) int { return cmp.Compare(a.id, b.id) })
	ixs = slices.CompactFunc(ixs, func(a, b *Index) bool { return a.id == b.id })
	if len(ixs) < 2 {
		return nil
	}
	ids := make([]int64, len(ixs))
	for i, ix := range ixs {
		ids[i] = ix.id
	}
	key := allowedList(ids)
	db.scopeMu.Lock()
	defer db.scopeMu.Unlock()
	c := db.scopes[key]
	if c == nil {
		if db.scopes == nil || len(db.scopes) >= maxScopes {
			db.scopes = map[string]*scopeCounts{}
		}
		c = &scopeCounts{}
		db.scopes[key] = c
	}
	return &Scope{db: db, ids: ids, ixs: ixs, counts: c}
}

// covers reports whether ix is one of the scope's workspaces.
func (s *Scope) covers(ix *Index) bool {
	if s == nil || s.db != ix.db {
		return false
	}
	_, ok := slices.BinarySearch(s.ids, ix.id)
	return ok
}

// termStats is Index.termStats over the whole scope: for each word its
// rarest term and the scope's items containing it, the scope's items and
// their length in tokens. What this scope has not seen yet is read in a
// transaction of its own, which may see the scope's workspaces only; a
// search calls it before it takes its own connection, never holding two
// at once.
func (s *Scope) termStats(ctx context.Context, words []string) (stats []memory.TermStat, total, tokens int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// Seen already (every workspace of a team-wide recall searches for
	// much the same words): no round trip.
	if lex, ok := s.db.knownLexemes(words); ok && s.sized {
		if stats, _ := s.stats(words, lex, nil); stats != nil {
			return stats, s.items, s.tokens, nil
		}
	}
	err = s.db.read(ctx, s.ids, func(q querier) error {
		lex, err := s.db.lexemes(ctx, q, words)
		if err != nil {
			return err
		}
		if !s.sized {
			if err := q.QueryRow(ctx, `SELECT coalesce(sum(items), 0), coalesce(sum(tokens), 0), coalesce(sum(generation), 0) FROM memoria_workspaces WHERE id = ANY($1)`, s.ids).Scan(&s.items, &s.tokens, &s.generations); err != nil {
				return err
			}
			s.sized, s.terms = true, map[string]int{}
		}
		c := s.counts
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.generations != s.generations {
			c.terms, c.termsAt = memory.KeepTermCounts(c.terms, c.termsAt, s.items)
			c.generations = s.generations
		}
		if c.terms == nil || len(c.terms) > maxCachedTerms {
			c.terms, c.termsAt = map[string]int{}, s.items
		}
		stats, err = s.stats(words, lex, func(t string) (int, error) {
			n, ok := c.terms[t]
			if !ok {
				var err error
				if n, err = s.count(ctx, q, t); err != nil {
					return 0, err
				}
				c.terms[t] = n
			}
			return n, nil
		})
		return err
	})
	return stats, s.items, s.tokens, err
}

// count returns the scope's items containing a term: the sum of each
// workspace's own count, which its index keeps for its own searches
// (cache.terms), counted in one statement for the workspaces that have
// none and then kept by their indexes too. Each workspace's recall plans
// its search from its own counts (TermStats) and then weighs the terms
// with the scope's: counting the scope as a whole counted each term's
// items twice (a new word of a team-wide recall of 50 workspaces of
// 21,000 items, about 40 ms each time).
func (s *Scope) count(ctx context.Context, q querier, term string) (int, error) {
	sum := 0
	var todo []*Index
	var ids []int64
	for _, ix := range s.ixs {
		ix.mu.Lock()
		n, ok := ix.cache.terms[term]
		ix.mu.Unlock()
		if ok {
			sum += n
		} else {
			todo, ids = append(todo, ix), append(ids, ix.id)
		}
	}
	if len(todo) == 0 {
		return sum, nil
	}
	// Row-level security admits the scope's workspaces only; the
	// condition on ws lets the planner read their partitions only.
	cond, arg := countCondition(term, "$2")
	rows, err := q.Query(ctx, `SELECT ws, count(*) FROM memoria_items WHERE ws = ANY($1) AND `+cond+` GROUP BY ws`, ids, arg)
	if err != nil {
		return 0, err
	}
	counted := map[int64]int{}
	var ws int64
	var n int
	if _, err := pgx.ForEachRow(rows, []any{&ws, &n}, func() error { counted[ws] = n; return nil }); err != nil {
		return 0, err
	}
	for _, ix := range todo {
		n := counted[ix.id] // none: no item has the term
		sum += n
		ix.keepCount(term, n)
	}
	return sum, nil
}

// stats is rarestTerms with the counts this scope saw, asking count for
// those it has not; with count nil, it returns nil if one is missing.
// The caller holds s.mu.
func (s *Scope) stats(words []string, lex [][]string, count func(term string) (int, error)) ([]memory.TermStat, error) {
	stats, err := rarestTerms(words, lex, true, func(t string) (int, error) {
		if n, ok := s.terms[t]; ok {
			return n, nil
		}
		if count == nil {
			return 0, errUnseen
		}
		n, err := count(t)
		if err == nil {
			s.terms[t] = n
		}
		return n, err
	})
	if errors.Is(err, errUnseen) {
		return nil, nil
	}
	return stats, err
}

// errUnseen is a term the scope has no count of yet (Scope.stats).
var errUnseen = errors.New("term not counted yet")
