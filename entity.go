package memoria

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"memoria/memory"
	"memoria/query"
	"memoria/recall"
)

// ErrUnknownEntity is returned (wrapped) by Entity for a name no entity
// is known by.
var ErrUnknownEntity = errors.New("unknown entity")

// ErrAmbiguousEntity is returned (wrapped, in a message that lists the
// candidates) by Entity and Recall for a name several entities answer to
// ("Alex" for Alex-Kim and Alex-Moreau).
var ErrAmbiguousEntity = errors.New("ambiguous")

// maxEntityItems bounds what Entity reads about one entity.
const maxEntityItems = 2000

// EntityReport is what memory holds about one entity: its page, its
// current facts, its timeline and its opinions, each result cited to its
// lines.
type EntityReport struct {
	Slug    string   `json:"slug"`
	Name    string   `json:"name"`
	Aliases []string `json:"aliases"`
	// Page is the entity's page (bank/entities/<Slug>.md), one result per
	// run of adjacent lines; empty when the entity has no page.
	Page []recall.Result `json:"page"`
	// Current are the world facts and observations about the entity that
	// no later fact supersedes, newest first; curated facts (bank/,
	// memory.md) first.
	Current []recall.Result `json:"current"`
	// Timeline are the dated facts about the entity (world, experience,
	// observation, opinion) in time order: event time where the text
	// names one, else the day written. Superseded facts stay, linked to
	// their successors.
	Timeline []recall.Result `json:"timeline"`
	// Opinions are the opinions about the entity: current ones before
	// superseded ones, then by confidence, then newest first.
	Opinions []recall.Result `json:"opinions"`
}

// Entity reports what memory holds about the entity known by name, as
// people write it (resolveEntity). It brings the index up to date first.
// An unknown name is an error that says so (ErrUnknownEntity); a name
// several entities answer to is one that lists them (ErrAmbiguousEntity).
func (w *Workspace) Entity(ctx context.Context, name string) (*EntityReport, error) {
	if _, err := w.Sync(ctx); err != nil {
		return nil, err
	}
	table, err := w.names(ctx)
	if err != nil {
		return nil, fmt.Errorf("entity %s: %w", name, err)
	}
	slug, err := w.resolveEntity(ctx, table, name)
	if errors.Is(err, ErrUnknownEntity) {
		return nil, fmt.Errorf("%w (`memoria entity` lists the known ones)", err)
	}
	if err != nil {
		return nil, err
	}
	rep := &EntityReport{Slug: slug, Name: memory.EntityName(slug), Aliases: []string{}}
	page, hasPage, err := w.ix.EntityPageOf(ctx, slug)
	if err != nil {
		return nil, fmt.Errorf("entity %s: %w", name, err)
	}
	if hasPage {
		rep.Slug, rep.Name, rep.Aliases = page.Slug, page.Name, append(rep.Aliases, page.Aliases...)
	}
	items, err := w.ix.EntityItems(ctx, []string{rep.Slug}, memory.Filter{}, maxEntityItems)
	if err != nil {
		return nil, fmt.Errorf("entity %s: %w", name, err)
	}
	if !hasPage {
		// The table keeps a mention's slug in lower case; the report
		// spells it as the memory does.
		rep.Slug = spelled(rep.Slug, items)
		rep.Name = memory.EntityName(rep.Slug)
	}
	var pageItems, facts []memory.Item
	for _, it := range items {
		switch {
		case it.OnPage:
			pageItems = append(pageItems, it.Item)
		case it.Kind.IsFact():
			facts = append(facts, it.Item)
		}
	}
	rep.Page = pageRuns(pageItems)
	rep.Current, rep.Timeline, rep.Opinions = []recall.Result{}, []recall.Result{}, []recall.Result{}
	results := recall.Versions(facts)
	for i, r := range results {
		it := facts[i]
		if it.Kind == memory.KindOpinion {
			rep.Opinions = append(rep.Opinions, r)
		} else if len(r.SupersededBy) == 0 && it.Kind != memory.KindExperience {
			rep.Current = append(rep.Current, r)
		}
		if !it.Written.IsZero() || it.Event != nil {
			rep.Timeline = append(rep.Timeline, r)
		}
	}
	sort.SliceStable(rep.Current, func(i, j int) bool {
		a, b := rep.Current[i], rep.Current[j]
		if (a.Timestamp == "") != (b.Timestamp == "") {
			return a.Timestamp == ""
		}
		return a.Timestamp > b.Timestamp
	})
	sort.SliceStable(rep.Timeline, func(i, j int) bool { return when(rep.Timeline[i]) < when(rep.Timeline[j]) })
	// A fact written in a log and copied into bank/ (by a person or by
	// reflect) is one entry, with both sources. For an opinion, the entry
	// of bank/opinions.md is the one kept: its confidence is the one
	// reflect keeps following the evidence.
	curated := func(r recall.Result) bool { return strings.HasPrefix(r.Source, "bank/opinions.md#") }
	rep.Current, rep.Timeline = recall.FoldCopies(rep.Current, nil), recall.FoldCopies(rep.Timeline, nil)
	rep.Opinions = recall.FoldCopies(rep.Opinions, curated)
	sortOpinions(rep.Opinions)
	return rep, nil
}

// sortOpinions puts current opinions before superseded ones, then the
// more confident first, then the newest.
func sortOpinions(ops []recall.Result) {
	sort.SliceStable(ops, func(i, j int) bool {
		a, b := ops[i], ops[j]
		if (len(a.SupersededBy) == 0) != (len(b.SupersededBy) == 0) {
			return len(a.SupersededBy) == 0
		}
		if ca, cb := confidence(a), confidence(b); ca != cb {
			return ca > cb
		}
		return a.Timestamp > b.Timestamp
	})
}

// resolveEntity maps a name as people write it to the one entity it
// stands for, by the table that finds names in a question's text
// (query.NameTable.Resolve), so that Entity, RecallOptions.Entities and
// "tell me about X" agree: slug, display name or alias, any case, with or
// without diacritics, '-' or a space; a word of only one entity's slug
// ("Atlas" for Project-Atlas). An unknown name wraps ErrUnknownEntity; a
// name several entities answer to wraps ErrAmbiguousEntity, in one line
// that names them.
func (w *Workspace) resolveEntity(ctx context.Context, table *query.NameTable, name string) (string, error) {
	n := strings.TrimPrefix(strings.TrimSpace(name), "@")
	if strings.ContainsAny(n, `/\`) || strings.HasPrefix(n, ".") || strings.Contains(n, "..") {
		// Slugs are file names: a name that holds a path ("../Пётр",
		// ".Zoë") names no entity, however it would fold, as an unsafe
		// @mention names none.
		return "", fmt.Errorf("%w %q (%w)", ErrUnknownEntity, name, memory.ErrUnsafeSlug)
	}
	slug, candidates := table.Resolve(n)
	switch {
	case slug != "":
		return slug, nil
	case len(candidates) == 0:
		return "", fmt.Errorf("%w %q", ErrUnknownEntity, name)
	}
	// The table has a mentioned entity's slug in lower case; the list of
	// entities spells each as written. Read only now: an ambiguous name is
	// rare, the list costs a scan of the mentions. Should it fail, the
	// table's spelling still names them.
	if list, err := w.ix.EntityList(ctx); err == nil {
		for i, c := range candidates {
			for _, en := range list {
				if memory.EntityKey(en.Slug) == memory.EntityKey(c) {
					candidates[i] = en.Slug
				}
			}
		}
	}
	slices.Sort(candidates)
	return "", fmt.Errorf("entity %q is %w: %s; name one", name, ErrAmbiguousEntity, strings.Join(candidates, ", "))
}

// spelled is slug as the items that mention it write it (the first that
// does), or slug when none does.
func spelled(slug string, items []memory.EntityItem) string {
	key := memory.EntityKey(slug)
	for _, it := range items {
		for _, e := range it.Entities {
			if memory.EntityKey(e) == key {
				return e
			}
		}
	}
	return slug
}

// when is the day a timeline entry is about: its event's first day, else
// the day written.
func when(r recall.Result) string {
	if r.EventTime != nil {
		return r.EventTime.Start
	}
	return r.Timestamp
}

func confidence(r recall.Result) float64 {
	if r.Confidence == nil {
		return 0.5
	}
	return *r.Confidence
}

// pageRuns merges the page's lines (in page order) into one result per
// run of adjacent lines.
func pageRuns(items []memory.Item) []recall.Result {
	sort.SliceStable(items, func(i, j int) bool { return items[i].Source.Start < items[j].Source.Start })
	var runs []memory.Item
	for _, it := range items {
		if n := len(runs); n > 0 && runs[n-1].Source.Path == it.Source.Path && runs[n-1].Source.End+1 >= it.Source.Start {
			last := &runs[n-1]
			if it.Source.End > last.Source.End {
				last.Source.End = it.Source.End
				last.Content += "\n" + it.Content
			}
			continue
		}
		runs = append(runs, it)
	}
	return recall.Versions(runs)
}

// EntitySummary is one entity as Entities lists it.
type EntitySummary = memory.EntitySummary

// Entities lists every entity the memory knows, mentioned in a fact or a
// passage or with a page, most mentioned first.
func (w *Workspace) Entities(ctx context.Context) ([]EntitySummary, error) {
	var out []EntitySummary
	err := w.repairing(ctx, func() error {
		if _, err := w.ix.Sync(ctx); err != nil {
			return err
		}
		var err error
		out, err = w.ix.EntityList(ctx)
		return err
	})
	return out, err
}
