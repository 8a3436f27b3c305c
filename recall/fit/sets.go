package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"

	"memoria"
	"memoria/eval"
	"memoria/memory"
	"memoria/recall"
)

// set is one development set: its queries and its workspaces, open.
type set struct {
	name    string
	queries []eval.Query
	spaces  map[string]*memoria.Workspace
}

// loadSets opens every set's workspaces with their indexes in dir (one
// per workspace and config), embedded with the config's model.
func loadSets(ctx context.Context, paths []string, c config, dir string) ([]*set, error) {
	var out []*set
	for _, p := range paths {
		qs, err := eval.LoadQueries(p)
		if err != nil {
			return nil, err
		}
		s := &set{name: strings.TrimSuffix(filepath.Dir(p), "/"), spaces: map[string]*memoria.Workspace{}}
		for _, q := range qs {
			if !q.Scored || len(q.Gold) == 0 {
				continue
			}
			s.queries = append(s.queries, q)
			if _, ok := s.spaces[q.Workspace]; ok {
				continue
			}
			abs, err := filepath.Abs(q.Workspace)
			if err != nil {
				return nil, err
			}
			sum := sha256.Sum256([]byte(abs))
			name := filepath.Base(abs) + "-" + hex.EncodeToString(sum[:4]) + "-" + c.name
			o := memoria.Options{IndexPath: filepath.Join(dir, name, "index.sqlite"), Warn: func(string) {}, Embedder: c.embedder}
			ws, err := memoria.Open(ctx, abs, o)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
			if c.embedder != nil {
				if _, err := ws.Embed(ctx, c.embedder, nil); err != nil {
					return nil, fmt.Errorf("%s: embed: %w", p, err)
				}
			}
			s.spaces[q.Workspace] = ws
		}
		out = append(out, s)
	}
	return out, nil
}

func closeSets(sets []*set) {
	for _, s := range sets {
		for _, ws := range s.spaces {
			ws.Close()
		}
	}
}

// recallOptions are the options every recall of the fit runs with: as
// `memoria eval` runs them (the top 10).
func recallOptions(q eval.Query, c config, r *recall.Ranker) memoria.RecallOptions {
	return memoria.RecallOptions{K: 10, Now: q.Now, Lexical: c.embedder == nil, Ranker: r}
}

// example is one query's candidates: their features, and which of them
// cite a gold line.
type example struct {
	set   int
	x     [][]float64
	label []label
}

// label is what a candidate is to its query.
type label int8

const (
	negative label = iota
	positive       // cites a gold line
	// near is a passage within reach of a gold line: packing widens a
	// passage with its neighbours (recall.DefaultLines), and the result
	// may then cite the gold line or not. Left out of the pairs.
	near
	// outdated cites a line the question's answer replaced (the query's
	// superseded lines): a negative that the current version must beat
	// (eval's CurFirst).
	outdated
)

func citesAny(src memory.Source, lines []memory.Source) bool {
	for _, g := range lines {
		if eval.Hits(src, g) {
			return true
		}
	}
	return false
}

// unfitted is a ranker with this build's features, no weights, and the
// config's Near: the candidates are collected with it, whatever the
// generated file holds.
func unfitted(c config) *recall.Ranker {
	return &recall.Ranker{Name: "unfitted", Features: recall.FeatureNames(), Weights: make([]float64, recall.NumFeatures()), Near: c.near}
}

// collect runs every query of the sets and keeps each one's candidate
// pool, labelled by the gold lines. The pool and its features do not
// depend on the ranker's weights.
func collect(ctx context.Context, sets []*set, c config) ([]example, error) {
	var out []example
	for si, s := range sets {
		for _, q := range s.queries {
			ex := example{set: si}
			o := recallOptions(q, c, unfitted(c))
			o.Candidates = func(cands []recall.Candidate) {
				for _, cand := range cands {
					ex.x = append(ex.x, cand.Features)
					ex.label = append(ex.label, labelOf(cand, q.Gold, q.Superseded))
				}
			}
			if _, err := s.spaces[q.Workspace].Recall(ctx, q.Question, o); err != nil {
				return nil, fmt.Errorf("%s %s: %w", s.name, q.ID, err)
			}
			out = append(out, ex)
		}
	}
	return out, nil
}

func labelOf(c recall.Candidate, gold, superseded []memory.Source) label {
	l := negative
	for _, g := range superseded {
		if eval.Hits(c.Source, g) && !citesAny(c.Source, gold) {
			return outdated
		}
	}
	for _, g := range gold {
		if eval.Hits(c.Source, g) {
			return positive
		}
		reach := c.Source
		reach.Start, reach.End = max(1, reach.Start-(recall.DefaultLines-1)), reach.End+(recall.DefaultLines-1)
		if c.Kind == memory.KindPassage && eval.Hits(reach, g) {
			l = near
		}
	}
	return l
}

// score runs one set's queries through recall with the ranker r, as
// `memoria eval` scores them.
func score(ctx context.Context, s *set, c config, r *recall.Ranker) (*eval.Report, error) {
	fn := func(ctx context.Context, q eval.Query) ([]memory.Source, error) {
		res, err := s.spaces[q.Workspace].Recall(ctx, q.Question, recallOptions(q, c, r))
		if err != nil {
			return nil, err
		}
		return recall.Cites(res), nil
	}
	return eval.Run(ctx, s.queries, fn, eval.RunOptions{Name: s.name, Workers: 1})
}
