package sqlite

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"memoria/bench/synth"
	"memoria/embed"
	"memoria/memory"
	"memoria/vector"
)

// synthWorkspace generates days of the synthetic workspace (bench/synth:
// ~23 items a day, entities, typed facts, dates), indexes it and embeds
// it with a hashed bag of words of dim dimensions.
func synthWorkspace(t testing.TB, days, dim int, dense bool) (*Index, *bagEmbedder) {
	t.Helper()
	return synthWorkspaceWith(t, days, dim, dense, Options{})
}

// synthWorkspaceWith is synthWorkspace with the index opened with o.
func synthWorkspaceWith(t testing.TB, days, dim int, dense bool, o Options) (*Index, *bagEmbedder) {
	t.Helper()
	dir := t.TempDir()
	if _, err := synth.Generate(dir, synth.Options{Days: days, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	ix, err := OpenAt(context.Background(), dir, filepath.Join(t.TempDir(), "index.sqlite"), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close(); clear(scanCache) })
	e := &bagEmbedder{id: "bag/v1", dim: dim, dense: dense}
	if _, err := ix.EmbedPending(context.Background(), e, memory.EmbedOptions{Batch: 512}); err != nil {
		t.Fatal(err)
	}
	return ix, e
}

// queryTexts are query vectors made from lines of the workspace (a few of
// their words, as people ask), deterministic.
func queryVectors(t testing.TB, ix *Index, e *bagEmbedder, n int) [][]float32 {
	t.Helper()
	rows, err := ix.db().Query(`SELECT content FROM items ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for rows.Next() {
		var s string
		rows.Scan(&s)
		lines = append(lines, s)
	}
	rows.Close()
	var texts []string
	for i := 0; len(texts) < n; i++ {
		w := strings.Fields(lines[(i*7919)%len(lines)])
		if len(w) < 3 {
			continue
		}
		k := min(len(w), 3+i%4)
		texts = append(texts, strings.Join(w[:k], " "))
	}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	return vecs
}

// checkAgainstScan compares NearestItems with the brute-force SQL scan and
// returns recall@limit: the share of the scan's top limit found (an item
// scoring as high as the scan's last counts, whatever the tie order).
// Every result must pass the filter, carry its true score and come in
// order.
func checkAgainstScan(t *testing.T, ix *Index, q []float32, f memory.Filter, limit int) float64 {
	t.Helper()
	ctx := context.Background()
	got, err := ix.NearestItems(ctx, q, f, limit)
	if err != nil {
		t.Fatal(err)
	}
	key := fmt.Sprintf("%p %p %+v", ix, &q[0], f)
	all, ok := scanCache[key]
	if !ok {
		all = scanAll(t, ix, q, f)
		scanCache[key] = all
	}
	score := make(map[int64]float64, len(all))
	for _, h := range all {
		score[h.RowID] = h.Score
	}

	if want := min(limit, len(all)); len(got) != want {
		t.Fatalf("filter %+v limit %d: %d results, want %d", f, limit, len(got), want)
	}
	for i, h := range got {
		s, ok := score[h.RowID]
		if !ok {
			t.Fatalf("filter %+v: result %s#%d does not pass the filter or has no vector", f, h.Source.Path, h.Source.Start)
		}
		if math.Abs(s-h.Score) > 1e-4 {
			t.Fatalf("result %d: score %v, scan says %v", h.RowID, h.Score, s)
		}
		if i > 0 && h.Score > got[i-1].Score {
			t.Fatalf("results out of order at %d: %v after %v", i, h.Score, got[i-1].Score)
		}
	}
	if len(all) == 0 {
		return 1
	}
	cut := all[min(limit, len(all))-1].Score
	found := 0
	for _, h := range got {
		if h.Score >= cut-1e-5 {
			found++
		}
	}
	return float64(found) / float64(len(got))
}

// scanCache keeps scanAll's results by index, query and filter, for one
// test (synthWorkspace clears it).
var scanCache = map[string][]memory.Hit{}

// scanAll scores every item that passes f as nearestScan does (every
// stored vector, decoded from int8), sorted best first: the reference.
func scanAll(t testing.TB, ix *Index, q []float32, f memory.Filter) []memory.Hit {
	vecs, err := ix.vec.All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	cond, args := where(f)
	rows, err := ix.db().Query(`SELECT i.id, i.text_hash FROM items i WHERE 1`+cond, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []memory.Hit
	vec := make([]float32, len(q))
	for rows.Next() {
		var id int64
		var tid int64
		if err := rows.Scan(&id, &tid); err != nil {
			t.Fatal(err)
		}
		if vecs[tid] != nil && vector.Decode(vecs[tid], vec) == nil {
			out = append(out, memory.Hit{Item: memory.Item{RowID: id}, Score: float64(embed.Dot(q, vec))})
		}
	}
	slices.SortFunc(out, func(a, b memory.Hit) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return cmp.Compare(a.RowID, b.RowID)
	})
	return out
}

// TestNearestItemsMatchesScan: below 2×20×k vectors (k = limit, or 4×limit
// with a filter) the Flat scores everything, so the index returns exactly
// what the SQL scan returns, with
// and without filters, by both filter strategies (scoring the items a
// filter selects, or widening the search).
func TestNearestItemsMatchesScan(t *testing.T) {
	ix, e := synthWorkspace(t, 20, 128, false)
	qs := queryVectors(t, ix, e, 20)
	s, err := ix.vec.Index(context.Background())
	if err != nil || s == nil {
		t.Fatal(s, err)
	}
	t.Logf("%d texts", s.Len())
	if s.Len() > 2*20*50 { // the Flat's rerank × its least k
		t.Fatalf("%d texts: too many for an exact Flat search", s.Len())
	}
	ents := topEntities(t, ix, 3)
	from := time.Date(2016, 1, 10, 0, 0, 0, 0, time.UTC)
	filters := []memory.Filter{
		{},
		{Kinds: []memory.Kind{memory.KindPassage}},
		{Kinds: []memory.Kind{memory.KindWorld, memory.KindOpinion}},
		{Entities: ents[:1]},
		{Entities: ents},
		{Since: from, Until: from.AddDate(0, 0, 5)},
		{Since: from, Kinds: []memory.Kind{memory.KindPassage}, Entities: ents[1:]},
	}
	// scanAll is nearestScan without a limit.
	for _, f := range filters {
		ref, err := ix.nearestScan(context.Background(), qs[0], f, 100)
		all := scanAll(t, ix, qs[0], f)
		if err != nil || len(ref) != min(100, len(all)) {
			t.Fatalf("nearestScan %d results, scanAll %d, %v", len(ref), len(all), err)
		}
		for i := range ref {
			if ref[i].Score != all[i].Score {
				t.Fatalf("result %d: nearestScan %v, scanAll %v", i, ref[i].Score, all[i].Score)
			}
		}
	}
	for _, scanMax := range []int{filterScanMax, 0} {
		if r := checkAgainstScan(t, ix, qs[0], memory.Filter{}, 1); r != 1 {
			t.Fatalf("limit 1: recall %.3f", r)
		}
		old := filterScanMax
		filterScanMax = scanMax // 0: every filter goes through widening
		for _, f := range filters {
			for _, limit := range []int{25, 100} {
				for _, q := range qs {
					if r := checkAgainstScan(t, ix, q, f, limit); r != 1 {
						t.Fatalf("filterScanMax %d, filter %+v, limit %d: recall %.3f, want 1", scanMax, f, limit, r)
					}
				}
			}
		}
		filterScanMax = old
	}
}

// topEntities returns the slugs of the n entities with the most items.
func topEntities(t testing.TB, ix *Index, n int) []string {
	rows, err := ix.db().Query(`SELECT slug_key FROM item_entities GROUP BY slug_key ORDER BY count(*) DESC, slug_key LIMIT ?`, n)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		rows.Scan(&s)
		out = append(out, s)
	}
	if len(out) < n {
		t.Fatalf("%d entities", len(out))
	}
	return out
}

// TestNearestItemsPrefilterRecall: with the sign-bit prefilter active
// (more than 2×20×limit texts), recall@limit against the exact scan, with
// and without filters. The bounds are the measured values less a margin.
func TestNearestItemsPrefilterRecall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 300-day workspace")
	}
	ix, e := synthWorkspace(t, 300, 256, true)
	qs := queryVectors(t, ix, e, 20)
	s, _ := ix.vec.Index(context.Background())
	ents := topEntities(t, ix, 2)
	for _, c := range []struct {
		f     memory.Filter
		limit int
		min   float64
	}{
		{memory.Filter{}, 1, 0.97},
		{memory.Filter{}, 10, 0.97},
		{memory.Filter{}, 25, 0.97},
		{memory.Filter{}, 100, 0.97},
		{memory.Filter{Kinds: []memory.Kind{memory.KindPassage}}, 100, 0.97},
		{memory.Filter{Entities: ents}, 100, 0.97},
		{memory.Filter{Since: time.Date(2016, 3, 1, 0, 0, 0, 0, time.UTC)}, 100, 0.97},
	} {
		var sum float64
		for _, q := range qs {
			sum += checkAgainstScan(t, ix, q, c.f, c.limit)
		}
		r := sum / float64(len(qs))
		t.Logf("%d texts, filter %+v: recall@%d %.3f", s.Len(), c.f, c.limit, r)
		if r < c.min {
			t.Errorf("filter %+v: recall@%d %.3f < %.2f", c.f, c.limit, r, c.min)
		}
	}
}

// TestVectorIndexFollowsChanges: the in-memory index stays correct when
// Sync adds and removes items, when new vectors are embedded (by this
// connection or another), when texts are shared, and when the model
// changes.
func TestVectorIndexFollowsChanges(t *testing.T) {
	ctx := context.Background()
	dir := testWorkspace(t)
	ix := openTest(t, dir, Options{})
	e := &bagEmbedder{id: "bag/v1"}
	if _, err := ix.EmbedPending(ctx, e, memory.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}
	near := func(ix *Index, text string, limit int) []memory.Hit {
		t.Helper()
		q, _ := e.Embed(ctx, []string{text})
		hits, err := ix.NearestItems(ctx, q[0], memory.Filter{}, limit)
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	has := func(hits []memory.Hit, path string) int {
		n := 0
		for _, h := range hits {
			if h.Source.Path == path {
				n++
			}
		}
		return n
	}
	if h := near(ix, "kites over the harbour", 3); has(h, "memory/2025-11-21.md") != 0 {
		t.Fatal("a file that does not exist yet")
	}
	loaded := ix.vec.Loaded()
	if loaded == nil {
		t.Fatal("no vector index after a query")
	}

	// Sync adds a file: no vector yet, so it is not ranked; once
	// embedded, it is, without a reload.
	writeFile(t, dir, "memory/2025-11-21.md", "# 2025-11-21\n\n- Flew kites over the harbour with Biscuit.\n")
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if h := near(ix, "kites over the harbour", 10); has(h, "memory/2025-11-21.md") != 0 {
		t.Fatal("an item without a vector was ranked")
	}
	if _, err := ix.EmbedPending(ctx, e, memory.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}
	h := near(ix, "kites over the harbour", 3)
	if len(h) == 0 || h[0].Source.Path != "memory/2025-11-21.md" {
		t.Fatalf("new vector not found: %+v", h)
	}
	if ix.vec.Loaded() != loaded {
		t.Error("new vectors reloaded the index instead of extending it")
	}

	// Two items with the same text share one vector and are both ranked,
	// with the same score.
	writeFile(t, dir, "memory/2025-11-22.md", "# 2025-11-22\n\n- Flew kites over the harbour with Biscuit.\n")
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	h = near(ix, "kites over the harbour", 3)
	if len(h) < 2 || h[0].Score != h[1].Score || has(h[:2], "memory/2025-11-21.md") != 1 || has(h[:2], "memory/2025-11-22.md") != 1 {
		t.Fatalf("shared text: %+v", h)
	}

	// Sync removes a file: its item goes from the results at once.
	if err := os.Remove(filepath.Join(dir, "memory/2025-11-21.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	h = near(ix, "kites over the harbour", 10)
	if has(h, "memory/2025-11-21.md") != 0 || has(h, "memory/2025-11-22.md") != 1 {
		t.Fatalf("after removing a file: %+v", h)
	}

	// Another connection (as another process would) embeds new text: this
	// index sees it on its next query.
	other, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "memory/2025-11-23.md", "# 2025-11-23\n\n- Repainted the garden shed in dark green.\n")
	if _, err := other.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := other.EmbedPending(ctx, e, memory.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}
	other.Close()
	h = near(ix, "repainted the garden shed", 3)
	if len(h) == 0 || h[0].Source.Path != "memory/2025-11-23.md" {
		t.Fatalf("vector embedded by another connection not found: %+v", h)
	}

	// A new model empties the store: the index is reloaded, never mixing
	// vectors of two models.
	e2 := &bagEmbedder{id: "bag/v2", dim: 32}
	if _, err := ix.EmbedPending(ctx, e2, memory.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}
	q, _ := e2.Embed(ctx, []string{"repainted the garden shed"})
	hits, err := ix.NearestItems(ctx, q[0], memory.Filter{}, 3)
	if err != nil || len(hits) == 0 || hits[0].Source.Path != "memory/2025-11-23.md" {
		t.Fatalf("after a model change: %+v, %v", hits, err)
	}
	if ix.vec.Loaded() == loaded || ix.vec.Loaded().Dim() != 32 || ix.vec.Loaded().Model() != "bag/v2" {
		t.Fatalf("index not reloaded for the new model: %+v", ix.vec.Loaded().Model())
	}
	// A query of the old model's size finds nothing rather than failing.
	if hits := near(ix, "garden shed", 3); len(hits) != 0 {
		t.Fatalf("query of another dimension: %+v", hits)
	}
}

// TestVectorsAcrossProcesses: a new Index loads its in-memory vector
// index from the store (nothing beside it holds the vectors again) and
// answers as the scan does; vectors another process embeds are added on
// the next query, one batch, without a reload.
func TestVectorsAcrossProcesses(t *testing.T) {
	ctx := context.Background()
	dir := testWorkspace(t)
	ix := openTest(t, dir, Options{})
	e := &bagEmbedder{id: "bag/v1"}
	if _, err := ix.EmbedPending(ctx, e, memory.EmbedOptions{Batch: 2}); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(ix.Path() + ".vecs"); len(left) > 0 {
		t.Errorf("a second copy: %q", left)
	}
	q, _ := e.Embed(ctx, []string{"biscuit vaccination vet"})
	want, _ := ix.nearestScan(ctx, q[0], memory.Filter{}, 5)
	ix.Close()
	ix = openTest(t, dir, Options{})
	got, err := ix.NearestItems(ctx, q[0], memory.Filter{}, 5)
	if err != nil || len(got) != len(want) || got[0].RowID != want[0].RowID || ix.vec.Loaded().From() != "sqlite" {
		t.Fatalf("reopened: %+v from %q (%v), want %+v", got, ix.vec.Loaded().From(), err, want)
	}
	loaded := ix.vec.Loaded()
	seq := loaded.Seq()

	other := openTest(t, dir, Options{})
	writeFile(t, dir, "memory/2025-11-23.md", "# 2025-11-23\n\n- Repainted the garden shed in dark green.\n")
	if _, err := other.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := other.EmbedPending(ctx, e, memory.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}
	q2, _ := e.Embed(ctx, []string{"repainted the garden shed"})
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	got, _ = ix.NearestItems(ctx, q2[0], memory.Filter{}, 1)
	if len(got) != 1 || got[0].Source.Path != "memory/2025-11-23.md" || ix.vec.Loaded() != loaded || loaded.Seq() != seq+1 {
		t.Fatalf("after another process embedded: %+v, seq %d (was %d)", got, loaded.Seq(), seq)
	}
}

// waitGraph waits for the background load of the graph, if one was
// started, and runs one more query so that the index takes it.
func waitGraph(t *testing.T, ix *Index, q []float32) {
	t.Helper()
	if done := ix.vec.GraphLoading(); done != nil {
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Fatal("graph load did not finish")
		}
	}
	if _, err := ix.NearestItems(context.Background(), q, memory.Filter{}, 1); err != nil {
		t.Fatal(err)
	}
}

// TestVectorIndexGraph: above the Flat's limit EmbedPending also builds
// and saves an HNSW graph. A fresh Index answers from it, adding later
// vectors and honouring filters; when the graph lags too far it makes a
// Flat from the store instead, and from its second query stays on it
// (with a warning) rather than loading the lagging graph.
func TestVectorIndexGraph(t *testing.T) {
	ctx := context.Background()
	small := vector.Options{FlatMax: 200, GraphPatchMax: 50}
	ix, e := synthWorkspaceWith(t, 40, 128, true, Options{Vector: small})
	if ok, err := ix.vec.GraphCurrent(ctx); !ok || err != nil {
		t.Fatalf("graph not saved (%v)", err)
	}
	qs := queryVectors(t, ix, e, 20)
	var warnings []string
	reopen := func() {
		t.Helper()
		path := ix.Path()
		ix.Close()
		var err error
		ix, err = OpenAt(ctx, ix.Workspace(), path, Options{Warn: func(m string) { warnings = append(warnings, m) }, Vector: small})
		if err != nil {
			t.Fatal(err)
		}
	}
	defer func() { ix.Close() }()
	reopen()
	// The first query takes the current graph rather than making a Flat
	// of every vector.
	if _, err := ix.NearestItems(ctx, qs[0], memory.Filter{}, 10); err != nil || ix.vec.Loaded().From() != "graph file" {
		t.Fatalf("first query answered from %q (%v), want the graph file", ix.vec.Loaded().From(), err)
	}
	if _, err := ix.NearestItems(ctx, qs[0], memory.Filter{}, 10); err != nil || ix.vec.Loaded().From() != "graph file" {
		t.Fatalf("second query answered from %q (%v)", ix.vec.Loaded().From(), err)
	}
	ents := topEntities(t, ix, 2)
	var sum float64
	n := 0
	for _, f := range []memory.Filter{{}, {Kinds: []memory.Kind{memory.KindPassage}}, {Entities: ents}} {
		for _, q := range qs {
			sum += checkAgainstScan(t, ix, q, f, 25)
			n++
		}
	}
	t.Logf("graph of %d: recall@25 %.3f", ix.vec.Loaded().Len(), sum/float64(n))
	if sum/float64(n) < 0.95 {
		t.Errorf("graph recall@25 %.3f", sum/float64(n))
	}

	// New vectors (a few) are added to the graph in memory, and
	// EmbedPending saves it.
	writeFile(t, ix.Workspace(), "memory/2030-01-01.md", "# 2030-01-01\n\n- Zyzzyva quokka xylophone.\n")
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.EmbedPending(ctx, e, memory.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}
	q, _ := e.Embed(ctx, []string{"zyzzyva quokka xylophone"})
	if got, _ := ix.NearestItems(ctx, q[0], memory.Filter{}, 1); len(got) != 1 || got[0].Source.Path != "memory/2030-01-01.md" || !ix.vec.Loaded().OnGraph() {
		t.Fatalf("new vector: %+v (from %q)", got, ix.vec.Loaded().From())
	}
	if ok, err := ix.vec.GraphCurrent(ctx); !ok || err != nil {
		t.Fatalf("graph not brought up to date (%v)", err)
	}

	// A graph lagging by more than graphPatchMax vectors is not used.
	old, _ := os.ReadFile(ix.vec.GraphPath())
	var lines []string
	for i := range 60 {
		lines = append(lines, fmt.Sprintf("- Novel line %d about zebra%d and okapi%d.", i, i, i))
	}
	writeFile(t, ix.Workspace(), "memory/2030-01-02.md", "# 2030-01-02\n\n"+strings.Join(lines, "\n")+"\n")
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.EmbedPending(ctx, e, memory.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(ix.vec.GraphPath(), old, 0o644)
	warnings = nil
	reopen()
	q, _ = e.Embed(ctx, []string{"novel line 7 about zebra7 and okapi7"})
	for range 2 {
		if got, _ := ix.NearestItems(ctx, q[0], memory.Filter{}, 1); len(got) != 1 || !strings.Contains(got[0].Content, "zebra7") {
			t.Fatalf("lagging graph: %+v", got)
		}
	}
	waitGraph(t, ix, q[0])
	if ix.vec.Loaded().OnGraph() || !slices.ContainsFunc(warnings, func(w string) bool { return strings.Contains(w, "memoria index") }) {
		t.Fatalf("lagging graph used (from %q), warnings %q", ix.vec.Loaded().From(), warnings)
	}
	// memoria index (EmbedPending) brings it up to date.
	if _, err := ix.EmbedPending(ctx, e, memory.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}
	reopen()
	for range 2 {
		ix.NearestItems(ctx, q[0], memory.Filter{}, 1)
	}
	waitGraph(t, ix, q[0])
	if got, _ := ix.NearestItems(ctx, q[0], memory.Filter{}, 1); len(got) != 1 || ix.vec.Loaded().From() != "graph file" {
		t.Fatalf("after EmbedPending: %+v from %q", got, ix.vec.Loaded().From())
	}
}
