package memoria

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"memoria/memory"
)

// Bounds of an EntityGraph.
const (
	DefaultGraphEntities = 30
	MaxGraphEntities     = 100
	maxGraphFacts        = 5000
)

// EntityGraphOptions shape an EntityGraph. The zero value graphs the
// DefaultGraphEntities most mentioned entities.
type EntityGraphOptions struct {
	// Entities is how many entities at most, the most mentioned first;
	// 0 means DefaultGraphEntities, above MaxGraphEntities means that.
	Entities int
}

// GraphEdge says how many typed facts name two entities together.
type GraphEdge struct {
	A     string `json:"a"` // slug
	B     string `json:"b"` // slug
	Facts int    `json:"facts"`
}

// EntityGraph is which entities the typed facts name together.
type EntityGraph struct {
	Nodes []EntitySummary `json:"nodes"`
	Edges []GraphEdge     `json:"edges"`
	// Facts is how many facts were read: the newest ones naming any of
	// the nodes, at most a few thousand.
	Facts int `json:"facts"`
}

// EntityGraph reads which of the most mentioned entities the typed facts
// name together (an edge per pair, weighted by the facts naming both),
// from the newest facts that name any of them.
func (w *Workspace) EntityGraph(ctx context.Context, o EntityGraphOptions) (EntityGraph, error) {
	g := EntityGraph{Nodes: []EntitySummary{}, Edges: []GraphEdge{}}
	all, err := w.Entities(ctx)
	if err != nil {
		return g, err
	}
	n := o.Entities
	if n <= 0 {
		n = DefaultGraphEntities
	}
	n = min(n, MaxGraphEntities, len(all))
	g.Nodes = append(g.Nodes, all[:n]...)
	if n < 2 {
		return g, nil
	}
	names, err := w.ix.EntityNames(ctx)
	if err != nil {
		return g, err
	}
	canon := make(map[string]string, len(names))
	for _, kn := range names {
		canon[kn.Key] = strings.ToLower(kn.Slug)
	}
	node := make(map[string]string, n) // lower-cased slug → the node's slug
	slugs := make([]string, 0, n)
	for _, s := range g.Nodes {
		node[strings.ToLower(s.Slug)] = s.Slug
		slugs = append(slugs, s.Slug)
	}
	var items []memory.EntityItem
	err = w.repairing(ctx, func() (err error) {
		items, err = w.ix.EntityItems(ctx, slugs, memory.Filter{}, maxGraphFacts)
		return err
	})
	if err != nil {
		return g, err
	}
	weight := map[[2]string]int{}
	for _, it := range items {
		if it.OnPage || !it.Kind.IsFact() {
			continue
		}
		g.Facts++
		var in []string
		for _, e := range it.Entities {
			key := strings.ToLower(e)
			if c, ok := canon[memory.EntityKey(e)]; ok {
				key = c
			}
			if s, ok := node[key]; ok && !slices.Contains(in, s) {
				in = append(in, s)
			}
		}
		slices.Sort(in)
		for i := range in {
			for j := i + 1; j < len(in); j++ {
				weight[[2]string{in[i], in[j]}]++
			}
		}
	}
	for k, v := range weight {
		g.Edges = append(g.Edges, GraphEdge{A: k[0], B: k[1], Facts: v})
	}
	slices.SortFunc(g.Edges, func(a, b GraphEdge) int {
		return cmp.Or(cmp.Compare(b.Facts, a.Facts), cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B))
	})
	return g, nil
}
