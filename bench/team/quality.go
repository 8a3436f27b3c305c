//go:build unix

package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"memoria"
	"memoria/eval"
	"memoria/internal/pgtest"
	"memoria/memory"
	"memoria/recall"
	"memoria/team"
)

// qualityK is how many results each question is scored on, as memoria
// eval's default.
const qualityK = 10

// quality measures what a team-wide recall answers, not how fast: every
// workspace of a data set (queries.jsonl in dir, and the folders its
// questions name or, if it has one, every folder of dir/workspaces) is
// indexed into one database, and each question is asked of all of them at
// once (team.RecallAll, lexical, top 10). A question that names its own
// workspace (as longmemeval100's do) counts a result only if it cites
// that workspace: the others are the noise a team-wide recall must rank
// below it, and the same question asked of its own workspace alone is
// the ceiling. A team question names none (teamQuestion): its gold cites
// "workspace:path#L…", wherever the answer is, as bench/teamset's do, and
// its ceiling is the workspace its gold is all in, if it is all in one.
// The workspaces are copied into a temporary folder first, so the data
// set's folder is only read.
// qualityOptions are -quality's switches: -leakproof, -ideal and
// -per-question.
type qualityOptions struct {
	Leakproof, Ideal, PerQuestion bool
}

func quality(ctx context.Context, c *pgtest.Cluster, dir string, qo qualityOptions, w io.Writer) (*qualityReport, error) {
	queries, err := eval.LoadQueries(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		return nil, err
	}
	app, super, err := appDatabase(ctx, c)
	if err != nil {
		return nil, err
	}
	if qo.Leakproof {
		if err := leakproof(ctx, super); err != nil {
			return nil, fmt.Errorf("marking ts_match_vq leakproof: %w", err)
		}
	}
	tmp, err := os.MkdirTemp("", "memoria-bench-quality-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	// One space per workspace a question names or the workspaces folder
	// holds, in the order of their names (the merge's last tie-break is
	// this order).
	src := map[string]string{}
	for _, q := range queries {
		if !teamQuestion(q) {
			src[filepath.Base(q.Workspace)] = q.Workspace
		}
	}
	if ents, err := os.ReadDir(filepath.Join(dir, "workspaces")); err == nil {
		for _, e := range ents {
			if e.IsDir() {
				src[e.Name()] = filepath.Join(dir, "workspaces", e.Name())
			}
		}
	}
	names := slices.Sorted(maps.Keys(src))
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: no workspace: its questions name none and it has no workspaces folder", dir)
	}
	for _, q := range queries {
		for _, g := range q.Gold {
			if ws, _, ok := strings.Cut(g.Path, ":"); teamQuestion(q) && (!ok || src[ws] == "") {
				return nil, fmt.Errorf("%s: question %s: gold %s names no workspace of %s/workspaces", dir, q.ID, g, dir)
			}
		}
	}
	spaces := make([]team.Space, len(names))
	fmt.Fprintf(w, "quality: indexing %d workspaces of %s into one database\n", len(names), dir)
	t := time.Now()
	err = forEach(ctx, len(names), 2, func(i int) error {
		d := filepath.Join(tmp, names[i])
		if _, err := copyTree(src[names[i]], d); err != nil {
			return fmt.Errorf("copying workspace %s: %w", names[i], err)
		}
		ws, err := memoria.Open(ctx, d, memoria.Options{IndexPath: app, IndexName: names[i]})
		if err != nil {
			return fmt.Errorf("indexing workspace %s: %w", names[i], err)
		}
		spaces[i] = team.Space{Name: names[i], WS: ws}
		return nil
	})
	defer func() {
		for _, s := range spaces {
			if s.WS != nil {
				s.WS.Close()
			}
		}
	}()
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "quality: indexed in %s\n", time.Since(t).Round(time.Second))
	byName := map[string]team.Space{}
	all := make([]*memoria.Workspace, len(spaces))
	for i, s := range spaces {
		byName[s.Name] = s
		all[i] = s.WS
	}
	rep := &qualityReport{Spaces: len(spaces)}
	opts := func(q eval.Query) memoria.RecallOptions {
		return memoria.RecallOptions{K: qualityK, Now: q.Now, Lexical: true}
	}
	var asked []int
	// cite maps a team-wide answer to citations, a result of another
	// workspace than the question's own to one that is never the gold,
	// whatever its path. A team question's results all cite their
	// workspace so, as its gold does.
	cite := func(q eval.Query, rs []team.Result) []memory.Source {
		own := filepath.Base(q.Workspace)
		out := make([]memory.Source, len(rs))
		for i, r := range rs {
			out[i] = r.Cite()
			if teamQuestion(q) || r.Workspace != own {
				out[i].Path = r.Workspace + ":" + out[i].Path
			}
		}
		return out
	}
	teamWide := func(ctx context.Context, q eval.Query) ([]memory.Source, error) {
		rs, _, err := team.RecallAll(ctx, spaces, q.Question, opts(q))
		if err != nil {
			return nil, err
		}
		if !qo.Ideal {
			return cite(q, rs), nil
		}
		// What the ideal bound would have asked, from every workspace's
		// answer as part of the team's (its words weighed among all).
		o := opts(q)
		o.Corpus = memoria.NewCorpus(all...)
		per := make([][]recall.Result, len(spaces))
		for i, s := range spaces {
			if per[i], err = s.WS.Recall(ctx, q.Question, o); err != nil {
				return nil, err
			}
		}
		asked = append(asked, idealAsked(per, qualityK))
		return cite(q, rs), nil
	}
	alone := func(ctx context.Context, q eval.Query) ([]memory.Source, error) {
		name, prefix := filepath.Base(q.Workspace), ""
		if teamQuestion(q) {
			name, _ = holder(q)
			prefix = name + ":"
		}
		rs, err := byName[name].WS.Recall(ctx, q.Question, opts(q))
		if err != nil {
			return nil, err
		}
		out := recall.Cites(rs)
		for i := range out {
			out[i].Path = prefix + out[i].Path
		}
		return out, nil
	}
	type qrun struct {
		name string
		f    eval.RecallFunc
		to   *eval.Aggregate
	}
	runs := []qrun{{"team-wide", teamWide, &rep.Team}, {"alone", alone, &rep.Alone}}
	// Alone, each question is asked of the workspace that holds its
	// answer: its own, or the one a team question's gold is all in (a
	// team question whose answer spans workspaces has no such ceiling).
	own := slices.DeleteFunc(slices.Clone(queries), func(q eval.Query) bool {
		_, one := holder(q)
		return teamQuestion(q) && !one
	})
	reports := map[string]*eval.Report{}
	for _, run := range runs {
		qs := queries
		if run.to == &rep.Alone {
			qs = own
			if len(qs) == 0 {
				continue
			}
		}
		r, err := eval.Run(ctx, qs, run.f, eval.RunOptions{Name: run.name, Workers: 1})
		if err != nil {
			return nil, err
		}
		reports[run.name] = r
		o := r.Overall
		*run.to = o
		fmt.Fprintf(w, "quality: %-12s  n %d  R@5 %.3f  R@10 %.3f  MRR %.3f  (mean latency %s)\n", run.name, o.N, o.R5, o.R10, o.MRR, o.Latency.Round(time.Millisecond))
		for _, c := range r.Categories {
			if len(r.Categories) > 1 && c.N > 0 {
				fmt.Fprintf(w, "quality:   %-12s n %d  R@5 %.3f  R@10 %.3f  MRR %.3f\n", c.Category, c.N, c.R5, c.R10, c.MRR)
			}
		}
		if run.to == &rep.Team && len(own) < len(queries) {
			// The same questions as alone, team-wide: the two compare.
			var same []eval.QueryResult
			for _, qr := range r.Queries {
				if slices.ContainsFunc(own, func(q eval.Query) bool { return q.ID == qr.ID }) {
					same = append(same, qr)
				}
			}
			_, rep.TeamOfAlone = eval.Summarize(same)
			o := rep.TeamOfAlone
			fmt.Fprintf(w, "quality:   %-12s n %d  R@5 %.3f  R@10 %.3f  MRR %.3f  (the questions asked alone below)\n", "as alone", o.N, o.R5, o.R10, o.MRR)
		}
	}
	if qo.PerQuestion {
		perQuestion(w, reports["team-wide"], reports["alone"])
	}
	rep.Asked = slices.Sorted(slices.Values(asked))
	if s := rep.Asked; len(s) > 0 {
		fmt.Fprintf(w, "quality: workspaces an exact bound would ask, at best (of %d): median %d, p90 %d, max %d\n",
			len(spaces), s[len(s)/2], s[len(s)*9/10], s[len(s)-1])
	}
	return rep, nil
}

// perQuestion writes a line for each scored question that team-wide
// recall did not answer first: the rank of its first hit team-wide and
// alone (0: none in the top 10; -: not asked alone), and the first three
// results team-wide.
func perQuestion(w io.Writer, team, alone *eval.Report) {
	firstAlone := map[string]int{}
	if alone != nil {
		for _, q := range alone.Queries {
			firstAlone[q.ID] = q.FirstHit
		}
	}
	for _, q := range team.Queries {
		if !q.Scored || q.FirstHit == 1 {
			continue
		}
		a := "-"
		if n, ok := firstAlone[q.ID]; ok {
			a = fmt.Sprint(n)
		}
		var top []string
		for _, r := range q.Results[:min(3, len(q.Results))] {
			top = append(top, r.String())
		}
		fmt.Fprintf(w, "quality: %s [%s] team-wide %d, alone %s: %q; first %s\n", q.ID, q.Category, q.FirstHit, a, q.Question, strings.Join(top, " "))
	}
}

// teamQuestion says whether a question is asked of the team rather than
// of a workspace of its own: it names none, and its gold names the
// workspace of each line ("ops:memory/2026-09-14.md#L7").
func teamQuestion(q eval.Query) bool { return q.Workspace == "" }

// holder returns the workspace a team question's gold lines are all in,
// and whether they are all in one.
func holder(q eval.Query) (string, bool) {
	var name string
	for i, g := range q.Gold {
		ws, _, _ := strings.Cut(g.Path, ":")
		if i > 0 && ws != name {
			return "", false
		}
		name = ws
	}
	return name, name != ""
}

// qualityReport is what quality measured.
type qualityReport struct {
	Spaces      int
	Team, Alone eval.Aggregate
	TeamOfAlone eval.Aggregate // team-wide, the questions Alone covers, when not all
	Asked       []int          // per question, sorted: idealAsked
}

// idealAsked is how many workspaces a team-wide recall would have to ask
// to be sure of its best k if each workspace's bound were exactly the
// best lexical evidence among its results (no real bound is tighter:
// every result's merge key is at most that): the workspaces asked best
// bound first, stopping once the k-th best key found is above the next
// bound. per holds each workspace's results.
func idealAsked(per [][]recall.Result, k int) int {
	bound := make([]float64, len(per))
	for i, rs := range per {
		for _, r := range rs {
			bound[i] = max(bound[i], r.Evidence.Lexical)
		}
	}
	order := make([]int, len(per))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(bound[b], bound[a]) })
	var keys []float64
	for n, i := range order {
		if len(keys) >= k {
			slices.SortFunc(keys, func(a, b float64) int { return cmp.Compare(b, a) })
			if keys[k-1] > bound[i] {
				return n
			}
		}
		for _, r := range per[i] {
			keys = append(keys, team.MergeKey(r))
		}
	}
	return len(order)
}

// qualityMain runs quality on a cluster of its own; it returns the exit
// code.
func qualityMain(ctx context.Context, dir string, qo qualityOptions) int {
	return withCluster(func(c *pgtest.Cluster) int {
		if _, err := quality(ctx, c, dir, qo, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "team: quality:", strings.TrimSpace(err.Error()))
			return 1
		}
		return 0
	})
}
