package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"memoria/memory"
)

// DB is the database the workspace's index is in.
func (ix *Index) DB() *DB { return ix.db }

// TeamHit is a full-text match of TeamSearch: the workspace of the item
// and its rank on the scale of all the workspaces searched.
type TeamHit struct {
	Workspace int64 // the workspace's id (Index.ID)
	Score     float64
}

// TeamSearch ranks the items of several workspaces of this database for
// words in one statement, on one scale: each word weighs by its rarity in
// all of them together (bm25's inverse document frequency from the sum
// of each workspace's counts, which each Index keeps), and the rank is
// Search's (ts_rank of each word times that weight). It returns the best
// limit matches, best first (ties in the order of ixs), and the
// workspace of each; the items themselves are not read.
//
// The words are chosen as recall chooses a workspace's terms (planWords),
// with the counts of all the workspaces: every match of them is ranked
// when they stay within memory.MaxScoredRows; when the rarest word alone
// matches more, each workspace's newest matches get an equal share of
// it, so that which workspace was written or rebuilt last does not
// decide what is ranked.
func (db *DB) TeamSearch(ctx context.Context, ixs []*Index, words []string, limit int) ([]TeamHit, error) {
	if limit <= 0 || len(ixs) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(ixs))
	for i, ix := range ixs {
		if ix.db != db {
			return nil, fmt.Errorf("team search: workspace %s is in another database", ix.name)
		}
		ids[i] = ix.id
	}
	words = slices.DeleteFunc(slices.Clone(words), func(w string) bool { return strings.TrimSpace(w) == "" })
	slices.Sort(words)
	words = slices.Compact(words)
	if len(words) == 0 {
		return nil, nil
	}
	var hits []TeamHit
	err := db.read(ctx, ids, func(q querier) error {
		hits = hits[:0]
		lexemes, err := db.lexemes(ctx, q, words)
		if err != nil {
			return err
		}
		var all []string
		for _, ls := range lexemes {
			all = append(all, ls...)
		}
		counts, totals, err := db.teamCounts(ctx, q, ixs, all)
		if err != nil {
			return err
		}
		sum, total := map[string]int{}, 0
		for k := range ixs {
			total += totals[k]
			for l, n := range counts[k] {
				sum[l] += n
			}
		}
		chosen := planWords(lexemes, sum, total)
		if len(chosen) == 0 {
			return nil
		}
		var a args
		var match, rank []string
		scan := 0
		for _, c := range chosen {
			tq := "phraseto_tsquery('memoria', memoria_words(" + a.add(words[c.word]) + "))"
			match = append(match, tq)
			rank = append(rank, fmt.Sprintf("CASE WHEN m.tsv @@ %[3]s THEN %[1]g * ts_rank(%[2]s, m.tsv, %[3]s, %[4]d) ELSE 0 END", idf(c.rows, total), rankWeights, tq, rankNormalization))
			scan += c.rows
		}
		cond := strings.Join(match, " || ")
		// Every match when they fit the budget: the GIN index of each
		// workspace's partition finds them. Otherwise each workspace's
		// newest, in a subquery of its own, which the planner plans with
		// that partition's statistics: its primary key read backwards
		// until its share is found when the words are common there, its
		// GIN index when they are rare (one subquery taking the workspace
		// as a parameter read every partition's key backwards: 0.3 s for
		// a word in 1% of a million items). Only ids and full-text
		// vectors are carried to the ranking.
		var m string
		if scan <= memory.MaxScoredRows {
			m = fmt.Sprintf(`SELECT i.ws, i.id, i.tsv FROM memoria_items i WHERE i.ws = ANY(%s::bigint[]) AND i.tsv @@ (%s)`, a.add(ids), cond)
		} else {
			share := (memory.MaxScoredRows + len(ids) - 1) / len(ids)
			each := make([]string, len(ids))
			for i, id := range ids {
				each[i] = fmt.Sprintf(`(SELECT i.ws, i.id, i.tsv FROM memoria_items i WHERE i.ws = %d AND i.tsv @@ (%s) ORDER BY i.id DESC LIMIT %d)`, id, cond, share)
			}
			m = strings.Join(each, "\n\t\t\tUNION ALL ")
		}
		order := make([]string, len(ids))
		for i, id := range ids {
			order[i] = fmt.Sprintf("WHEN %d THEN %d", id, i)
		}
		sql := fmt.Sprintf(`WITH m AS MATERIALIZED (%s)
			SELECT m.ws, %s AS score FROM m ORDER BY score DESC, CASE m.ws %s END, m.id DESC LIMIT %s`,
			m, strings.Join(rank, " + "), strings.Join(order, " "), a.add(limit))
		rows, err := q.Query(ctx, sql, append(args{pgx.QueryExecModeExec}, a...)...)
		if err != nil {
			return err
		}
		hits, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (TeamHit, error) {
			var h TeamHit
			return h, r.Scan(&h.Workspace, &h.Score)
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("team search in %s: %w", db.url, err)
	}
	return hits, nil
}

// plannedWord is a word a workspace's search would use: its index among
// the words, and the items of the workspace that hold it.
type plannedWord struct{ word, rows int }

// planWords chooses the words a workspace's search uses, as recall
// chooses its terms (recall.planTerms, but for the rule on function
// words): those in at most half of its total items, rarest first, while
// the rows they match stay within memory.MaxScoredRows (the rarest
// always); only the rarest of the others when none is. A word's rows are
// those of its rarest term (a phrase matches no more items than that).
func planWords(lexemes [][]string, counts map[string]int, total int) []plannedWord {
	var useful, common []plannedWord
	for i, ls := range lexemes {
		if len(ls) == 0 {
			continue // punctuation only
		}
		n := counts[ls[0]]
		for _, l := range ls[1:] {
			n = min(n, counts[l])
		}
		switch {
		case n > 0 && 2*n <= total:
			useful = append(useful, plannedWord{i, n})
		case n > 0:
			common = append(common, plannedWord{i, n})
		}
	}
	byRows := func(a, b plannedWord) int { return cmp.Compare(a.rows, b.rows) }
	slices.SortStableFunc(useful, byRows)
	slices.SortStableFunc(common, byRows)
	if len(useful) == 0 && len(common) > 0 {
		useful = common[:1]
	}
	var chosen []plannedWord
	scan := 0
	for _, w := range useful {
		if len(chosen) > 0 && scan+w.rows > memory.MaxScoredRows {
			break
		}
		scan += w.rows
		chosen = append(chosen, w)
	}
	return chosen
}

// teamCounts returns, for each workspace, how many of its items contain
// each lexeme, and how many items it holds. Each workspace's own counts
// are used where its Index keeps them (termStats keeps them while the
// workspace's size stays within termDrift); the others are counted in one
// statement per lexeme for all the workspaces that lack it, and kept in
// their Index for its own searches too.
func (db *DB) teamCounts(ctx context.Context, q querier, ixs []*Index, lexemes []string) ([]map[string]int, []int, error) {
	ids := make([]int64, len(ixs))
	for i, ix := range ixs {
		ids[i] = ix.id
	}
	type state struct{ gen, items int64 }
	rows, err := q.Query(ctx, `SELECT id, generation, items FROM memoria_workspaces WHERE id = ANY($1)`, ids)
	if err != nil {
		return nil, nil, err
	}
	now := map[int64]state{}
	for rows.Next() {
		var id int64
		var s state
		if err := rows.Scan(&id, &s.gen, &s.items); err != nil {
			rows.Close()
			return nil, nil, err
		}
		now[id] = s
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	counts := make([]map[string]int, len(ixs))
	totals := make([]int, len(ixs))
	missing := map[string][]int{} // lexeme → the workspaces (indexes of ixs) without its count
	for k, ix := range ixs {
		s, ok := now[ix.id]
		if !ok {
			return nil, nil, errors.New("workspace " + ix.name + " is no longer in the database")
		}
		counts[k] = map[string]int{}
		ix.mu.Lock()
		c := &ix.cache
		if s.gen != c.generation {
			c.advance(s.gen, int(s.items))
		}
		if c.terms == nil || len(c.terms) > maxCachedTerms {
			c.terms, c.termsAt = map[string]int{}, c.items
		}
		totals[k] = c.items
		for _, l := range lexemes {
			if n, ok := c.terms[l]; ok {
				counts[k][l] = n
			} else if !slices.Contains(missing[l], k) {
				missing[l] = append(missing[l], k)
			}
		}
		ix.mu.Unlock()
	}
	for _, l := range slices.Sorted(maps.Keys(missing)) {
		of := missing[l]
		want := make([]int64, len(of))
		for i, k := range of {
			want[i] = ixs[k].id
		}
		rows, err := q.Query(ctx, `SELECT ws, count(*) FROM memoria_items WHERE ws = ANY($1) AND tsv @@ quote_literal($2)::tsquery GROUP BY ws`, want, l)
		if err != nil {
			return nil, nil, err
		}
		found := map[int64]int{}
		for rows.Next() {
			var ws int64
			var n int
			if err := rows.Scan(&ws, &n); err != nil {
				rows.Close()
				return nil, nil, err
			}
			found[ws] = n
		}
		if err := rows.Err(); err != nil {
			return nil, nil, err
		}
		for _, k := range of {
			ix := ixs[k]
			n := found[ix.id]
			counts[k][l] = n
			ix.mu.Lock()
			if ix.cache.generation == now[ix.id].gen && ix.cache.terms != nil {
				ix.cache.terms[l] = n
			}
			ix.mu.Unlock()
		}
	}
	return counts, totals, nil
}
