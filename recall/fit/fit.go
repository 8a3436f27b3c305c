package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"memoria/eval"
	"memoria/recall"
)

// The model is linear, fitted as a pairwise logistic ranker: for each
// query, every candidate that cites a gold line should score above every
// one that does not, P(a above b) = σ(w·(xa − xb)). As LambdaRank weighs
// them, a pair counts by how much swapping the two would change the
// query's NDCG under the current weights, so the fit cares for the top of
// the list, where the answers an agent reads are; each query weighs at
// most 1. An L2 penalty keeps the weights of rare features small.
// Newton's method minimises the loss, from the prior, a fixed number of
// steps: the same data give the same weights.

// lambda is the L2 penalty per query of the training data. It pulls the
// weights towards the prior (reciprocal-rank fusion: the "fused" feature
// weighs 1, every other 0), so a channel or a feature the development
// sets rarely show (the ongoing channel, a quoted phrase) keeps its
// fusion vote rather than losing it.
const lambda = 0.01

// prior is the weights the penalty pulls towards.
func prior(names []string) []float64 {
	w := make([]float64, len(names))
	for i, n := range names {
		if n == "fused" {
			w[i] = 1
		}
	}
	return w
}

// newtonSteps is the number of iterations: the first few with every pair
// alike (the convex pairwise loss), then the rest weighted as LambdaRank.
const (
	pairwiseSteps = 8
	newtonSteps   = 20
)

// fit fits weights on the examples whose set is not left out.
func fit(data []example, leaveOut func(set int) bool) *recall.Ranker {
	names := recall.FeatureNames()
	n := len(names)
	var train []example
	for _, ex := range data {
		if leaveOut != nil && leaveOut(ex.set) {
			continue
		}
		pos, neg := 0, 0
		for _, l := range ex.label {
			switch l {
			case positive:
				pos++
			case negative, outdated:
				neg++
			}
		}
		if pos > 0 && neg > 0 {
			train = append(train, ex)
		}
	}
	reg := lambda * float64(len(train))
	w0 := prior(names)
	w := slices.Clone(w0)
	d := make([]float64, n)
	nz := make([]int, 0, n)
	for step := 0; step < newtonSteps; step++ {
		g := make([]float64, n)
		h := make([][]float64, n)
		for i := range h {
			h[i] = make([]float64, n)
			h[i][i] = reg
			g[i] = reg * (w[i] - w0[i])
		}
		for _, ex := range train {
			for _, pr := range pairsOf(ex, w, step >= pairwiseSteps) {
				nz = nz[:0]
				for k := range d {
					d[k] = ex.x[pr.p][k] - ex.x[pr.q][k]
					if d[k] != 0 {
						nz = append(nz, k)
					}
				}
				z := 0.0
				for _, k := range nz {
					z += w[k] * d[k]
				}
				s := sigmoid(z)
				gc, hc := pr.w*(s-1), pr.w*s*(1-s)
				for _, i := range nz {
					g[i] += gc * d[i]
					hi := h[i]
					for _, j := range nz {
						hi[j] += hc * d[i] * d[j]
					}
				}
			}
		}
		delta := solve(h, g)
		for i := range w {
			w[i] -= delta[i]
		}
	}
	for i := range w {
		w[i] = round(w[i])
	}
	return &recall.Ranker{Features: names, Weights: w}
}

// pair is a positive candidate p that should rank above a negative q,
// with its weight.
type pair struct {
	p, q int
	w    float64
}

// pairsOf lists a query's pairs. Plain, every pair weighs alike and the
// query 1 in all; lambda-weighted, a pair weighs the change of NDCG that
// swapping its two candidates in the ranking by w would make.
func pairsOf(ex example, w []float64, lambdaWeighted bool) []pair {
	var pos, neg, old []int
	for i, l := range ex.label {
		switch l {
		case positive:
			pos = append(pos, i)
		case negative:
			neg = append(neg, i)
		case outdated:
			neg = append(neg, i)
			old = append(old, i)
		}
	}
	// The current version above the one it replaced is a measure of its
	// own (CurFirst): those pairs weigh as much again as the query, at
	// every step.
	var out []pair
	for _, p := range pos {
		for _, q := range old {
			out = append(out, pair{p, q, 1 / float64(len(pos)*len(old))})
		}
	}
	if !lambdaWeighted {
		each := 1 / float64(len(pos)*len(neg))
		for _, p := range pos {
			for _, q := range neg {
				out = append(out, pair{p, q, each})
			}
		}
		return out
	}
	// Ranks by score under w, ties by pool order.
	order := make([]int, len(ex.x))
	score := make([]float64, len(ex.x))
	for i, x := range ex.x {
		order[i] = i
		for k, v := range x {
			score[i] += w[k] * v
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return score[order[a]] > score[order[b]] })
	rankOf := make([]int, len(order))
	for r, i := range order {
		rankOf[i] = r + 1
	}
	ideal := 0.0
	for r := 1; r <= len(pos); r++ {
		ideal += discount(r)
	}
	for _, p := range pos {
		for _, q := range neg {
			if dw := math.Abs(discount(rankOf[p])-discount(rankOf[q])) / ideal; dw > 0 {
				out = append(out, pair{p, q, dw})
			}
		}
	}
	return out
}

// discount is NDCG's discount of rank r.
func discount(r int) float64 { return 1 / math.Log2(float64(r)+1) }

// round keeps four significant digits: the file holds what matters, and
// the last bits of a sum, which depend on the order of additions, do not
// reach it.
func round(v float64) float64 {
	if v == 0 {
		return 0
	}
	p := math.Pow(10, 3-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}

func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// solve solves h·x = g by Gaussian elimination with partial pivoting (h is
// symmetric positive definite: the penalty keeps it so).
func solve(h [][]float64, g []float64) []float64 {
	n := len(g)
	a := make([][]float64, n)
	for i := range a {
		a[i] = append(append(make([]float64, 0, n+1), h[i]...), g[i])
	}
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		for r := c + 1; r < n; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k <= n; k++ {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := a[r][n]
		for k := r + 1; k < n; k++ {
			s -= a[r][k] * x[k]
		}
		x[r] = s / a[r][r]
	}
	return x
}

// crossValidate scores each set with weights fitted on the others and
// prints one line per set and the overall figures: the mean over all
// queries, and the mean over sets.
func crossValidate(ctx context.Context, w io.Writer, sets []*set, data []example, c config, inSample bool, reports string) error {
	if inSample {
		fmt.Fprintf(w, "in sample, %s: each set scored with weights fitted on all (a diagnostic, not a measure)\n", c.name)
	} else {
		fmt.Fprintf(w, "leave-one-set-out, %s: each set scored with weights fitted without it\n", c.name)
	}
	fmt.Fprintf(w, "%-28s %4s %6s %6s %6s %8s %8s\n", "set", "n", "R@5", "R@10", "MRR", "CurFirst", "InWin@10")
	var all eval.Aggregate
	var r5, r10, mrr float64
	for si, s := range sets {
		r := fit(data, func(set int) bool { return set == si && !inSample })
		r.Name, r.Near = c.name+"-without-"+s.name, c.near
		rep, err := score(ctx, s, c, r)
		if err != nil {
			return err
		}
		if reports != "" {
			f, err := os.Create(filepath.Join(reports, strings.ReplaceAll(s.name, "/", "_")+".json"))
			if err != nil {
				return err
			}
			err = rep.WriteJSON(f)
			f.Close()
			if err != nil {
				return err
			}
		}
		o := rep.Overall
		fmt.Fprintf(w, "%-28s %4d %6.3f %6.3f %6.3f %8s %8s\n", s.name, o.N, o.R5, o.R10, o.MRR, opt(o.CurrentFirst), opt(o.InWindow))
		all.N += o.N
		all.R5 += o.R5 * float64(o.N)
		all.R10 += o.R10 * float64(o.N)
		all.MRR += o.MRR * float64(o.N)
		r5, r10, mrr = r5+o.R5, r10+o.R10, mrr+o.MRR
	}
	n, k := float64(all.N), float64(len(sets))
	fmt.Fprintf(w, "%-28s %4d %6.3f %6.3f %6.3f\n", "overall (per query)", all.N, all.R5/n, all.R10/n, all.MRR/n)
	fmt.Fprintf(w, "%-28s %4d %6.3f %6.3f %6.3f\n", "overall (per set)", len(sets), r5/k, r10/k, mrr/k)
	return nil
}

func opt(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.3f", *v)
}
