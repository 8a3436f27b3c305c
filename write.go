package memoria

import (
	"cmp"
	"net/http"
	"path"
	"slices"
	"strings"

	"context"
	"errors"
	"fmt"
	"io/fs"
	"memoria/retain/llm"
	"memoria/workspace"
	"os"
	"path/filepath"
	"time"

	"memoria/core"
	"memoria/forget"
	"memoria/memory"
	"memoria/retain"
	"memoria/safewrite"
)

// ErrInvalid is wrapped by write errors caused by bad input (a fact or a
// core-memory edit that does not follow the grammar); nothing was written.
var ErrInvalid = errors.New("invalid input")

// invalidError marks bad input: its message, wrapping ErrInvalid too.
type invalidError struct{ err error }

func (e invalidError) Error() string   { return e.err.Error() }
func (e invalidError) Unwrap() []error { return []error{e.err, ErrInvalid} }

// RetainOptions shape a retain. The zero value writes to today's log.
type RetainOptions struct {
	Date        time.Time     // the log's day; zero means the day of Now (local time)
	Now         time.Time     // "now"; zero means time.Now()
	LockTimeout time.Duration // wait for another writer; 0 means safewrite.DefaultLockTimeout
}

// Retained is one fact written by Retain.
type Retained struct {
	Bullet string        // the line written, "- W @Peter: …"
	Source memory.Source // where it now lives
}

// RetainResult says what Retain wrote.
type RetainResult struct {
	Path    string     // the log, workspace-relative
	Added   []Retained // facts written, in order
	Skipped []string   // bullets already in the log's Retain section, not written again
}

// Retain validates facts in the Retain grammar ("O(c=0.8) @Peter: …") and
// appends them, in one atomic write under the workspace write lock, to the
// Retain section of the day's log (memory/YYYY-MM-DD.md), creating the
// file or the section when missing and keeping every other byte. Then it
// brings the index up to date, so that the next recall sees them. If any
// fact is invalid, or says text the workspace forgot (memoria forget),
// nothing is written and the error, wrapping ErrInvalid, names it.
func (w *Workspace) Retain(ctx context.Context, facts []string, o RetainOptions) (RetainResult, error) {
	if len(facts) == 0 {
		return RetainResult{}, invalidError{errors.New("no facts given")}
	}
	gone, err := forget.Load(w.dir)
	if err != nil {
		return RetainResult{}, err
	}
	valid := make([]retain.Fact, 0, len(facts))
	for i, s := range facts {
		f, err := retain.Validate(s)
		if err == nil && gone.Has(s) {
			err = errForgotten
		}
		if err != nil {
			if len(facts) > 1 {
				return RetainResult{}, invalidError{fmt.Errorf("fact %d: %w", i+1, err)}
			}
			return RetainResult{}, invalidError{err}
		}
		valid = append(valid, f)
	}
	day := o.Date
	if day.IsZero() {
		now := o.Now
		if now.IsZero() {
			now = time.Now()
		}
		day = now
	}
	date := day.Format("2006-01-02")
	res := RetainResult{Path: "memory/" + date + ".md"}
	err = w.update(ctx, res.Path, safewrite.Options{LockTimeout: o.LockTimeout, Holder: "memoria retain"},
		func(old []byte) ([]byte, error) {
			a, err := retain.Append(old, date, valid)
			if err != nil {
				return nil, err
			}
			res.Added = res.Added[:0]
			for i, b := range a.Added {
				res.Added = append(res.Added, Retained{Bullet: b, Source: memory.Source{Path: res.Path, Start: a.Lines[i], End: a.Lines[i]}})
			}
			res.Skipped = a.Skipped
			return a.Data, nil
		})
	if err != nil && !errors.Is(err, errIndex) {
		return RetainResult{}, fmt.Errorf("retain into %s: %w", res.Path, err)
	}
	if err == nil && len(res.Added) > 0 {
		// The new facts are recalled semantically too from the next
		// query on, not only after the next `memoria index`. A failure
		// here loses nothing: the text waits for the next embedding.
		if _, eerr := w.EmbedNew(ctx); eerr != nil && w.opts.Warn != nil {
			w.opts.Warn("the new facts are not embedded yet (memoria index embeds them): " + eerr.Error())
		}
	}
	return res, err
}

// errForgotten refuses to write text the workspace forgot: the index
// would leave it out (ingest reads the record), so it would be written
// and never recalled.
var errForgotten = fmt.Errorf("this text was forgotten (memoria forget; its hash is in %s): delete its entry there to remember it again", forget.RecordFile)

// errIndex marks a write that succeeded but whose index update failed.
var errIndex = errors.New("index update failed")

// update is the read-modify-write of every writer here: under the
// workspace write lock, read rel, apply fn, write the result atomically,
// then bring the index up to date, still under the lock so that writers
// never contend for the index. A failed index update is reported wrapping
// errIndex, though the Markdown (the truth) is written and the next recall
// catches up.
func (w *Workspace) update(ctx context.Context, rel string, o safewrite.Options, fn func([]byte) ([]byte, error)) error {
	o.AfterWrite = func() error {
		if _, err := w.Sync(ctx); err != nil {
			return fmt.Errorf("%s was written, but updating the index failed (the next recall retries): %w: %w", rel, errIndex, err)
		}
		return nil
	}
	return safewrite.UpdateWith(w.dir, rel, o, fn)
}

// CoreOptions shape a core-memory edit. The zero value is ready to use.
type CoreOptions struct {
	Limit       int           // bound on memory.md in bytes; 0 means core.DefaultLimit, <0 none
	LockTimeout time.Duration // wait for another writer; 0 means safewrite.DefaultLockTimeout
}

// CorePath is the workspace-relative path of core memory: memory.md, or
// MEMORY.md when only that exists.
func (w *Workspace) CorePath() string {
	if _, err := os.Lstat(filepath.Join(w.dir, "memory.md")); errors.Is(err, fs.ErrNotExist) {
		if _, err := os.Lstat(filepath.Join(w.dir, "MEMORY.md")); err == nil {
			return "MEMORY.md"
		}
	}
	return "memory.md"
}

// readCore reads core memory (nil if it does not exist yet).
func (w *Workspace) readCore() ([]byte, error) {
	data, _, err := safewrite.Snapshot(w.dir, w.CorePath())
	return data, err
}

// CoreShow returns core memory, or one block of it (a "##" section, its
// name matched ignoring case) with its heading.
func (w *Workspace) CoreShow(block string) (string, error) {
	data, err := w.readCore()
	if err != nil {
		return "", err
	}
	s, err := core.Show(data, block)
	if err != nil {
		return "", coreErr(w.CorePath(), err)
	}
	return s, nil
}

// CoreBlocks lists the blocks of core memory.
func (w *Workspace) CoreBlocks() ([]core.Block, error) {
	data, err := w.readCore()
	if err != nil {
		return nil, err
	}
	bs, err := core.Blocks(data)
	if err != nil {
		return nil, coreErr(w.CorePath(), err)
	}
	return bs, nil
}

// CoreAppend adds text at the end of a core-memory block, creating the
// block (and memory.md) when missing.
func (w *Workspace) CoreAppend(ctx context.Context, block, text string, o CoreOptions) error {
	return w.coreEdit(ctx, o, func(b []byte) ([]byte, error) {
		return core.Append(b, block, text, core.Options{Limit: o.Limit})
	})
}

// CoreReplace replaces old, which must occur exactly once in the block,
// with new.
func (w *Workspace) CoreReplace(ctx context.Context, block, old, new string, o CoreOptions) error {
	return w.coreEdit(ctx, o, func(b []byte) ([]byte, error) {
		return core.Replace(b, block, old, new, core.Options{Limit: o.Limit})
	})
}

// CoreInsert puts text after line n of the block's body (0: right after
// its heading).
func (w *Workspace) CoreInsert(ctx context.Context, block string, n int, text string, o CoreOptions) error {
	return w.coreEdit(ctx, o, func(b []byte) ([]byte, error) {
		return core.Insert(b, block, n, text, core.Options{Limit: o.Limit})
	})
}

func (w *Workspace) coreEdit(ctx context.Context, o CoreOptions, edit func([]byte) ([]byte, error)) error {
	rel := w.CorePath()
	err := w.update(ctx, rel, safewrite.Options{LockTimeout: o.LockTimeout, Holder: "memoria core"}, edit)
	if err != nil && !errors.Is(err, errIndex) {
		return coreErr(rel, err)
	}
	return err
}

func coreErr(rel string, err error) error {
	if errors.Is(err, core.ErrInvalid) || errors.Is(err, core.ErrNoBlock) || errors.Is(err, core.ErrNotFound) || errors.Is(err, core.ErrTooLarge) {
		return invalidError{fmt.Errorf("%s: %w", rel, err)}
	}
	return fmt.Errorf("%s: %w", rel, err)
}

// ReviewFile is where inferred facts wait for review, workspace-relative:
// outside memory/ and bank/, so that nothing unreviewed is indexed.
const ReviewFile = "review/retain-proposals.md"

// InferOptions shape an inference run. The zero value uses the offline
// heuristics on every log without a Retain section.
type InferOptions struct {
	Since    time.Time // only logs of this day or later; zero means all (ParseTimeBound reads 7d, 2w…)
	Now      time.Time // "now" for the heuristics' relative dates; zero means time.Now()
	LLMURL   string    // an OpenAI-compatible chat endpoint; "" means heuristics only
	LLMModel string    // the model to ask, with LLMURL
	// HTTPClient talks to the LLM endpoint; nil means a default client.
	HTTPClient  *http.Client
	Review      string        // the review file, workspace-relative; "" means ReviewFile
	LockTimeout time.Duration // wait for another writer
}

// InferResult says what an inference run proposed.
type InferResult struct {
	Review    string            // the review file written
	Logs      int               // logs without a Retain section that were read
	Proposals []retain.Proposal // everything proposed, including ones already under review
	Added     int               // proposals new to the review file
}

// InferFacts proposes facts for the daily logs that have no Retain
// section (offline heuristics, or a local LLM when configured) and adds
// them, unticked, to the review file, which is outside the indexed folders:
// nothing inferred enters a log or the index until a person ticks it and
// AcceptProposals moves it.
func (w *Workspace) InferFacts(ctx context.Context, o InferOptions) (InferResult, error) {
	res := InferResult{Review: cmp.Or(o.Review, ReviewFile)}
	if err := checkReviewPath(res.Review); err != nil {
		return res, err
	}
	now := o.Now
	if now.IsZero() {
		now = time.Now()
	}
	since := o.Since
	if o.LLMURL != "" && o.LLMModel == "" {
		return res, invalidError{errors.New("an LLM endpoint needs a model name (--llm-model)")}
	}
	if _, err := w.Sync(ctx); err != nil {
		return res, err
	}
	known, err := w.ix.EntityNames(ctx)
	if err != nil {
		return res, err
	}
	names := retain.Names{}
	var slugs []string
	for _, n := range known {
		// A page's slug as written ("The-Castle") wins over a bare mention's.
		if cur, ok := names[n.Key]; !ok || cur == strings.ToLower(cur) {
			names[n.Key] = n.Slug
		}
	}
	for _, s := range names {
		if !slices.Contains(slugs, s) {
			slugs = append(slugs, s)
		}
	}
	slices.Sort(slugs)
	files, _, err := workspace.List(w.dir)
	if err != nil {
		return res, err
	}
	gone, err := forget.Load(w.dir)
	if err != nil {
		return res, err
	}
	var client *llm.Client
	if o.LLMURL != "" {
		client = &llm.Client{URL: o.LLMURL, Model: o.LLMModel, HTTP: o.HTTPClient}
	}
	for _, f := range files {
		if f.Kind != memory.FileLog {
			continue
		}
		_, day, _ := memory.ClassifyPath(f.Rel)
		if !since.IsZero() && day.Before(memory.Day(since)) {
			continue
		}
		data, _, err := safewrite.Snapshot(w.dir, f.Rel)
		if err != nil {
			return res, err
		}
		if retain.HasRetain(data) {
			continue
		}
		// What the workspace forgot is not proposed again.
		data = forget.Mask(data, gone)
		res.Logs++
		var props []retain.Proposal
		if client != nil {
			props, err = client.Propose(ctx, f.Rel, data, slugs)
		} else {
			props, err = retain.Infer(f.Rel, data, names)
		}
		if err != nil {
			return res, fmt.Errorf("infer from %s: %w", f.Rel, err)
		}
		res.Proposals = append(res.Proposals, props...)
	}
	note := fmt.Sprintf(" (inferred %s)", now.Format("2006-01-02"))
	if client != nil {
		note = fmt.Sprintf(" (inferred %s by %s)", now.Format("2006-01-02"), o.LLMModel)
	}
	err = safewrite.UpdateWith(w.dir, res.Review, safewrite.Options{LockTimeout: o.LockTimeout, Holder: "memoria retain --infer"},
		func(old []byte) ([]byte, error) {
			data, n := retain.AddToReview(old, res.Proposals, note)
			res.Added = n
			return data, nil
		})
	if err != nil {
		return res, fmt.Errorf("writing %s: %w", res.Review, err)
	}
	return res, nil
}

// checkReviewPath refuses a review file inside the indexed folders.
func checkReviewPath(rel string) error {
	if _, _, ok := memory.ClassifyPath(rel); ok {
		return invalidError{fmt.Errorf("review file %s would be indexed: keep it outside memory.md, memory/ and bank/", rel)}
	}
	return nil
}

// AcceptOptions shape AcceptProposals.
type AcceptOptions struct {
	Review      string        // the review file; "" means ReviewFile
	LockTimeout time.Duration // wait for another writer
}

// AcceptResult says what AcceptProposals moved.
type AcceptResult struct {
	Review   string
	Accepted []Retained // facts now in logs
	Skipped  []string   // ticked facts already in their log
	Left     int        // proposals still waiting in the review file
}

// AcceptProposals moves the ticked ("[x]") proposals of the review file
// into the Retain sections of the logs they cite and removes them from the
// review file, all under one hold of the write lock, each file replaced
// atomically; then the index is brought up to date. A ticked line that is
// not a valid fact (after a person's edit) stops everything with an error
// naming its line; nothing is written.
func (w *Workspace) AcceptProposals(ctx context.Context, o AcceptOptions) (AcceptResult, error) {
	res := AcceptResult{Review: cmp.Or(o.Review, ReviewFile)}
	if err := checkReviewPath(res.Review); err != nil {
		return res, err
	}
	k, err := safewrite.Lock(w.dir, safewrite.Options{LockTimeout: o.LockTimeout, Holder: "memoria retain --accept"})
	if err != nil {
		return res, err
	}
	defer k.Unlock()
	review, exists, err := k.ReadFile(res.Review)
	if err != nil {
		return res, err
	}
	if !exists {
		return res, invalidError{fmt.Errorf("no review file %s: run `memoria retain --infer` first", res.Review)}
	}
	gone, err := forget.Load(w.dir)
	if err != nil {
		return res, err
	}
	byLog := map[string][]retain.Fact{}
	var order, done []string
	var lines []int
	for _, p := range retain.ParseReview(review) {
		if !p.Ticked {
			res.Left++
			continue
		}
		f, err := retain.Validate(p.Fact)
		if err == nil && gone.Has(p.Fact) {
			err = errForgotten
		}
		if err != nil {
			return res, invalidError{fmt.Errorf("%s:%d: %w; fix or untick it", res.Review, p.Line, err)}
		}
		if kind, _, ok := memory.ClassifyPath(p.Source.Path); !ok || kind != memory.FileLog {
			return res, invalidError{fmt.Errorf("%s:%d: %s is not a daily log (memory/YYYY-MM-DD.md)", res.Review, p.Line, p.Source.Path)}
		}
		if _, ok := byLog[p.Source.Path]; !ok {
			order = append(order, p.Source.Path)
		}
		byLog[p.Source.Path] = append(byLog[p.Source.Path], f)
		lines = append(lines, p.Line)
	}
	if len(lines) == 0 {
		return res, nil
	}
	// Compute every new file first, so that a bad log writes nothing.
	news := map[string][]byte{}
	for _, rel := range order {
		old, _, err := k.ReadFile(rel)
		if err != nil {
			return res, err
		}
		a, err := retain.Append(old, strings.TrimSuffix(path.Base(rel), ".md"), byLog[rel])
		if err != nil {
			return res, fmt.Errorf("%s: %w", rel, err)
		}
		news[rel] = a.Data
		for i, b := range a.Added {
			res.Accepted = append(res.Accepted, Retained{Bullet: b, Source: memory.Source{Path: rel, Start: a.Lines[i], End: a.Lines[i]}})
		}
		res.Skipped = append(res.Skipped, a.Skipped...)
	}
	// Logs first, then the review file: a crash in between leaves the
	// facts ticked, and accepting again skips them as already present.
	for _, rel := range order {
		if err := k.WriteFile(rel, news[rel]); err != nil {
			return res, err
		}
		done = append(done, rel)
	}
	if err := k.WriteFile(res.Review, retain.RemoveReviewLines(review, lines)); err != nil {
		return res, fmt.Errorf("accepted into %s, but %w", strings.Join(done, ", "), err)
	}
	if _, err := w.Sync(ctx); err != nil {
		return res, fmt.Errorf("accepted, but updating the index failed (the next recall retries): %w", err)
	}
	return res, nil
}
