package memoria

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"memoria/memory"
	"memoria/recall"
)

// ErrUnknownEntity is returned (wrapped) by Entity for a name no entity
// is known by.
var ErrUnknownEntity = errors.New("unknown entity")

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

// Entity reports what memory holds about the entity known by name (its
// slug, display name or an alias, any case). It brings the index up to
// date first. An unknown name is an error that says so.
func (w *Workspace) Entity(ctx context.Context, name string) (*EntityReport, error) {
	if _, err := w.Sync(ctx); err != nil {
		return nil, err
	}
	slug, ok, err := w.ix.ResolveEntity(ctx, strings.TrimPrefix(strings.TrimSpace(name), "@"))
	if err != nil {
		return nil, fmt.Errorf("entity %s: %w", name, err)
	}
	if !ok {
		return nil, fmt.Errorf("%w %q (`memoria entity` lists the known ones)", ErrUnknownEntity, name)
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
	sort.SliceStable(rep.Opinions, func(i, j int) bool {
		a, b := rep.Opinions[i], rep.Opinions[j]
		if (len(a.SupersededBy) == 0) != (len(b.SupersededBy) == 0) {
			return len(a.SupersededBy) == 0
		}
		if ca, cb := confidence(a), confidence(b); ca != cb {
			return ca > cb
		}
		return a.Timestamp > b.Timestamp
	})
	return rep, nil
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
