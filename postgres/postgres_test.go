package postgres_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"memoria/internal/pgtest"
	"memoria/internal/testworkspace"
	"memoria/memory"
	"memoria/postgres"
	"memoria/sqlite"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

func openDB(t *testing.T, url string) *postgres.DB {
	t.Helper()
	db, err := postgres.Open(context.Background(), url, postgres.Options{Warn: func(m string) { t.Log(m) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}

// inSQLite builds the workspace's SQLite index, to compare with.
func inSQLite(t *testing.T, ws string) *sqlite.Index {
	t.Helper()
	lite, err := sqlite.OpenAt(context.Background(), ws, filepath.Join(t.TempDir(), "index.sqlite"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lite.Close() })
	return lite
}

// exampleInPostgres copies the example workspace and builds it in a
// database of its own.
func exampleInPostgres(t *testing.T) (string, *postgres.Index) {
	t.Helper()
	ws := testworkspace.CopyExample(t)
	db := openDB(t, pgtest.NewAppDatabase(t))
	pg, err := db.Workspace(context.Background(), "example", ws, postgres.WorkspaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ws, pg
}

// TestSameAsSQLite builds the example workspace in both indexes and
// compares what does not depend on the ranking engine: what they hold,
// what each lists, and which items a word matches.
func TestSameAsSQLite(t *testing.T) {
	t.Parallel()
	ws, pg := exampleInPostgres(t)
	if pg.Rebuilt != "new" {
		t.Errorf("Rebuilt = %q, want new", pg.Rebuilt)
	}
	compareStores(t, inSQLite(t, ws), pg)
}

// compareStores checks that two stores of the same Markdown hold and
// list the same.
func compareStores(t *testing.T, want, got memory.Store) {
	t.Helper()
	ctx := context.Background()
	ws, err := want.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	gs, err := got.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ws.Files, gs.Files) || !reflect.DeepEqual(ws.Facts, gs.Facts) || ws.Passages != gs.Passages ||
		ws.Entities != gs.Entities || ws.EntityPages != gs.EntityPages || !ws.FirstDay.Equal(gs.FirstDay) || !ws.LastDay.Equal(gs.LastDay) ||
		ws.Texts != gs.Texts || gs.Pending != 0 {
		t.Errorf("status differs:\nsqlite   %+v\npostgres %+v", ws, gs)
	}
	wn, _ := want.EntityNames(ctx)
	gn, _ := got.EntityNames(ctx)
	if !reflect.DeepEqual(sortedNames(wn), sortedNames(gn)) {
		t.Errorf("entity names differ:\nsqlite   %v\npostgres %v", wn, gn)
	}
	wl, _ := want.EntityList(ctx)
	gl, _ := got.EntityList(ctx)
	if !reflect.DeepEqual(wl, gl) {
		t.Errorf("entity lists differ:\nsqlite   %v\npostgres %v", wl, gl)
	}
	for _, f := range []memory.Filter{{}, {Kinds: []memory.Kind{memory.KindOpinion}}, {Since: day("2025-11-20"), Until: day("2025-11-25")}} {
		for _, newest := range []bool{false, true} {
			wi, err := want.Items(ctx, f, newest, 500)
			if err != nil {
				t.Fatal(err)
			}
			gi, err := got.Items(ctx, f, newest, 500)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := citations(wi), citations(gi); !reflect.DeepEqual(a, b) {
				t.Errorf("Items(%+v, newest %v) differ:\nsqlite   %v\npostgres %v", f, newest, a, b)
			}
		}
	}
	for _, e := range wl {
		wi, _ := want.EntityItems(ctx, []string{e.Slug}, memory.Filter{}, 50)
		gi, _ := got.EntityItems(ctx, []string{e.Slug}, memory.Filter{}, 50)
		if !reflect.DeepEqual(entityCitations(wi), entityCitations(gi)) {
			t.Errorf("EntityItems(%s) differ:\nsqlite   %v\npostgres %v", e.Slug, entityCitations(wi), entityCitations(gi))
		}
		wp, wok, _ := want.EntityPageOf(ctx, e.Slug)
		gp, gok, _ := got.EntityPageOf(ctx, e.Slug)
		if wok != gok || !reflect.DeepEqual(wp, gp) {
			t.Errorf("EntityPageOf(%s): %v %+v, want %v %+v", e.Slug, gok, gp, wok, wp)
		}
		for _, name := range []string{e.Slug, strings.ToUpper(e.Name)} {
			ws, wok, _ := want.ResolveEntity(ctx, name)
			gs, gok, _ := got.ResolveEntity(ctx, name)
			if ws != gs || wok != gok {
				t.Errorf("ResolveEntity(%s) = %q %v, want %q %v", name, gs, gok, ws, wok)
			}
		}
	}
	// The passages around each passage, which recall widens results
	// with: the SQLite index answers for one passage a query, PostgreSQL
	// for all of them in one.
	passages := memory.Filter{Kinds: []memory.Kind{memory.KindPassage}}
	wp, err := want.Items(ctx, passages, false, 400)
	if err != nil {
		t.Fatal(err)
	}
	gp, err := got.Items(ctx, passages, false, 400)
	if err != nil {
		t.Fatal(err)
	}
	around, err := got.Nearby(ctx, gp, 3)
	if err != nil {
		t.Fatal(err)
	}
	bySource := map[string]memory.Item{}
	for _, it := range gp {
		bySource[it.Source.String()] = it
	}
	for _, w := range wp {
		g, ok := bySource[w.Source.String()]
		if !ok {
			t.Errorf("passage %s: not listed by postgres", w.Source)
			continue
		}
		wa, err := want.Nearby(ctx, []memory.Item{w}, 3)
		if err != nil {
			t.Fatal(err)
		}
		ga, ok := around[g.RowID]
		if !ok {
			t.Errorf("Nearby(%s): postgres did not answer for it", g.Source)
		}
		if a, b := citations(wa[w.RowID]), citations(ga); !reflect.DeepEqual(a, b) {
			t.Errorf("Nearby(%s) differ:\nsqlite   %v\npostgres %v", w.Source, a, b)
		}
	}
	// Matching, not ranking: the items a word is found in, punctuation
	// taken apart as unicode61 does (deploy.sh, warelay-prod). Not
	// "deploy": FTS5's Porter stems it "deploi" but "deployment" "deploy",
	// where PostgreSQL's Snowball stems both "deploy" and finds more.
	for _, w := range []string{"WhatsApp", "Lisbon", "castle", "coffee", "sh", "prod", "relayed"} {
		wh, err := want.Search(ctx, []string{w}, memory.Filter{}, 1000)
		if err != nil {
			t.Fatal(err)
		}
		gh, err := got.Search(ctx, []string{w}, memory.Filter{}, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := sortedCitations(wh), sortedCitations(gh); !reflect.DeepEqual(a, b) {
			t.Errorf("Search(%q) matches differ:\nsqlite   %v\npostgres %v", w, a, b)
		}
		// A bound on the matches scored (a query plan's smaller
		// candidate set) is kept by both: at most that many, all matches.
		for name, s := range map[string]memory.Store{"sqlite": want, "postgres": got} {
			all, err := s.Search(ctx, []string{w}, memory.Filter{}, 1000)
			if err != nil {
				t.Fatal(err)
			}
			some, err := s.Search(ctx, []string{w}, memory.Filter{Scored: 2}, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if len(some) != min(2, len(all)) || !isSubset(sortedCitations(some), sortedCitations(all)) {
				t.Errorf("%s: Search(%q) scoring 2 found %d of its %d matches, want 2 of them", name, w, len(some), len(all))
			}
		}
	}
}

// isSubset reports whether every element of a is in b.
func isSubset(a, b []string) bool {
	return !slices.ContainsFunc(a, func(x string) bool { return !slices.Contains(b, x) })
}

// TestRanksAsSQLite checks that Search ranks as the SQLite index's bm25
// does: the same items first, with the same scores, on words both
// indexes cut alike (not Porter's and Snowball's different stems).
func TestRanksAsSQLite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws, pg := exampleInPostgres(t)
	lite := inSQLite(t, ws)
	for _, q := range []struct {
		terms []string
		f     memory.Filter
	}{
		{[]string{"who", "is", "Mira"}, memory.Filter{}},
		{[]string{"WhatsApp", "replies", "short"}, memory.Filter{}},
		{[]string{"media", "upload", "failed"}, memory.Filter{}},
		{[]string{"token bucket", "outbox"}, memory.Filter{}},
		{[]string{"relay", "Hetzner"}, memory.Filter{Since: day("2025-10-01"), Until: day("2025-10-31")}},
		{[]string{"Lisbon", "castle", "coffee"}, memory.Filter{Kinds: []memory.Kind{memory.KindPassage}}},
	} {
		want, err := lite.Search(ctx, q.terms, q.f, 10)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pg.Search(ctx, q.terms, q.f, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 {
			t.Fatalf("Search(%q): SQLite finds nothing", q.terms)
		}
		// By item, not by place: rows whose scores tie to the last digits
		// may come in either order.
		score := map[string]float64{}
		for _, h := range got {
			score[h.Source.String()+" "+string(h.Kind)] = h.Score
		}
		for i, h := range want {
			g, ok := score[h.Source.String()+" "+string(h.Kind)]
			if !ok || math.Abs(g-h.Score) > 0.01*h.Score {
				t.Errorf("Search(%q) %d: %s %q scores %.4f in SQLite, %.4f (found %v) here", q.terms, i+1, h.Source, h.Content, h.Score, g, ok)
			}
		}
		if len(got) > len(want) {
			got = got[:len(want)]
		}
		if g, w := got[len(got)-1].Score, want[len(want)-1].Score; math.Abs(g-w) > 0.01*w {
			t.Errorf("Search(%q): the %dth score is %.4f here, %.4f in SQLite", q.terms, len(want), g, w)
		}
	}
}

// TestSearchNewestAsSQLite: where more rows match than a search scores
// (memory.MaxScoredRows), both indexes rank the newest of them only, and
// where fewer match, every one, with the same scores. The oldest days
// hold the densest lines, which come first if every match is ranked.
func TestSearchNewestAsSQLite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	first := day("2020-01-01")
	for d := range 1000 {
		var b strings.Builder
		date := first.AddDate(0, 0, d).Format(time.DateOnly)
		fmt.Fprintf(&b, "# %s\n\n", date)
		fmt.Fprintf(&b, "- Flew the kite at the beach%s.\n", strings.Repeat(" again", d%7))
		fmt.Fprintf(&b, "- Mended the kite string, then the kite%s.\n", strings.Repeat(" once more", d%5))
		fmt.Fprintf(&b, "- A note on the weather, the tides, the ferry and a kite seen at dusk%s.\n", strings.Repeat(" far off", d%3))
		fmt.Fprintf(&b, "- Walked past the kite shop.\n")
		for i := range 5 {
			fmt.Fprintf(&b, "- Bread, milk and %d apples from the market, stall %d.\n", d%(i+3), i)
		}
		if d < 5 {
			fmt.Fprintf(&b, "- Kite kite kite, the kite record.\n")
		}
		if d%40 == 0 {
			fmt.Fprintf(&b, "- Harbour meeting about the kite%s.\n", strings.Repeat(" club", d%9))
		}
		if err := os.WriteFile(filepath.Join(ws, "memory", date+".md"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := openDB(t, pgtest.NewAppDatabase(t))
	pg, err := db.Workspace(ctx, "kites", ws, postgres.WorkspaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lite := inSQLite(t, ws)
	for _, q := range []struct {
		terms []string
		f     memory.Filter
		many  bool // more matches than a search scores
	}{
		{[]string{"kite"}, memory.Filter{}, true},
		{[]string{"kite", "harbour"}, memory.Filter{}, true},
		{[]string{"harbour"}, memory.Filter{}, false},
		{[]string{"harbour", "record"}, memory.Filter{}, false},
		{[]string{"kite", "record"}, memory.Filter{Since: day("2020-01-02"), Until: day("2020-06-30")}, true},
		{[]string{"harbour", "club"}, memory.Filter{Until: day("2020-12-31")}, false},
	} {
		stats, _, err := pg.TermStats(ctx, q.terms)
		if err != nil {
			t.Fatal(err)
		}
		rows := 0
		for _, s := range stats {
			rows += s.Rows
		}
		if many := rows > memory.MaxScoredRows; many != q.many {
			t.Fatalf("Search(%q): %d rows match, more than %d: %v, want %v", q.terms, rows, memory.MaxScoredRows, many, q.many)
		}
		want, err := lite.Search(ctx, q.terms, q.f, 20)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pg.Search(ctx, q.terms, q.f, 20)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 || len(got) != len(want) {
			t.Fatalf("Search(%q, %v): %d results, %d in SQLite", q.terms, q.f, len(got), len(want))
		}
		// Scores, not places: rows that tie may come in either order.
		for i := range want {
			w, g := want[i], got[i]
			if math.Abs(g.Score-w.Score) > 0.01*w.Score {
				t.Errorf("Search(%q, %v) %d: %s %q scores %.4g here, %s %q %.4g in SQLite", q.terms, q.f, i+1, g.Source, g.Content, g.Score, w.Source, w.Content, w.Score)
			}
		}
		if q.many && q.f.Since.IsZero() && strings.Contains(got[0].Content, "record") {
			t.Errorf("Search(%q): %s %q, older than the newest %d matches, comes first", q.terms, got[0].Source, got[0].Content, memory.MaxScoredRows)
		}
	}
}

func day(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func sortedNames(ns []memory.KnownName) []memory.KnownName {
	out := slices.Clone(ns)
	slices.SortFunc(out, func(a, b memory.KnownName) int { return strings.Compare(a.Key+"\t"+a.Slug, b.Key+"\t"+b.Slug) })
	return out
}

func citations(items []memory.Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Source.String() + " " + string(it.Kind)
	}
	return out
}

func entityCitations(items []memory.EntityItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = fmt.Sprintf("%s %v", it.Source, it.OnPage)
	}
	return out
}

func sortedCitations(hits []memory.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Source.String()
	}
	slices.Sort(out)
	return out
}

// TestSyncEqualsFreshBuild edits, adds and deletes files and checks that
// the synced index holds and ranks exactly what a fresh build of the same
// files holds and ranks.
func TestSyncEqualsFreshBuild(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws := testworkspace.CopyExample(t)
	url := pgtest.NewAppDatabase(t)
	db := openDB(t, url)
	ix, err := db.Workspace(ctx, "edited", ws, postgres.WorkspaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The items of the log edited mid-file as rows written before row
	// hashes were kept: none of them may stay.
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `SELECT set_config('memoria.workspaces', $1, false)`, strconv.FormatInt(ix.ID(), 10)); err != nil {
		t.Fatal(err)
	}
	if tag, err := conn.Exec(ctx, `UPDATE memoria_items SET row_hash = '' WHERE file_id = (SELECT id FROM memoria_files WHERE path = 'memory/2025-11-21.md')`); err != nil || tag.RowsAffected() == 0 {
		t.Fatalf("unhashing the rows of 2025-11-21.md: %v, %v", tag, err)
	}
	// The items of the log appended to stay as they were, ids and all,
	// but for the last one if its neighbours change.
	logItems := func() map[int64]bool {
		items, err := ix.Items(ctx, memory.Filter{Since: day("2025-11-30"), Until: day("2025-11-30")}, false, 1000)
		if err != nil {
			t.Fatal(err)
		}
		ids := map[int64]bool{}
		for _, it := range items {
			if it.Source.Path == "memory/2025-11-30.md" {
				ids[it.RowID] = true
			}
		}
		return ids
	}
	before := logItems()
	logs, _ := filepath.Glob(filepath.Join(ws, "memory", "2025-10-*.md"))
	for _, p := range logs[:5] {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	appendTo(t, filepath.Join(ws, "memory", "2025-11-30.md"), "\n## Retain\n- W @Peter: Peter moved the relay to a Hetzner box in Helsinki.\n")
	appendTo(t, filepath.Join(ws, "bank", "entities", "Peter.md"), "\nAlso called Pedro by the club.\n")
	if err := os.WriteFile(filepath.Join(ws, "memory", "2025-12-01.md"), []byte("# 2025-12-01\n\nHelsinki latency is 9 ms from the club.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A line inserted in the middle of a log, and one changed: the items
	// after it move down a line.
	mid := filepath.Join(ws, "memory", "2025-11-21.md")
	text, err := os.ReadFile(mid)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(text), "- #257: docs still mention", "- #256b: a Helsinki mirror for the relay.\n- #257: the docs still mention", 1)
	if edited == string(text) {
		t.Fatal("the line to edit is not in 2025-11-21.md")
	}
	if err := os.WriteFile(mid, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := ix.Sync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Removed != 5 || st.Parsed != 4 {
		t.Errorf("sync: removed %d parsed %d, want 5 and 4", st.Removed, st.Parsed)
	}
	after := logItems()
	kept := 0
	for id := range before {
		if after[id] {
			kept++
		}
	}
	if len(before) < 3 || kept < len(before)-1 || len(after) != len(before)+1 {
		t.Errorf("the appended log: %d of its %d items kept their ids, %d items after; want all (or all but the last) and one more", kept, len(before), len(after))
	}
	fresh, err := db.Workspace(ctx, "fresh", ws, postgres.WorkspaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	compareStores(t, fresh, ix)
	for _, q := range [][]string{{"Helsinki"}, {"relay", "Hetzner"}, {"Pedro"}, {"WhatsApp", "replies", "short"}, {"docs", "mention"}, {"Windows", "line", "endings"}} {
		a, err := fresh.Search(ctx, q, memory.Filter{}, 20)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ix.Search(ctx, q, memory.Filter{}, 20)
		if err != nil {
			t.Fatal(err)
		}
		if len(a) == 0 || !reflect.DeepEqual(ranked(a), ranked(b)) {
			t.Errorf("Search(%v) after edits:\nsynced %v\nfresh  %v", q, ranked(b), ranked(a))
		}
	}
	if st, err := ix.Sync(ctx); err != nil || st.Changed() {
		t.Errorf("second sync: %+v, %v; want no change", st, err)
	}
	for _, x := range []*postgres.Index{ix, fresh} {
		if err := x.Verify(ctx); err != nil {
			t.Errorf("Verify %s: %v", x.Name(), err)
		}
	}
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

func ranked(hits []memory.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = fmt.Sprintf("%s %.6f", h.Source, h.Score)
	}
	return out
}

// TestIsolation keeps two workspaces in one database and asks the first
// for everything of the second it could reach: through every Store
// method, with crafted ids, and with SQL that forgets its workspace
// condition, which row-level security answers with nothing.
func TestIsolation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.NewAppDatabase(t)
	db := openDB(t, url)
	a, err := db.Workspace(ctx, "alpha", testworkspace.CopyExample(t), postgres.WorkspaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bdir := t.TempDir()
	for p, text := range map[string]string{
		"memory.md":              "# Core\n\n- Zanzibar vault code is 7741.\n",
		"memory/2025-11-20.md":   "# 2025-11-20\n\nMet @Bravo about the zanzibar contract.\n\n## Retain\n- W @Bravo: Bravo owns the zanzibar account.\n",
		"bank/entities/Bravo.md": "---\naliases: [Peter]\n---\n# Bravo\n\nBravo is the zanzibar client.\n",
		"bank/entities/Peter.md": "# Peter\n\nThe other Peter, zanzibar side.\n",
		"memory/2025-11-21.md":   "# 2025-11-21\n\nWhatsApp zanzibar group created.\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(bdir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bdir, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := db.Workspace(ctx, "bravo", bdir, postgres.WorkspaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	leak := func(what string, text string) {
		t.Helper()
		if strings.Contains(strings.ToLower(text), "zanzibar") || strings.Contains(text, "Bravo") {
			t.Errorf("%s: workspace alpha sees bravo's text: %s", what, text)
		}
	}
	hits, err := a.Search(ctx, []string{"zanzibar", "WhatsApp", "Bravo", "vault"}, memory.Filter{}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		leak("Search", h.Content+" "+h.Source.Path)
	}
	items, err := a.Items(ctx, memory.Filter{}, true, 100000)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		leak("Items", it.Content+" "+it.Source.Path)
	}
	stats, total, err := a.TermStats(ctx, []string{"zanzibar"})
	if err != nil || stats[0].Rows != 0 || total != len(items) {
		t.Errorf("TermStats: %+v, %d items (alpha has %d), %v", stats, total, len(items), err)
	}
	names, _ := a.EntityNames(ctx)
	for _, n := range names {
		leak("EntityNames", n.Key+" "+n.Slug)
	}
	if slug, ok, err := a.ResolveEntity(ctx, "Bravo"); ok || err != nil {
		t.Errorf("ResolveEntity(Bravo) = %q %v %v", slug, ok, err)
	}
	if p, ok, _ := a.EntityPageOf(ctx, "Bravo"); ok {
		t.Errorf("EntityPageOf(Bravo) = %+v", p)
	}
	ei, _ := a.EntityItems(ctx, []string{"Bravo", "Peter"}, memory.Filter{}, 1000)
	for _, it := range ei {
		leak("EntityItems", it.Content+" "+it.Source.Path)
	}
	list, _ := a.EntityList(ctx)
	for _, e := range list {
		leak("EntityList", e.Slug+" "+e.Name+" "+e.Page)
	}
	// A row id of bravo's, as a crafted request would pass it.
	bItems, err := b.Items(ctx, memory.Filter{}, true, 100)
	if err != nil || len(bItems) == 0 {
		t.Fatalf("bravo's items: %v, %v", bItems, err)
	}
	near, err := a.Nearby(ctx, bItems, 50)
	if err != nil {
		t.Fatal(err)
	}
	for _, around := range near {
		for _, n := range around {
			leak("Nearby", n.Content)
		}
	}
	sa, _ := a.Status(ctx)
	sb, _ := b.Status(ctx)
	if sa.Entities == 0 || sa.Passages == 0 || sb.Passages >= sa.Passages {
		t.Errorf("status: alpha %+v, bravo %+v", sa, sb)
	}
	fresh, err := db.Workspace(ctx, "alpha-alone", filepath.Join(t.TempDir(), "x"), postgres.WorkspaceOptions{})
	if err == nil {
		t.Errorf("a workspace folder that does not exist opened: %v", fresh)
	}

	// SQL that forgets its workspace condition sees only the workspaces
	// its transaction names, and none when it names none.
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, allowed := range []string{"", fmt.Sprint(a.ID())} {
		tx, err := conn.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(ctx, `SELECT set_config('memoria.workspaces', $1, true)`, allowed); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			`SELECT content FROM memoria_items`, `SELECT path FROM memoria_files`, `SELECT slug_key FROM memoria_item_entities`,
			`SELECT slug || name || aliases FROM memoria_entity_pages`, `SELECT key || slug FROM memoria_entity_names`,
			`SELECT content FROM memoria_items_` + fmt.Sprint(b.ID()),
		} {
			rows, err := tx.Query(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			texts, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				t.Fatal(err)
			}
			if allowed == "" && len(texts) > 0 {
				t.Errorf("%s with no workspace allowed: %d rows", q, len(texts))
			}
			for _, s := range texts {
				leak(q, s)
			}
		}
		tx.Rollback(ctx)
	}
}

// TestServerGoneAndBack kills the database server under an open index:
// calls while it is down fail with the error once RetryFor has passed
// (never an empty answer presented as one), the loss is said once, and
// after a restart the same index answers again without being reopened.
func TestServerGoneAndBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := pgtest.StartOwn(t)
	url, err := c.CreateDatabase(ctx, "gone")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var warnings []string
	db, err := postgres.Open(ctx, url, postgres.Options{RetryFor: time.Second, Warn: func(m string) {
		mu.Lock()
		warnings = append(warnings, m)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ix, err := db.Workspace(ctx, "w", testworkspace.CopyExample(t), postgres.WorkspaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	before, err := ix.Search(ctx, []string{"WhatsApp"}, memory.Filter{}, 10)
	if err != nil || len(before) == 0 {
		t.Fatalf("before: %v %v", before, err)
	}
	if err := c.Kill(); err != nil {
		t.Fatal(err)
	}
	hits, err := ix.Search(ctx, []string{"WhatsApp"}, memory.Filter{}, 10)
	if err == nil || hits != nil {
		t.Fatalf("with the server down: %v, %v; want an error and no hits", hits, err)
	}
	if _, err := ix.Sync(ctx); err == nil {
		t.Fatal("a sync with the server down succeeded")
	}
	if err := c.Restart(); err != nil {
		t.Fatal(err)
	}
	after, err := ix.Search(ctx, []string{"WhatsApp"}, memory.Filter{}, 10)
	if err != nil || !reflect.DeepEqual(ranked(after), ranked(before)) {
		t.Fatalf("after the restart: %v, %v", ranked(after), err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(warnings) < 2 || !strings.Contains(warnings[0], "retrying") || !strings.Contains(warnings[len(warnings)-1], "connected again") {
		t.Errorf("warnings: %q", warnings)
	}
}

// TestSyncsOfOneWorkspaceTakeTurns holds workspace one's sync lock from
// outside: a sync of workspace two goes through meanwhile, and one's own
// sync waits for the lock, then applies its change.
func TestSyncsOfOneWorkspaceTakeTurns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.NewAppDatabase(t)
	db := openDB(t, url)
	dirs := []string{testworkspace.CopyExample(t), testworkspace.CopyExample(t)}
	var ixs []*postgres.Index
	for i, d := range dirs {
		ix, err := db.Workspace(ctx, fmt.Sprint("turns", i), d, postgres.WorkspaceOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ixs = append(ixs, ix)
		appendTo(t, filepath.Join(d, "memory.md"), "\n- Quokka sightings are logged weekly.\n")
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, $2::int)`, int32(0x4d454d4f), ixs[0].ID()); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ixs[0].Sync(ctx)
		done <- err
	}()
	if st, err := ixs[1].Sync(ctx); err != nil || st.Parsed != 1 {
		t.Fatalf("the other workspace's sync: %+v, %v", st, err)
	}
	// One's sync is waiting for the lock, not done.
	for waiting := false; !waiting; {
		select {
		case err := <-done:
			t.Fatalf("the sync went through a held lock: %v", err)
		default:
		}
		if err := conn.QueryRow(ctx, `SELECT count(*) > 0 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, ix := range ixs {
		if hits, err := ix.Search(ctx, []string{"quokka"}, memory.Filter{}, 5); err != nil || len(hits) == 0 || !strings.Contains(hits[0].Content, "Quokka") {
			t.Errorf("workspace %s after its sync: %v, %v", ix.Name(), hits, err)
		}
	}
}

// TestSearchIndexedUnderRowLevelSecurity: with the match function marked
// LEAKPROOF, as docs/team.md asks of the administrator, a search reads the
// GIN index's matches; without it, status says what to run, and search
// still answers the same, reading every item.
func TestSearchIndexedUnderRowLevelSecurity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws := testworkspace.CopyExample(t)
	var answers [2][]string
	for i, url := range []string{pgtest.NewAppDatabase(t), pgtest.NewBareAppDatabase(t)} {
		db := openDB(t, url)
		ix, err := db.Workspace(ctx, "rls", ws, postgres.WorkspaceOptions{})
		if err != nil {
			t.Fatal(err)
		}
		st, err := ix.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if advised := len(st.Advice) > 0 && strings.Contains(st.Advice[0], postgres.LeakproofAdvice); advised != (i == 1) {
			t.Errorf("database %d: advice %q", i, st.Advice)
		}
		hits, err := ix.Search(ctx, []string{"WhatsApp", "relay"}, memory.Filter{}, 20)
		if err != nil {
			t.Fatal(err)
		}
		answers[i] = ranked(hits)
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		var plan string
		err = conn.QueryRow(ctx, fmt.Sprintf(`SELECT set_config('memoria.workspaces', '%d', false)`, ix.ID())).Scan(&plan)
		if err == nil {
			var rows pgx.Rows
			rows, err = conn.Query(ctx, fmt.Sprintf(`EXPLAIN (FORMAT TEXT) SELECT count(*) FROM memoria_items WHERE ws = %d AND tsv @@ 'relay'::tsquery`, ix.ID()))
			if err == nil {
				var lines []string
				lines, err = pgx.CollectRows(rows, pgx.RowTo[string])
				plan = strings.Join(lines, "\n")
			}
		}
		conn.Close(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if indexed := strings.Contains(plan, "tsv_idx"); indexed != (i == 0) {
			t.Errorf("database %d: plan %q", i, plan)
		}
	}
	if !reflect.DeepEqual(answers[0], answers[1]) {
		t.Errorf("the answers differ with and without the index:\n%v\n%v", answers[0], answers[1])
	}
}

// TestTermCountsSeeNewWords: a word no item held when a recall counted it
// is found once a sync adds it. The counts are kept while the workspace's
// size drifts little; a kept 0 made the next recall drop the word, so a
// fact just retained was not found by it in a long-lived process.
func TestTermCountsSeeNewWords(t *testing.T) {
	t.Parallel()
	ws, pg := exampleInPostgres(t)
	ctx := context.Background()
	count := func() int {
		t.Helper()
		st, _, err := pg.TermStats(ctx, []string{"zanzibar"})
		if err != nil {
			t.Fatal(err)
		}
		return st[0].Rows
	}
	if n := count(); n != 0 {
		t.Fatalf("zanzibar in %d items before, want 0", n)
	}
	log := filepath.Join(ws, "memory", "2025-12-01.md")
	if err := os.WriteFile(log, []byte("# 2025-12-01\n\nThe Zanzibar vault code is 7741.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := pg.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 1 {
		t.Errorf("zanzibar in %d items after the sync, want 1", n)
	}
}
