package memoria

import (
	"context"
	"fmt"
	"time"

	"memoria/reflect"
	"memoria/safewrite"
)

// ReflectOptions shape a reflect run. The zero value reflects on all
// history and writes the result.
type ReflectOptions struct {
	// Since: only facts written on this day or later are new evidence for
	// opinions and core proposals, and only the pages of the entities they
	// mention are refreshed; zero means all history. ParseTimeBound reads
	// 7d, 2w, 2025-11-01…
	Since time.Time
	// Now is "now" for Since; facts written after its day are ignored.
	// Zero means time.Now() for Since and no bound on facts.
	Now time.Time
	// Lexical leaves the embedding model out of reflect: an opinion fact
	// is matched to an opinion by shared words only. By default the model,
	// when installed, matches paraphrases too (reflect.SemanticMatch).
	Lexical bool
	// DryRun computes everything and writes nothing; the report's Diff
	// shows what would change.
	DryRun bool
	// MinFacts is how many facts an entity needs before a page is created
	// for it; 0 means reflect.MinFactsForPage.
	MinFacts    int
	LockTimeout time.Duration // wait for another writer; 0 means safewrite.DefaultLockTimeout
}

// ReflectReport says what a reflect run changed (or, for a dry run,
// would change).
type ReflectReport struct {
	reflect.Report
	DryRun bool
	Diff   string // a unified diff of every file written (or to be written)
}

// Reflect turns the facts of the daily logs into reviewable pages
// (docs/reflect.md): the managed block of each entity page under bank/entities/,
// the opinions of bank/opinions.md with confidence that follows the
// evidence, and core-memory proposals in review/core-proposals.md (never
// memory.md itself). It computes everything first, then, under the
// workspace write lock, refuses to write if any target file changed since
// it was read (the error wraps safewrite.ErrChanged), and replaces each
// file atomically. Running it twice in a row changes nothing the second
// time. Afterwards the index is brought up to date.
func (w *Workspace) Reflect(ctx context.Context, o ReflectOptions) (ReflectReport, error) {
	ro := reflect.Options{Now: o.Now, MinFacts: o.MinFacts, Since: o.Since}
	if !o.Lexical {
		ro.Similarity = w.similarity(ctx)
	}
	p, err := reflect.Run(ctx, w.dir, ro, o.DryRun, reflect.WriteOptions{
		Options: safewrite.Options{LockTimeout: o.LockTimeout, Holder: "memoria reflect"}})
	if p == nil {
		return ReflectReport{}, err
	}
	rep := ReflectReport{Report: p.Report, DryRun: o.DryRun, Diff: p.Diff()}
	if err != nil || o.DryRun || len(p.Changes) == 0 {
		return rep, err
	}
	if _, err := w.Sync(ctx); err != nil {
		return rep, fmt.Errorf("reflect wrote its files, but updating the index failed (the next recall retries): %w: %w", errIndex, err)
	}
	return rep, nil
}
