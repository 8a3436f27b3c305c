package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"memoria"
	"memoria/recall"
)

// stringList is a repeatable or comma-separated flag.
type stringList []string

func (s *stringList) String() string { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*s = append(*s, p)
		}
	}
	return nil
}

// runRecall searches memory and prints cited results.
func runRecall(ctx context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("recall", e, &c)
	var o memoria.RecallOptions
	var kinds, entities stringList
	var now, since, until string
	fs.IntVar(&o.K, "k", 25, "`N` results at most")
	fs.IntVar(&o.Budget, "budget", 0, "token budget `N` for all results (0: none; ~4 bytes per token)")
	fs.StringVar(&since, "since", "", "only memory from `WHEN` on: 30d, 2w, 6m, 1y, YYYY-MM-DD, yesterday, last week")
	fs.StringVar(&until, "until", "", "only memory up to `WHEN` (same forms)")
	fs.Var(&kinds, "kind", "only this `KIND`: world, experience, opinion, observation, passage (repeatable)")
	fs.Var(&entities, "entity", "only items mentioning this entity `NAME` (name, alias or slug; repeatable)")
	fs.StringVar(&now, "now", "", "treat `TIME` as the current time: YYYY-MM-DD or YYYY-MM-DDTHH:MM (for reproducible relative times)")
	fs.BoolVar(&o.Explain, "explain", false, "show why each result ranks where it does")
	fs.Float64Var(&o.MinScore, "min-score", 0, "drop results scoring below `S` (0 to 1; scores are relative, 1 for the best result)")
	fs.BoolVar(&o.Lexical, "lexical", false, "no semantic channel, even when the index has vectors")
	format := fs.String("format", "text", "output `FORMAT`: text, compact (one line per result, for agents) or json")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if o.K <= 0 {
		return usagef("--k must be at least 1, got %d", o.K)
	}
	if o.Budget < 0 {
		return usagef("--budget must not be negative, got %d", o.Budget)
	}
	if now != "" {
		if o.Now, err = memoria.ParseNow(now); err != nil {
			return usageError{err.Error()}
		}
	}
	if o.Since, o.Until, err = parseWindow(since, until, o.Now); err != nil {
		return err
	}
	switch *format {
	case "text", "compact":
	case "json":
		c.json = true
	default:
		return usagef("--format must be text, compact or json, got %q", *format)
	}
	if c.json {
		*format = "json" // --json is --format json
	}
	o.Kinds, o.Entities = kinds, entities
	text := strings.Join(pos, " ")
	ws, err := c.open(ctx, e, true)
	if err != nil {
		return err
	}
	defer ws.Close()
	results, err := ws.Recall(ctx, text, o)
	if errors.Is(err, memoria.ErrInvalid) {
		return usagef("%v", err)
	}
	if err != nil {
		return err
	}
	if *format == "json" {
		// The list keeps its shape; each result says, when it is so, that
		// the semantic channel did not run and why (stderr says it once).
		if why := ws.SemanticOff(); why != "" {
			for i := range results {
				results[i].LexicalOnly = why
			}
		}
	}
	return printResults(e, results, *format)
}

// parseWindow reads --since and --until, relative to now (the clock when
// zero); a bad value or an empty window is a usage error.
func parseWindow(since, until string, now time.Time) (time.Time, time.Time, error) {
	if now.IsZero() {
		now = time.Now()
	}
	s, err := memoria.ParseTimeBound(since, now)
	if err != nil {
		return s, s, usagef("--since: %v", err)
	}
	u, err := memoria.ParseUntilBound(until, now)
	if err != nil {
		return s, u, usagef("--until: %v", err)
	}
	if !s.IsZero() && !u.IsZero() && s.After(u) {
		return s, u, usagef("--since %s is after --until %s: the window is empty", since, until)
	}
	return s, u, nil
}

// printResults prints recall results in the --format asked for.
func printResults(e *env, results []recall.Result, format string) error {
	if format == "json" {
		if results == nil {
			return writeJSON(e.stdout, []any{})
		}
		return writeJSON(e.stdout, results)
	}
	if len(results) == 0 {
		fmt.Fprintln(e.stderr, "no results")
		return nil
	}
	if format == "compact" {
		for _, r := range results {
			fmt.Fprintln(e.stdout, compactLine(r))
			writeExplain(e.stdout, r, "  ")
		}
		return nil
	}
	for i, r := range results {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		fmt.Fprintf(e.stdout, "%s  (%s)\n", r.Source, r.Meta(true))
		for _, line := range strings.Split(r.Content, "\n") {
			fmt.Fprintf(e.stdout, "  %s\n", line)
		}
		if note := r.TruncationNote(); note != "" {
			fmt.Fprintf(e.stdout, "  %s\n", note)
		}
		for _, l := range r.SupersededBy {
			fmt.Fprintf(e.stdout, "  superseded by %s\n", l.Source)
		}
		for _, l := range r.Supersedes {
			fmt.Fprintf(e.stdout, "  supersedes %s\n", l.Source)
		}
		for _, src := range r.Also {
			fmt.Fprintf(e.stdout, "  also written at %s\n", src)
		}
		writeExplain(e.stdout, r, "  ")
	}
	return nil
}

// writeExplain prints why a result ranks where it does, as a small table:
// its score, each channel that found it with its rank there (best first),
// and what each of its features added to its score (the fitted ranker's
// weight times the feature), largest first.
//
//	why: score 0.944 (ranker 2.314)
//	  channel   rank
//	  entity       2
//	  opinion      2
//	  lexical      3
//	  features: lexical.top +0.812, current +0.41, typed fact +0.25, off topic −0.3
func writeExplain(w io.Writer, r recall.Result, indent string) {
	x := r.Explain
	if x == nil {
		return
	}
	fmt.Fprintf(w, "%swhy: score %.3f (ranker %.3f)\n", indent, r.Score, x.Fused)
	names := make([]string, 0, len(x.Channels))
	for name := range x.Channels {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool {
		if x.Channels[names[i]] != x.Channels[names[j]] {
			return x.Channels[names[i]] < x.Channels[names[j]]
		}
		return names[i] < names[j]
	})
	if len(names) > 0 {
		fmt.Fprintf(w, "%s  %-9s %5s\n", indent, "channel", "rank")
	}
	for _, name := range names {
		fmt.Fprintf(w, "%s  %-9s %5d\n", indent, name, x.Channels[name])
	}
	feats := make([]string, 0, len(x.Features))
	for name := range x.Features {
		feats = append(feats, name)
	}
	sort.Slice(feats, func(i, j int) bool {
		a, b := math.Abs(x.Features[feats[i]]), math.Abs(x.Features[feats[j]])
		if a != b {
			return a > b
		}
		return feats[i] < feats[j]
	})
	for i, name := range feats {
		feats[i] = fmt.Sprintf("%s %+.3g", strings.ReplaceAll(name, "_", " "), x.Features[name])
	}
	if len(feats) > 0 {
		fmt.Fprintf(w, "%s  features: %s\n", indent, strings.Join(feats, ", "))
	}
}

// compactMax is how many bytes of a result's content a compact line keeps.
const compactMax = 200

// compactLine renders a result on one line for agents, e.g.
//
//	[opinion c=0.95 2025-11-27 @Peter] Prefers concise replies… (memory/2025-11-27.md#L97)
//	[passage imported from codex] The staging cluster is Kestrel. (memory/imports/codex/MEMORY.md#L3)
//
// Content is folded to one line (list markers and indentation dropped)
// and cut at compactMax bytes with "…"; a superseded fact says by what.
func compactLine(r recall.Result) string {
	meta := []string{string(r.Kind)}
	if r.Confidence != nil {
		meta = append(meta, fmt.Sprintf("c=%.2f", *r.Confidence))
	}
	if r.Timestamp != "" {
		meta = append(meta, r.Timestamp)
	}
	if r.EventTime != nil && (r.EventTime.Start != r.Timestamp || r.EventTime.End != r.Timestamp) {
		ev := r.EventTime.Start
		if r.EventTime.End != r.EventTime.Start {
			ev += "…" + r.EventTime.End
		}
		meta = append(meta, "event "+ev)
	}
	meta = append(meta, r.Origin()...)
	for _, en := range r.Entities {
		meta = append(meta, "@"+en)
	}
	var parts []string
	for _, line := range strings.Split(r.Content, "\n") {
		line = strings.TrimSpace(line)
		line = strings.TrimSpace(strings.TrimLeft(line, "-*+>"))
		if line != "" {
			parts = append(parts, line)
		}
	}
	text := strings.Join(parts, " ")
	if len(text) > compactMax {
		text = strings.TrimSpace(recall.ClipBytes(text, compactMax)) + "…"
	}
	source := r.Source
	if len(r.Also) > 0 {
		source += "; also " + strings.Join(r.Also, ", ")
	}
	line := fmt.Sprintf("[%s] %s (%s)", strings.Join(meta, " "), text, source)
	if len(r.SupersededBy) > 0 {
		line += " superseded by " + r.SupersededBy[0].Source
	}
	return line
}
