package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"memoria"
	"memoria/reflect"
)

// runReflect updates entity pages, opinions and core proposals from the
// daily logs, or with --dry-run prints the diff it would apply.
func runReflect(ctx context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("reflect", e, &c)
	since := fs.String("since", "", "only facts written since `WHEN` (7d, 2w, YYYY-MM-DD) are new evidence; default all history")
	nowFlag := fs.String("now", "", "\"now\" for --since, `YYYY-MM-DD[THH:MM]`; later facts are ignored")
	dry := fs.Bool("dry-run", false, "print a unified diff of what would change and write nothing")
	lexical := fs.Bool("lexical", false, "match opinion facts to opinions by shared words only, without the embedding model")
	minFacts := fs.Int("min-facts", 0, fmt.Sprintf("`N` facts an entity needs before its page is created (default %d)", reflect.MinFactsForPage))
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("reflect takes no arguments, got %q", pos[0])
	}
	var now time.Time
	if *nowFlag != "" {
		if now, err = memoria.ParseNow(*nowFlag); err != nil {
			return usagef("--now: %v", err)
		}
	}
	if *minFacts < 0 {
		return usagef("--min-facts must be 0 or more")
	}
	ws, err := c.open(ctx, e, false)
	if err != nil {
		return err
	}
	defer ws.Close()
	sinceT, err := memoria.ParseTimeBound(*since, cmp.Or(now, time.Now()))
	if err != nil {
		return usagef("--since: %v", err)
	}
	rep, err := ws.Reflect(ctx, memoria.ReflectOptions{Since: sinceT, Now: now, DryRun: *dry, MinFacts: *minFacts, Lexical: *lexical})
	if err != nil && errors.Is(err, memoria.ErrInvalid) {
		return usagef("%v", err)
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", oneLine(w))
	}
	for _, p := range rep.Pages {
		if p.HandEdited {
			fmt.Fprintf(e.stderr, "note: %s: the managed block was edited by hand; reflect kept it (marked memoria:edited) and wrote a fresh block below it\n", p.Path)
		}
	}
	if c.json {
		if jerr := printReflectJSON(e, rep); jerr != nil {
			return jerr
		}
		return err
	}
	if *dry {
		fmt.Fprint(e.stdout, rep.Diff)
	}
	verb := "changed"
	if *dry {
		verb = "would change"
	}
	for _, oc := range rep.Opinions {
		switch {
		case oc.Created:
			fmt.Fprintf(e.stdout, "opinion new (c=%s): %s\n", reflect.FormatConfidence(oc.After), short(oc.Statement))
		case oc.Flipped:
			fmt.Fprintf(e.stdout, "opinion flipped (c=%s): %s; superseded: %s\n", reflect.FormatConfidence(oc.After), short(oc.Statement), short(oc.Old))
		default:
			fmt.Fprintf(e.stdout, "opinion c %s->%s: %s\n", reflect.FormatConfidence(oc.Before), reflect.FormatConfidence(oc.After), short(oc.Statement))
		}
	}
	for _, m := range rep.Stale {
		what := "marked stale"
		if !strings.HasPrefix(m.Path, "bank/") {
			what = "proposed for review"
		}
		fmt.Fprintf(e.stdout, "stale, %s: %s#L%d %q; since %s %s says: %s\n", what, m.Path, m.Line, short(m.Old), m.Day, m.By, short(m.Current))
	}
	created := 0
	for _, p := range rep.Pages {
		if p.Created {
			created++
		}
	}
	fmt.Fprintf(e.stdout, "%d facts read, %d new opinion facts; %d opinions, %d entity pages (%d new), %d core proposals: %d files %s\n",
		rep.Facts, rep.NewEvidence, len(rep.Opinions), len(rep.Pages), created, rep.Proposals, len(rep.Changed), verb)
	if rep.Proposals > 0 && !*dry {
		fmt.Fprintf(e.stdout, "review the core-memory proposals in %s\n", reflect.ProposalsPath)
	}
	return err
}

func short(s string) string {
	r := []rune(s)
	if len(r) > 100 {
		return string(r[:99]) + "…"
	}
	return s
}

func printReflectJSON(e *env, rep memoria.ReflectReport) error {
	type page struct {
		Path       string `json:"path"`
		Created    bool   `json:"created"`
		HandEdited bool   `json:"hand_edited"`
	}
	type opinion struct {
		Statement string   `json:"statement"`
		Entities  []string `json:"entities"`
		Before    float64  `json:"before"`
		After     float64  `json:"after"`
		Created   bool     `json:"created"`
		Flipped   bool     `json:"flipped"`
		Old       string   `json:"superseded,omitempty"`
		Evidence  []string `json:"evidence"`
	}
	out := struct {
		DryRun      bool                `json:"dry_run"`
		Facts       int                 `json:"facts"`
		NewEvidence int                 `json:"new_opinion_facts"`
		Opinions    []opinion           `json:"opinions"`
		Pages       []page              `json:"pages"`
		Proposals   int                 `json:"core_proposals"`
		Stale       []reflect.StaleMark `json:"stale"`
		Changed     []string            `json:"changed"`
		Warnings    []string            `json:"warnings"`
		Diff        string              `json:"diff,omitempty"`
	}{DryRun: rep.DryRun, Facts: rep.Facts, NewEvidence: rep.NewEvidence, Proposals: rep.Proposals,
		Opinions: []opinion{}, Pages: []page{}, Stale: append([]reflect.StaleMark{}, rep.Stale...), Changed: append([]string{}, rep.Changed...), Warnings: append([]string{}, rep.Warnings...)}
	if rep.DryRun {
		out.Diff = rep.Diff
	}
	for _, o := range rep.Opinions {
		out.Opinions = append(out.Opinions, opinion{o.Statement, append([]string{}, o.Entities...), o.Before, o.After, o.Created, o.Flipped, o.Old, append([]string{}, o.Evidence...)})
	}
	for _, p := range rep.Pages {
		out.Pages = append(out.Pages, page{p.Path, p.Created, p.HandEdited})
	}
	return writeJSON(e.stdout, out)
}
