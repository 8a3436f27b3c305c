package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"memoria/ingest"
	"memoria/memory"
)

// rankWeights are ts_rank_cd's weights of the labels {D, C, B, A}: a
// row's context (its neighbours), the heading above it, the entities it
// names, and its own text, as the SQLite index weighs its columns in bm25.
const rankWeights = `'{0.3, 0.25, 0.5, 1.0}'`

// bm25's parameters, FTS5's: k1 is how soon more occurrences of a term in
// a row stop adding to its rank, b how much the row's length against the
// workspace's average discounts it.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

const itemColumns = `i.id, i.kind, coalesce(i.fact_id, ''), i.confidence, f.path, i.start_line, i.end_line, f.day, i.day, i.event_end, i.section, i.entities, i.content, i.status`

// args collects a statement's parameters and names them $1, $2…
type args []any

func (a *args) add(v any) string {
	*a = append(*a, v)
	return fmt.Sprintf("$%d", len(*a))
}

// where renders the filter as conditions on items i of the workspace,
// whose id is the statement's first parameter, through uncorrelated
// subqueries, which PostgreSQL runs once: a correlated "ws = i.ws" made
// the entity condition a subquery per row (half a second), and a join
// with the files, which row-level security keeps the planner from
// estimating, a full-text scan per file. The entity's items are a list
// of ids (= ANY of an array), which the items' key finds: as a semi-join
// (IN) the planner, which row-level security keeps from telling how many
// there are, read every item of the workspace under a date filter (25 ms
// instead of 3). A statement with this condition reads the items' files
// by their keys (fileByKey): joined, the planner compared every file of
// the workspace with every item (TestPlansReadByKey).
func where(a *args, f memory.Filter) string {
	var conds []string
	if !f.Since.IsZero() || !f.Until.IsZero() {
		lo, hi := "0000-00-00", "9999-99-99"
		if !f.Since.IsZero() {
			lo = f.Since.Format(ingest.DateLayout)
		}
		if !f.Until.IsZero() {
			hi = f.Until.Format(ingest.DateLayout)
		}
		l, h := a.add(lo), a.add(hi)
		conds = append(conds, fmt.Sprintf(`(i.file_id = ANY(ARRAY(SELECT id FROM memoria_files WHERE ws = $1 AND day != '' AND day BETWEEN %s AND %s)) OR (i.event_end != '' AND i.day <= %s AND i.event_end >= %s))`, l, h, h, l))
	}
	if len(f.Kinds) > 0 {
		kinds := make([]string, len(f.Kinds))
		for i, k := range f.Kinds {
			kinds[i] = string(k)
		}
		conds = append(conds, "i.kind = ANY("+a.add(kinds)+"::text[])")
	}
	if len(f.Entities) > 0 {
		keys := make([]string, len(f.Entities))
		for i, e := range f.Entities {
			keys[i] = strings.ToLower(e)
		}
		conds = append(conds, "i.id = ANY("+entityItemIDs(a.add(keys))+")")
	}
	if len(conds) == 0 {
		return ""
	}
	return " AND " + strings.Join(conds, " AND ")
}

// Search finds the items that contain any of the terms (each a word or a
// phrase; never query syntax) and returns the best limit among the newest
// f.ScoredRows() matches the filter admits. The rank is bm25, as
// FTS5 ranks the SQLite index, made of what PostgreSQL computes: for each
// term, its rarity in the workspace (idf, from the counts TermStats keeps)
// times its frequency in the row, saturated by k1 the sooner the shorter
// the row is against the workspace's average (the items' stored lengths in
// tokens). The frequency is ts_rank_cd without normalization: for one word
// or phrase, the sum over its occurrences of their columns' weights, as
// bm25 weighs FTS5's columns. ts_rank, used before, differs from it in
// kind, and ranked other rows first (docs/team.md): its frequency stops
// near 1.64 occurrences whatever the row's length, its normalization (1 +
// the logarithm of the length) knows no average and let long rows rise,
// and its weights scaled the rank after the saturation rather than before.
func (ix *Index) Search(ctx context.Context, terms []string, f memory.Filter, limit int) ([]memory.Hit, error) {
	return ix.SearchWithin(ctx, nil, terms, f, limit)
}

// SearchWithin is Search with the terms weighed, and the rows' lengths
// compared, as among all the items of the scope's workspaces rather than
// this workspace's own (Scope), so that its scores compare with those of
// the scope's other workspaces. The rows found, and the terms searched
// for, are the same; only their order and scores may differ. A nil scope,
// or one without this workspace, is Search.
func (ix *Index) SearchWithin(ctx context.Context, s *Scope, terms []string, f memory.Filter, limit int) ([]memory.Hit, error) {
	if limit <= 0 {
		return nil, nil
	}
	terms = slices.DeleteFunc(slices.Clone(terms), func(t string) bool { return strings.TrimSpace(t) == "" })
	if len(terms) == 0 {
		return nil, nil
	}
	var scoped []memory.TermStat
	var scopeTotal, scopeTokens int
	if s.covers(ix) {
		// Before this workspace's transaction: the scope's counts take a
		// connection of their own.
		var err error
		if scoped, scopeTotal, scopeTokens, err = s.termStats(ctx, terms); err != nil {
			return nil, ix.errorf(err)
		}
	}
	var hits []memory.Hit
	err := ix.read(ctx, func(tx querier) error {
		hits = hits[:0]
		own, total, tokens, err := ix.termStats(ctx, tx, terms, true)
		if err != nil {
			return err
		}
		stats := own
		if scoped != nil {
			stats, total, tokens = scoped, scopeTotal, scopeTokens
		}
		// bm25's saturation of a row of n tokens: k1 × (1 − b + b × n /
		// the average length), as k + perToken × n. Rows written before
		// lengths were kept have none: all then count as of the average.
		// Every constant is a float8: a bare literal is a numeric, and
		// numeric arithmetic on each row took a fifth of the search.
		k, perToken := bm25K1, 0.0
		if tokens > 0 && total > 0 {
			k, perToken = bm25K1*(1-bm25B), bm25K1*bm25B*float64(total)/float64(tokens)
		}
		sat := fmt.Sprintf("(%s + %s * i.tokens)", float8(k), float8(perToken))
		a := args{ix.id}
		var match, rank []string
		matches := 0 // at least the rows any term matches: the sum of its rarest word's
		for i, t := range terms {
			if stats[i].Stem == "" {
				continue // punctuation only
			}
			matches += own[i].Rows
			q := "phraseto_tsquery('memoria', memoria_words(" + a.add(t) + "))"
			match = append(match, q)
			// idf × f × (k1 + 1) / (f + sat), written idf × (k1 + 1) × (1 −
			// sat / (f + sat)) so that the row's f, ts_rank_cd, is computed
			// once. ts_rank_cd reads the row's positions; @@ only finds the
			// term, and is cheaper for the rows without it.
			rank = append(rank, fmt.Sprintf("CASE WHEN i.tsv @@ %[3]s THEN %[1]s * (1 - %[4]s / (ts_rank_cd(%[2]s, i.tsv, %[3]s, 0) + %[4]s)) ELSE 0 END",
				float8(idf(stats[i].Rows, total)*(bm25K1+1)), rankWeights, q, sat))
		}
		if len(match) == 0 {
			return nil
		}
		cond := where(&a, f)
		// The newest matches' scores (s); the best of them (t, with every
		// row tied with the last, which the order by file and line then
		// decides among); their items and files last. A join with the
		// files before the limit ran the full-text scan once per file,
		// and carrying whole items through the ranking cost a third of
		// the search. Where the terms' counts say the matches may be more
		// than a search scores, the newest are found first (m: ids,
		// full-text vectors and lengths only), then ranked. Where they
		// say not, every match is ranked as the scan finds it (every), and
		// only ids and scores are sorted to keep the newest, which costs
		// a third less than sorting and copying their vectors first; the
		// counts may lag the workspace a little (memory.KeepTermCounts),
		// so the newest are kept all the same, and the answer never
		// depends on them, only its cost.
		scored := fmt.Sprintf(`every AS MATERIALIZED (SELECT i.id, %s AS score FROM memoria_items i WHERE i.ws = $1 AND i.tsv @@ (%s)%s),
			s AS (SELECT id, score FROM (SELECT id, score, row_number() OVER (ORDER BY id DESC) AS n FROM every) r WHERE n <= %d)`,
			strings.Join(rank, " + "), strings.Join(match, " || "), cond, f.ScoredRows())
		if matches > f.ScoredRows() {
			scored = fmt.Sprintf(`m AS MATERIALIZED (SELECT i.id, i.tsv, i.tokens
				FROM memoria_items i WHERE i.ws = $1 AND i.tsv @@ (%s)%s ORDER BY i.id DESC LIMIT %d),
			s AS (SELECT i.id, %s AS score FROM m i)`, strings.Join(match, " || "), cond, f.ScoredRows(), strings.Join(rank, " + "))
		}
		// The best rows' items are read by their ids as a list (= ANY of
		// an array, one index scan) and each one's file by its key
		// (fileByKey), never by joins whose order the planner chooses:
		// under row-level security it cannot tell how many of a
		// workspace's rows it will see, and with two workspaces in the
		// database it read every item of the workspace and compared each
		// with the best hundred (190 ms a search instead of 12), with
		// fifty every file with every best item (16 ms instead of 3;
		// TestPlansReadByKey).
		lim := a.add(limit)
		sql := fmt.Sprintf(`WITH %s,
			t AS MATERIALIZED (SELECT id, score FROM s ORDER BY score DESC FETCH FIRST %s ROWS WITH TIES)
			SELECT %s, t.score FROM t JOIN memoria_items i ON i.ws = $1 AND i.id = t.id %s
			WHERE i.id = ANY(ARRAY(SELECT id FROM t))
			ORDER BY t.score DESC, f.path, i.start_line LIMIT %s`, scored, lim, itemColumns, fileByKey, lim)
		// Its text holds the terms' weights: a statement of its own,
		// sent with its values in one round trip (pgx's default prepares
		// each new text first, a round trip more, and fills its cache of
		// prepared statements with ones never used again).
		a = append(args{pgx.QueryExecModeExec}, a...)
		ix.trace(sql, a)
		hits, err = collect(ctx, tx, sql, a, func(rows pgx.Rows, h *memory.Hit) error { return scanItem(rows, &h.Item, &h.Score) })
		return err
	})
	return hits, err
}

// lexemes cuts each word into its terms with the text search
// configuration, as the rows were cut. What the server answered is kept:
// the terms of a word never change while the configuration does not.
func (db *DB) lexemes(ctx context.Context, q querier, words []string) ([][]string, error) {
	out := make([][]string, len(words))
	var todo []string
	db.lexMu.Lock()
	for i, w := range words {
		if ts, ok := db.lexCache[w]; ok {
			out[i] = ts
		} else if !slices.Contains(todo, w) {
			todo = append(todo, w)
		}
	}
	db.lexMu.Unlock()
	if len(todo) == 0 {
		return out, nil
	}
	rows, err := q.Query(ctx, `SELECT array(SELECT lexeme FROM unnest(to_tsvector('memoria', memoria_words(w))) ORDER BY positions[1])
		FROM unnest($1::text[]) WITH ORDINALITY AS u(w, n) ORDER BY n`, todo)
	if err != nil {
		return nil, err
	}
	found, err := pgx.CollectRows(rows, pgx.RowTo[[]string])
	if err != nil {
		return nil, err
	}
	db.lexMu.Lock()
	defer db.lexMu.Unlock()
	if db.lexCache == nil || len(db.lexCache)+len(todo) > maxCachedTerms {
		db.lexCache = map[string][]string{}
	}
	for i, w := range todo {
		db.lexCache[w] = found[i]
	}
	for i, w := range words {
		out[i] = db.lexCache[w]
	}
	return out, nil
}

// knownLexemes returns the words' terms if lexemes has cut them all
// already.
func (db *DB) knownLexemes(words []string) ([][]string, bool) {
	db.lexMu.Lock()
	defer db.lexMu.Unlock()
	out := make([][]string, len(words))
	for i, w := range words {
		ts, ok := db.lexCache[w]
		if !ok {
			return nil, false
		}
		out[i] = ts
	}
	return out, true
}

// maxCachedTerms bounds the words whose terms a database keeps
// (lexemes), and a workspace's cached term counts; past it, each starts
// again.
const maxCachedTerms = 20000

// float8 writes a float as a float8 constant of SQL.
func float8(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) + "::float8" }

// idf is the weight of a term in n of total items: bm25's inverse
// document frequency as FTS5 computes it, at least 1e-6, so that a word
// in half the items or more weighs next to nothing (the variant used
// before, log(1 + …), gave such words a weight of their own: with
// FTS5's, rankings agree with the SQLite index's, docs/team.md).
func idf(n, total int) float64 {
	return max(1e-6, math.Log((float64(total-n)+0.5)/(float64(n)+0.5)))
}

// scanItem reads itemColumns (and extra columns) into it.
func scanItem(rows pgx.Rows, it *memory.Item, extra ...any) error {
	var kind, written, evStart, evEnd, ents, status string
	var conf *float64
	dst := append([]any{&it.RowID, &kind, &it.FactID, &conf, &it.Source.Path, &it.Source.Start, &it.Source.End,
		&written, &evStart, &evEnd, &it.Section, &ents, &it.Content, &status}, extra...)
	if err := rows.Scan(dst...); err != nil {
		return err
	}
	it.Kind, it.Status = memory.Kind(kind), memory.EntryStatus(status)
	it.Confidence = conf
	ingest.FillStored(it, written, evStart, evEnd, ents)
	return nil
}

// collect runs a query and reads each of its rows with scan.
func collect[T any](ctx context.Context, tx querier, sql string, a args, scan func(pgx.Rows, *T) error) ([]T, error) {
	rows, err := tx.Query(ctx, sql, a...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := scan(rows, &v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// items runs a query of itemColumns and collects them.
func (ix *Index) items(ctx context.Context, sql string, a args) (out []memory.Item, err error) {
	err = ix.read(ctx, func(tx querier) error {
		out, err = collect(ctx, tx, sql, a, func(rows pgx.Rows, it *memory.Item) error { return scanItem(rows, it) })
		return err
	})
	return out, err
}

// Items lists items matching a filter without full-text search, ordered by
// day (newest first when newest is set), then file and line.
func (ix *Index) Items(ctx context.Context, f memory.Filter, newest bool, limit int) ([]memory.Item, error) {
	if limit <= 0 {
		return nil, nil
	}
	a := args{ix.id}
	cond := where(&a, f)
	order := "ASC"
	if newest {
		order = "DESC"
	}
	files := `JOIN memoria_files f ON f.ws = i.ws AND f.id = i.file_id`
	if len(f.Entities) > 0 {
		files = fileByKey // an entity's items: few, found by key (where)
	}
	sql := fmt.Sprintf(`SELECT %s FROM memoria_items i %s
		WHERE i.ws = $1%s ORDER BY i.day %s, f.path, i.start_line LIMIT %s`, itemColumns, files, cond, order, a.add(limit))
	ix.trace(sql, a)
	return ix.items(ctx, sql, a)
}

// Nearby returns, for each of the items by its row id, the passages in
// the same file and section that lie within n lines of it, in line
// order, for all of them in one statement (one round trip, where recall
// widened each result with one of its own).
func (ix *Index) Nearby(ctx context.Context, items []memory.Item, n int) (map[int64][]memory.Item, error) {
	if len(items) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(items))
	starts := make([]int32, len(items))
	ends := make([]int32, len(items))
	for i, it := range items {
		ids[i], starts[i], ends[i] = it.RowID, int32(it.Source.Start), int32(it.Source.End)
	}
	a := args{ix.id, ids, starts, ends, n}
	sql := fmt.Sprintf(`SELECT %s, w.id FROM unnest($2::bigint[], $3::int[], $4::int[]) AS w(id, s, e)
		JOIN memoria_items t ON t.ws = $1 AND t.id = w.id
		JOIN memoria_items i ON i.ws = $1 AND i.file_id = t.file_id AND i.kind = 'passage' AND i.section = t.section AND i.id != w.id
			AND ((i.end_line < w.s AND i.end_line >= w.s - $5) OR (i.start_line > w.e AND i.start_line <= w.e + $5))
		%s
		ORDER BY w.id, i.start_line`, itemColumns, fileByKey)
	ix.trace(sql, a)
	type around struct {
		item memory.Item
		of   int64 // the row id of the item it is around
	}
	var found []around
	err := ix.read(ctx, func(tx querier) (err error) {
		found, err = collect(ctx, tx, sql, a, func(rows pgx.Rows, x *around) error { return scanItem(rows, &x.item, &x.of) })
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make(map[int64][]memory.Item, len(items))
	for _, it := range items {
		out[it.RowID] = nil // answered, if only with none
	}
	for _, x := range found {
		out[x.of] = append(out[x.of], x.item)
	}
	return out, nil
}

// TermStats cuts words into terms with the index's own text search
// configuration and counts the items that contain each. Counts are kept
// while the workspace's generation is unchanged.
func (ix *Index) TermStats(ctx context.Context, words []string) (stats []memory.TermStat, total int, err error) {
	err = ix.read(ctx, func(tx querier) error {
		stats, total, _, err = ix.termStats(ctx, tx, words, false)
		return err
	})
	return stats, total, err
}

// termStats is TermStats inside a transaction; it also returns the
// workspace's length in tokens (the items' lengths summed). With phrases,
// a word of several terms counts the items that hold it as a phrase
// (rarestTerms), as Search weighs it.
func (ix *Index) termStats(ctx context.Context, tx querier, words []string, phrases bool) ([]memory.TermStat, int, int, error) {
	tokens, err := ix.db.lexemes(ctx, tx, words)
	if err != nil {
		return nil, 0, 0, err
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	c, err := ix.current(ctx, tx)
	if err != nil {
		return nil, 0, 0, err
	}
	counts := c.termCounts()
	stats, err := rarestTerms(words, tokens, phrases, func(t string) (int, error) {
		n, ok := counts[t]
		if !ok {
			cond, arg := countCondition(t, "$2")
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM memoria_items WHERE ws = $1 AND `+cond, ix.id, arg).Scan(&n); err != nil {
				return 0, err
			}
			counts[t] = n
		}
		return n, nil
	})
	if err != nil {
		return nil, 0, 0, err
	}
	return stats, c.items, c.tokens, nil
}

// keepCount keeps a term's count that a scope counted for this workspace,
// as termStats would have. Counts taken before this index read its
// workspace's size are not kept: the first read starts them afresh.
func (ix *Index) keepCount(term string, n int) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if c := &ix.cache; c.generation != 0 {
		c.termCounts()[term] = n
	}
}

// termCounts returns the kept term counts, begun afresh at the
// workspace's size now if there are none or too many. The caller holds
// the index's mu.
func (c *cache) termCounts() map[string]int {
	if c.terms == nil || len(c.terms) > maxCachedTerms {
		c.terms, c.termsAt = map[string]int{}, c.items
	}
	return c.terms
}

// rarestTerms is, for each word, its rarest term (lex: the words' terms,
// as lexemes cuts them) and the items containing it, which count gives.
// With phrases, the items of a word of several terms (a phrase,
// "deploy.sh") are those that hold it as a phrase, which count gives for
// phraseKey and the word: bm25's idf of a phrase, as FTS5 computes it
// for the SQLite index, is that of the rows that match the phrase. The
// rarest term's rows, used before, weighed a phrase whose words are also
// apart in other rows lower than SQLite did, and ordered two phrases
// otherwise (TestPhrasesAsSQLite). Recall plans with the rarest term's
// rows (TermStats): they bound the phrase's, and cost no phrase search.
func rarestTerms(words []string, lex [][]string, phrases bool, count func(term string) (int, error)) ([]memory.TermStat, error) {
	stats := make([]memory.TermStat, len(words))
	for i, ts := range lex {
		stats[i] = memory.TermStat{Word: words[i]}
		for j, t := range ts {
			n, err := count(t)
			if err != nil {
				return nil, err
			}
			if j == 0 || n < stats[i].Rows {
				stats[i].Stem, stats[i].Rows = t, n
			}
		}
		if phrases && len(ts) > 0 && (len(ts) > 1 || len(strings.Fields(words[i])) > 1) {
			n, err := count(phraseKey + words[i])
			if err != nil {
				return nil, err
			}
			stats[i].Rows = n
		}
	}
	return stats, nil
}

// phraseKey begins the key under which term counts keep a phrase's (the
// words after it): no lexeme holds a NUL, which PostgreSQL's text never
// does.
const phraseKey = "\x00"

// countCondition is the condition on an item's tsv that a counted term
// (a lexeme, or phraseKey and a phrase) holds, with the term as parameter
// p, and the value to bind to p: a lexeme is itself, a phrase matches as
// Search matches it.
func countCondition(term, p string) (cond, arg string) {
	if words, ok := strings.CutPrefix(term, phraseKey); ok {
		return "tsv @@ phraseto_tsquery('memoria', memoria_words(" + p + "))", words
	}
	return "tsv @@ quote_literal(" + p + ")::tsquery", term
}

// entityItemIDs is an array of the ids of the workspace's items that
// name any of the entities whose keys are the parameter keys.
func entityItemIDs(keys string) string {
	return "ARRAY(SELECT item_id FROM memoria_item_entities WHERE ws = $1 AND slug_key = ANY(" + keys + "::text[]))"
}

// fileByKey gives each item i its file f, found by its key for each item
// (LATERAL … OFFSET 0, which the planner may not turn into a join), for
// statements whose items are few and found by key; a join is cheaper
// where many items are read, but under row-level security the planner
// cannot tell how many, and for a few it compared every file of the
// workspace with every item.
const fileByKey = `CROSS JOIN LATERAL (SELECT path, day FROM memoria_files f WHERE f.ws = i.ws AND f.id = i.file_id OFFSET 0) f`

// EntityItems lists what the index holds about entities: their pages'
// lines first, in page order, then the typed facts linked to them, newest
// first.
func (ix *Index) EntityItems(ctx context.Context, slugs []string, f memory.Filter, limit int) ([]memory.EntityItem, error) {
	if len(slugs) == 0 || limit <= 0 {
		return nil, nil
	}
	keys := make([]string, len(slugs))
	for i, s := range slugs {
		keys[i] = strings.ToLower(s)
	}
	a := args{ix.id, keys}
	cond := where(&a, f)
	sql := fmt.Sprintf(`WITH pages AS (SELECT DISTINCT file_id FROM memoria_entity_pages WHERE ws = $1 AND lower(slug) = ANY($2::text[]))
		SELECT %s, (i.file_id IN (SELECT file_id FROM pages)) AS on_page
		FROM memoria_items i %s
		WHERE i.ws = $1 AND i.id = ANY(%s)
		AND (i.file_id IN (SELECT file_id FROM pages) OR i.kind != 'passage')%s
		ORDER BY on_page DESC, CASE WHEN i.file_id IN (SELECT file_id FROM pages) THEN '' ELSE i.day END DESC, f.path, i.start_line
		LIMIT %s`, itemColumns, fileByKey, entityItemIDs("$2"), cond, a.add(limit))
	ix.trace(sql, a)
	var out []memory.EntityItem
	err := ix.read(ctx, func(tx querier) (err error) {
		out, err = collect(ctx, tx, sql, a, func(rows pgx.Rows, it *memory.EntityItem) error { return scanItem(rows, &it.Item, &it.OnPage) })
		return err
	})
	return out, err
}

// EntityNames lists every name an entity is known under: page slugs,
// names and aliases, then the slugs items mention. While the workspace is
// unchanged, calls return the same slice.
func (ix *Index) EntityNames(ctx context.Context) ([]memory.KnownName, error) {
	var out []memory.KnownName
	err := ix.read(ctx, func(tx querier) error {
		ix.mu.Lock()
		defer ix.mu.Unlock()
		c, err := ix.current(ctx, tx)
		if err != nil {
			return err
		}
		if c.names != nil {
			out = c.names
			return nil
		}
		// Bench/team's writes make the next recall read the names again,
		// which took 8% of the database's time under its load: each name's
		// file is looked up by its key (a join, which row-level security
		// keeps the planner from estimating, compared every name with every
		// file: 128,000 pairs, 15 ms, on 134 names and 960 files; OFFSET 0
		// keeps it from being made a join again), and the slugs items
		// mention are found by a walk of the primary key from one to the
		// next rather than by reading every link.
		rows, err := tx.Query(ctx, `WITH RECURSIVE k AS (
				(SELECT slug_key FROM memoria_item_entities WHERE ws = $1 ORDER BY slug_key LIMIT 1)
				UNION ALL
				SELECT (SELECT e.slug_key FROM memoria_item_entities e WHERE e.ws = $1 AND e.slug_key > k.slug_key ORDER BY e.slug_key LIMIT 1)
				FROM k WHERE k.slug_key IS NOT NULL)
			SELECT key, slug FROM (
			SELECT n.key, n.slug, 0 AS part, f.path, n.n FROM memoria_entity_names n
				CROSS JOIN LATERAL (SELECT path FROM memoria_files f WHERE f.ws = $1 AND f.id = n.file_id OFFSET 0) f WHERE n.ws = $1
			UNION ALL
			SELECT slug_key, slug_key, 1, '', 0 FROM k WHERE slug_key IS NOT NULL) u
			ORDER BY part, path, n, key`, ix.id)
		if err != nil {
			return err
		}
		defer rows.Close()
		names := []memory.KnownName{}
		seen := map[[2]string]bool{}
		for rows.Next() {
			var kv [2]string
			if err := rows.Scan(&kv[0], &kv[1]); err != nil {
				return err
			}
			if !seen[kv] {
				seen[kv] = true
				names = append(names, memory.KnownName{Key: memory.EntityKey(kv[0]), Slug: kv[1]})
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		c.names, out = names, names
		return nil
	})
	return out, err
}

// ResolveEntity maps a name, alias or slug (any case) to the entity's
// slug as written on its page, or as mentioned when it has no page.
func (ix *Index) ResolveEntity(ctx context.Context, name string) (slug string, ok bool, err error) {
	err = ix.read(ctx, func(tx querier) error {
		err := tx.QueryRow(ctx, `SELECT slug FROM memoria_entity_names WHERE ws = $1 AND key = $2 ORDER BY file_id, n LIMIT 1`, ix.id, memory.EntityKey(name)).Scan(&slug)
		if err == nil {
			ok = true
			return nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		var one int
		err = tx.QueryRow(ctx, `SELECT 1 FROM memoria_item_entities WHERE ws = $1 AND slug_key = $2 LIMIT 1`, ix.id, strings.ToLower(name)).Scan(&one)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		slug, ok = name, err == nil
		return err
	})
	return slug, ok, err
}

// EntityPageOf returns the page of the entity with this slug (any case).
func (ix *Index) EntityPageOf(ctx context.Context, slug string) (p memory.EntityPage, ok bool, err error) {
	err = ix.read(ctx, func(tx querier) error {
		var aliases string
		err := tx.QueryRow(ctx, `SELECT e.slug, e.name, e.aliases, f.path FROM memoria_entity_pages e JOIN memoria_files f ON f.ws = e.ws AND f.id = e.file_id
			WHERE e.ws = $1 AND lower(e.slug) = $2 ORDER BY f.path LIMIT 1`, ix.id, strings.ToLower(slug)).Scan(&p.Slug, &p.Name, &aliases, &p.Path)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		ok = true
		for _, a := range strings.Split(aliases, "\n") {
			if a = strings.TrimSpace(a); a != "" {
				p.Aliases = append(p.Aliases, a)
			}
		}
		return nil
	})
	return p, ok, err
}

// EntityList lists every entity mentioned in an item or with a page, most
// mentioned first (then by slug).
func (ix *Index) EntityList(ctx context.Context) ([]memory.EntitySummary, error) {
	var out []memory.EntitySummary
	err := ix.read(ctx, func(tx querier) error {
		rows, err := tx.Query(ctx, `
		WITH mentions AS (
			SELECT ie.slug_key AS key, count(*) AS n, max(i.day) AS last, min(ie.item_id) AS first
			FROM memoria_item_entities ie JOIN memoria_items i ON i.ws = ie.ws AND i.id = ie.item_id WHERE ie.ws = $1 GROUP BY ie.slug_key),
		pages AS (
			SELECT lower(p.slug) AS key, p.slug, p.name, f.path FROM memoria_entity_pages p JOIN memoria_files f ON f.ws = p.ws AND f.id = p.file_id WHERE p.ws = $1)
		SELECT m.key, coalesce(p.slug, ''), coalesce(p.name, ''), coalesce(p.path, ''), m.n, coalesce(m.last, ''),
			(SELECT entities FROM memoria_items WHERE ws = $1 AND id = m.first)
		FROM mentions m LEFT JOIN pages p ON p.key = m.key
		UNION ALL
		SELECT p.key, p.slug, p.name, p.path, 0, '', '' FROM pages p WHERE p.key NOT IN (SELECT key FROM mentions)
		ORDER BY 1, 4`, ix.id)
		if err != nil {
			return err
		}
		list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[memory.EntityRow])
		if err != nil {
			return err
		}
		out = memory.SummarizeEntities(list)
		return nil
	})
	return out, err
}

// trace tells the statements hook, if any, of a statement about to run.
func (ix *Index) trace(sql string, a args) {
	if ix.statements != nil {
		ix.statements(sql, a)
	}
}
