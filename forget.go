package memoria

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"memoria/forget"
	"memoria/memory"
	"memoria/reflect"
	"memoria/retain"
	"memoria/safewrite"
	"memoria/workspace"
)

// ErrNothingToForget is wrapped by Forget when its selection holds no
// line: a query that recalls nothing, an entity no line names.
var ErrNothingToForget = errors.New("nothing to forget")

// DefaultForgetK is how many results of a query Forget takes unless told.
const DefaultForgetK = 5

// maxReasonBytes bounds the reason given to Forget (it keeps at most
// forget.MaxReasonRunes of it).
const maxReasonBytes = 4 << 10

// ForgetOptions select the lines Forget removes, and say how. At least
// one of Sources, Entities and Query must be given; their lines add up.
type ForgetOptions struct {
	// Sources are citations, path#Lx or path#Lx-Ly: exactly those lines,
	// each of which must exist, of memory files of the workspace.
	Sources []string
	// Entities are names as Entity takes them: every line that names one
	// (an @mention, its name or an alias, as recall finds names in text),
	// and every line of an item linked to it.
	Entities []string
	// Query is recalled (with Now) and the lines of its first K results
	// go, with the other places recall says the same fact is written.
	Query string
	K     int // 0 means DefaultForgetK
	// Reason says why, in the tombstone and the record. It is untrusted:
	// it is made one line that cannot end the comment (forget.Sanitize).
	Reason string
	// NoTrace leaves no tombstone where the lines were; the record of
	// what was forgotten is kept all the same, or the text could return.
	NoTrace bool
	// DryRun reports what would go and changes nothing.
	DryRun bool
	// Now is the day recorded and the "now" of Query; zero means the clock.
	Now         time.Time
	LockTimeout time.Duration // wait for another writer; 0 means safewrite.DefaultLockTimeout
}

// ForgetReport says what Forget removed (or, with DryRun, would remove).
type ForgetReport struct {
	DryRun bool         `json:"dry_run"`
	Files  []ForgetFile `json:"files"`
	Lines  int          `json:"lines"` // lines removed
	// Tombstone is the line left where lines were in memory files ("" with
	// NoTrace).
	Tombstone string `json:"tombstone,omitempty"`
	// Record is the record of forgotten text (forget.RecordFile), and
	// Recorded how many hashes it gains.
	Record   string `json:"record"`
	Recorded int    `json:"recorded"`
	// Vectors is how many texts' vectors were removed (0 in a dry run).
	Vectors  int      `json:"vectors"`
	Warnings []string `json:"warnings,omitempty"`
}

// ForgetFile is one file Forget changes, with its lines that go.
type ForgetFile struct {
	Path  string       `json:"path"`
	Lines []ForgetLine `json:"lines"`
	// Removed says the file goes whole: an entity page every line of
	// which goes (its name names the entity).
	Removed bool `json:"removed,omitempty"`
}

// ForgetLine is one line that goes.
type ForgetLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
	// Why it goes: "cited", "names Peter", "recall result 2", "copy of
	// memory/2025-11-27.md#L3", "cites memory/2025-11-27.md#L3", "part of
	// the item at line 5".
	Why string `json:"why"`
	// Recorded says its text's hash goes into the record (a line too
	// short to be told apart from others is removed but not recorded).
	Recorded bool `json:"recorded"`
}

// Forget removes lines from the workspace's memory (docs/forget.md):
// those o selects, and every other copy of them in memory files (an
// identical line, or a typed fact that says what a selected fact says,
// wrapped otherwise), in reflect's generated blocks and in the review
// queues (a line that cites them or repeats their text). Under the
// workspace write lock it records their text's hashes in the record of
// forgotten text (forget.RecordFile), writes every changed file
// atomically, a tombstone left where lines were in memory files unless
// o.NoTrace, then brings the index up to date and removes the vectors of
// the texts that went, with every trace the index file kept of them. From
// then on no index, rebuild or import of the workspace holds them (ingest
// and imports read the record).
//
// A citation that is malformed, has no line range or names no memory file
// of the workspace (a path outside it, .memory/, a review file, a symlink
// leading out) wraps ErrInvalid or workspace.ErrNotMemoryFile; one whose
// file or lines do not exist wraps fs.ErrNotExist or workspace.ErrNoLines;
// an unknown entity wraps ErrUnknownEntity; an empty selection wraps
// ErrNothingToForget. Nothing is written then, nor with o.DryRun.
func (w *Workspace) Forget(ctx context.Context, o ForgetOptions) (ForgetReport, error) {
	rep := ForgetReport{DryRun: o.DryRun, Record: forget.RecordFile, Files: []ForgetFile{}}
	if err := checkForgetOptions(&o); err != nil {
		return rep, err
	}
	day := o.Now.Format(time.DateOnly)
	if !o.NoTrace {
		rep.Tombstone = forget.Tombstone(day, o.Reason)
	}
	picks, err := w.forgetPicks(ctx, o)
	if err != nil {
		return rep, err
	}
	k, err := safewrite.Lock(w.dir, safewrite.Options{LockTimeout: o.LockTimeout, Holder: "memoria forget"})
	if err != nil {
		return rep, err
	}
	defer k.Unlock()
	sel, err := w.selectForget(ctx, k, picks)
	if err != nil {
		return rep, err
	}
	if sel.empty() {
		return rep, fmt.Errorf("%w: %s selects no line", ErrNothingToForget, picks.what())
	}
	sel.copies()
	plan := sel.plan(rep.Tombstone, day, o.Reason)
	rep.Files, rep.Lines, rep.Recorded = plan.report, plan.lines, plan.recorded
	if o.DryRun {
		return rep, nil
	}
	rep.Vectors, rep.Warnings, err = w.applyForget(ctx, k, plan)
	return rep, err
}

// checkForgetOptions refuses options that select nothing or are out of
// bounds, and fills in the defaults.
func checkForgetOptions(o *ForgetOptions) error {
	if len(o.Sources) == 0 && len(o.Entities) == 0 && strings.TrimSpace(o.Query) == "" {
		return invalidError{errors.New("say what to forget: citations (path#L3-L4), an entity or a query")}
	}
	switch {
	case o.K < 0 || o.K > MaxK:
		return invalidError{fmt.Errorf("k %d: want 1 to %d", o.K, MaxK)}
	case o.K == 0:
		o.K = DefaultForgetK
	}
	if len(o.Reason) > maxReasonBytes {
		return invalidError{fmt.Errorf("the reason is %d bytes; at most %d", len(o.Reason), maxReasonBytes)}
	}
	if len(o.Query) > MaxQueryBytes {
		return invalidError{fmt.Errorf("the query is %d bytes; at most %d are searched", len(o.Query), MaxQueryBytes)}
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	return nil
}

// forgetPicks are the selections that ask the index (a recall, the names
// of entities), made before the write lock is taken: what they name is
// found again in the files read under it.
type forgetPicks struct {
	sources []memory.Source // citations, checked
	results [][]memory.Source
	slugs   []string
	query   string
}

func (p forgetPicks) what() string {
	var parts []string
	if len(p.sources) > 0 {
		parts = append(parts, "the citations")
	}
	if len(p.slugs) > 0 {
		parts = append(parts, "entity "+strings.Join(p.slugs, ", "))
	}
	if p.query != "" {
		parts = append(parts, fmt.Sprintf("query %q", p.query))
	}
	return strings.Join(parts, " and ")
}

func (w *Workspace) forgetPicks(ctx context.Context, o ForgetOptions) (forgetPicks, error) {
	p := forgetPicks{query: strings.TrimSpace(o.Query)}
	for _, ref := range o.Sources {
		src, err := w.forgetSource(ref)
		if err != nil {
			return p, err
		}
		p.sources = append(p.sources, src)
	}
	if len(o.Entities) > 0 {
		if _, err := w.Sync(ctx); err != nil {
			return p, err
		}
		table, err := w.names(ctx)
		if err != nil {
			return p, err
		}
		for _, name := range o.Entities {
			slug, err := w.resolveEntity(ctx, table, name)
			if err != nil {
				if errors.Is(err, ErrAmbiguousEntity) {
					return p, invalidError{err}
				}
				return p, err
			}
			if !slices.Contains(p.slugs, slug) {
				p.slugs = append(p.slugs, slug)
			}
		}
	}
	if p.query != "" {
		rs, err := w.Recall(ctx, p.query, RecallOptions{K: o.K, Now: o.Now})
		if err != nil {
			return p, err
		}
		for _, r := range rs {
			srcs := []memory.Source{r.Cite()}
			for _, a := range r.Also {
				if s, err := memory.ParseSource(a); err == nil && s.Start > 0 {
					srcs = append(srcs, s)
				}
			}
			p.results = append(p.results, srcs)
		}
	}
	return p, nil
}

// applyForget writes what plan says, under the lock k: the record first
// (were the process killed after it, the lines it lists are out of every
// index already, and running Forget again removes them), then each file,
// then the index and the vectors.
func (w *Workspace) applyForget(ctx context.Context, k *safewrite.Locked, plan forgetPlan) (int, []string, error) {
	var warnings []string
	if len(plan.entries) > 0 {
		old, _, err := k.ReadFile(forget.RecordFile)
		if err != nil {
			return 0, nil, err
		}
		data, _ := forget.AppendRecord(old, plan.entries)
		if err := k.WriteFile(forget.RecordFile, data); err != nil {
			return 0, nil, fmt.Errorf("nothing was forgotten: %w", err)
		}
	}
	var done []string
	for _, rel := range plan.order {
		write := func() error { return k.WriteFile(rel, plan.data[rel]) }
		if plan.removed[rel] {
			write = func() error { return k.Remove(rel) }
		}
		if err := write(); err != nil {
			if len(done) > 0 {
				return 0, nil, fmt.Errorf("forgotten in %s, but %w (its lines are out of the index already: run the same forget again)", strings.Join(done, ", "), err)
			}
			return 0, nil, fmt.Errorf("%w (the lines are out of the index already: run the same forget again)", err)
		}
		done = append(done, rel)
	}
	if _, err := w.Sync(ctx); err != nil {
		return 0, nil, fmt.Errorf("the lines were forgotten in the Markdown, but updating the index failed (the next recall retries): %w", err)
	}
	n := 0
	if f, ok := w.ix.(forgetter); ok {
		var err error
		if n, err = f.Forgotten(ctx, plan.texts); err != nil {
			return n, nil, fmt.Errorf("the lines were forgotten and the index updated, but removing their vectors failed (run the same forget again): %w", err)
		}
	} else {
		warnings = append(warnings, "this index cannot remove vectors: they stay until the next `memoria index`, but no item holds their text")
	}
	// Text cut into new passages (a window of several lines) gets its
	// vector now, as a retain's does.
	if _, err := w.EmbedNew(ctx); err != nil {
		warnings = append(warnings, "the changed text is not embedded yet (memoria index embeds it): "+err.Error())
	}
	return n, warnings, nil
}

// forgetter is a Store that can remove what it keeps of forgotten text
// once a sync has dropped its items (sqlite.Index, postgres.Index).
type forgetter interface {
	Forgotten(ctx context.Context, textHashes []string) (int, error)
}

// reviewQueues are the review files Memoria writes copies of memory into
// (proposals), which Forget cleans too.
var reviewQueues = []string{ReviewFile, reflect.ProposalsPath}

// cutReview removes lines from a review queue: the retain proposals with
// the group headings they leave empty (retain.RemoveReviewLines), any
// other queue line by line.
func cutReview(rel string, data []byte, drop map[int]bool) []byte {
	if rel == ReviewFile {
		var lines []int
		for n := range drop {
			lines = append(lines, n)
		}
		return retain.RemoveReviewLines(data, lines)
	}
	return forget.Cut(data, drop, nil, "")
}

// maxNamed bounds the lines a finding names.
const maxNamed = 10

// forgottenFinding is Doctor's check of what was forgotten, when the
// workspace has a record: lines of the Markdown that say forgotten text
// (put back by hand, or by a restored backup) are not indexed, so they
// are neither recalled nor gone; forget removes them, or deleting their
// entries remembers them again. ok is false without a record.
func (w *Workspace) forgottenFinding() (Finding, bool) {
	f := Finding{Check: "forgotten"}
	gone, err := forget.Load(w.dir)
	switch {
	case err != nil:
		f.Detail, f.Fix = err.Error(), "make "+forget.RecordFile+" a regular file of the workspace (nothing is indexed until then)"
		return f, true
	case len(gone) == 0:
		return f, false
	}
	var back []string
	if files, _, err := workspace.List(w.dir); err == nil {
		if r, err := workspace.NewReader(w.dir); err == nil {
			for _, file := range files {
				data, err := r.ReadFile(file.Rel)
				if err != nil {
					continue
				}
				for i, l := range forget.RawLines(data) {
					if gone.Has(string(forget.Body(l))) {
						back = append(back, memory.Source{Path: file.Rel, Start: i + 1}.String())
					}
				}
			}
			r.Close()
		}
	}
	f.OK = len(back) == 0
	entries := fmt.Sprintf("%d entries", len(gone))
	if len(gone) == 1 {
		entries = "1 entry"
	}
	f.Detail = fmt.Sprintf("%s in %s; none of their text is in the Markdown", entries, forget.RecordFile)
	if !f.OK {
		named := strings.Join(back[:min(len(back), maxNamed)], " ")
		if len(back) > maxNamed {
			named += fmt.Sprintf(" and %d more", len(back)-maxNamed)
		}
		f.Detail = fmt.Sprintf("%d lines say forgotten text again, not indexed: %s", len(back), named)
		f.Fix = "memoria forget " + strings.Join(back[:min(len(back), maxNamed)], " ") + " (or delete their entries in " + forget.RecordFile + " to remember them again)"
	}
	return f, true
}
