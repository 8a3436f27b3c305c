package postgres_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"memoria"
	"memoria/internal/pgtest"
	"memoria/internal/testworkspace"
)

// TestForgetInTeamIndex: memoria forget on a workspace whose index is a
// team's PostgreSQL database: the lines leave the shared index and their
// vectors leave memoria_vectors at once, for this process and for
// another one serving the same database (its vectors in memory are read
// again); a rebuild of the shared index does not bring them back.
func TestForgetInTeamIndex(t *testing.T) {
	t.Parallel()
	e := defaultModel(t)
	url := pgtest.NewAppDatabase(t)
	dir := testworkspace.CopyExample(t)
	ctx := context.Background()
	now := time.Date(2025, 12, 2, 10, 0, 0, 0, time.UTC)
	open := func() *memoria.Workspace {
		ws, err := memoria.Open(ctx, dir, memoria.Options{IndexPath: url, IndexName: "pete", Embedder: e})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ws.Close() })
		return ws
	}
	ws, other := open(), open()
	if _, err := ws.Embed(ctx, e, nil); err != nil {
		t.Fatal(err)
	}
	const secret = "Biscuit stays at The-Castle with Ingrid while Peter is in Lisbon"
	const paraphrase = "who minds the dog while its owner is away?"
	says := func(ws *memoria.Workspace, q string, lexical bool) string {
		t.Helper()
		rs, err := ws.Recall(ctx, q, memoria.RecallOptions{K: 25, Now: now, Lexical: lexical})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if strings.Contains(r.Content, secret) {
				return r.Source
			}
		}
		return ""
	}
	src := says(other, paraphrase, false)
	if src == "" {
		t.Fatal("semantic recall does not find the line before forgetting")
	}
	st, err := ws.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ws.Forget(ctx, memoria.ForgetOptions{Sources: []string{src}, Reason: "team cleanup", Now: now})
	if err != nil || rep.Vectors < 1 {
		t.Fatalf("forget %s: %+v, %v", src, rep, err)
	}
	after, err := ws.Status(ctx)
	if err != nil || after.Embedded != st.Embedded-rep.Vectors {
		t.Errorf("vectors in the database: %d before, %d after removing %d (%v)", st.Embedded, after.Embedded, rep.Vectors, err)
	}
	for name, w := range map[string]*memoria.Workspace{"this process": ws, "another process": other} {
		if got := says(w, paraphrase, false); got != "" {
			t.Errorf("%s: semantic recall returns the forgotten line at %s", name, got)
		}
		if got := says(w, "Biscuit Ingrid Lisbon", true); got != "" {
			t.Errorf("%s: lexical recall returns the forgotten line at %s", name, got)
		}
	}
	if _, err := ws.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	if got := says(other, "Biscuit Ingrid Lisbon", true); got != "" {
		t.Errorf("after a rebuild of the shared index: %s", got)
	}
}
