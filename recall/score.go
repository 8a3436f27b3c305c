package recall

import (
	"context"
	"fmt"
	"slices"

	"memoria/memory"
	"memoria/query"
)

// linkVersions links the facts about the same entity and attribute among
// the candidates (update-awareness), and for a question about now or a
// past window adds the other version of a fact the question should see.
func (s *search) linkVersions(ctx context.Context) error {
	p := s.p
	cands, mentions := s.pl.list(), mentionsOf(p.Entities) // the pool before injectVersions adds to it
	if len(p.Entities) == 0 && (p.Intent == query.Current || p.Intent == query.Past || p.pastWindow()) {
		// A question about a time that names no entity: compare the best
		// facts with what else is known about their entities (one query).
		// Other questions compare the candidates among themselves only,
		// which costs no query.
		if slugs := topFactEntities(cands, 3); len(slugs) > 0 {
			f := p.Filter
			if len(f.Kinds) == 0 {
				f.Kinds = []memory.Kind{memory.KindWorld, memory.KindOpinion}
			}
			its, err := s.ix.EntityItems(ctx, slugs, f, updateDepth)
			if err != nil {
				return fmt.Errorf("recall: update: %w", err)
			}
			for _, it := range its {
				if it.Kind.IsFact() {
					s.known = append(s.known, it.Item)
				}
			}
		}
	}
	s.links = supersede(cands, s.known, mentions)
	s.recent = asksNow(p, cands, s.links)
	if s.recent || p.pastWindow() {
		// Changes said in prose count only where versions do; they do not
		// make a question one about now (asksNow), so they are read after.
		linkProseChanges(cands, s.links, mentions)
		injectVersions(p, s.pl, s.links)
	}
	return nil
}

// score orders the pool: the fitted ranker over each candidate's
// features, or a listing's own order; under Plan.Floor, only what is
// about the question.
func (s *search) score(ranker *Ranker) []scored {
	p := &s.p
	p.near = ranker.near()
	p.topic = topicOf(s.topic)
	var heavy []string
	for _, w := range s.topic {
		if !lightVerbs[w] {
			heavy = append(heavy, w)
		}
	}
	if p.heavy = topicOf(heavy); len(p.heavy.stems) == 0 {
		p.heavy = p.topic
	}
	var ranked []scored
	if listed := s.pl.list(); listingOnly(listed) {
		// A listing without words (what a filter or a window holds) keeps
		// its own order: newest first, or the window day by day.
		for _, c := range listed {
			ranked = append(ranked, scored{c: c, score: -float64(len(ranked))})
		}
	} else {
		ranked = rank(ranker, newFeatureContext(*p, listed, s.links, s.recent, s.lexTop), listed, p.Candidates)
	}
	ranked = statusOrder(s.versionOrder(ranked))
	if p.Floor && len(p.topic.stems) > 0 {
		ranked = slices.DeleteFunc(ranked, func(sc scored) bool { return !aboutQuery(*p, sc.c) })
	}
	return ranked
}

// listingOnly reports whether every candidate comes from a listing
// without words: the recent listing, or the window listed day by day
// (browsing it, or when nothing in it says the question's words).
func listingOnly(cands []*candidate) bool {
	for _, c := range cands {
		for ch := range c.ranks {
			if ch != "recent" && ch != "window" {
				return false
			}
		}
	}
	return len(cands) > 0
}

// topFactEntities are the entities of the first typed facts in the pool,
// at most n, for update-awareness when the query names none.
func topFactEntities(cands []*candidate, n int) []string {
	best := byRRF(cands)
	var out []string
	seen := map[string]bool{}
	for i, c := range best {
		if i >= 20 || len(out) >= n {
			break
		}
		if !c.item.Kind.IsFact() {
			continue
		}
		for _, e := range c.item.Entities {
			if k := memory.EntityKey(e); !seen[k] && len(out) < n {
				seen[k] = true
				out = append(out, e)
			}
		}
	}
	return out
}

// versionOrder puts the version of a fact that holds at the time the
// question asks about above the other versions it is linked to: for a
// question about now, the current one above those it supersedes; for a
// past window, the one valid in it above those before and after. This is
// what supersession means, not a weight: the features place the versions
// among the other candidates, and the fitted ranking alone let a stale
// version that matched the question's words better stay first. The
// holding version takes the place of the best-ranked version that does
// not hold, which moves down one.
func (s *search) versionOrder(ranked []scored) []scored {
	l := s.links
	past := s.p.pastWindow()
	if len(l.next) == 0 || !past && !s.asksValueNow() {
		return ranked
	}
	holds := func(row int64) bool {
		if past {
			return l.validIn(row, *s.p.Window)
		}
		return !l.superseded(row)
	}
	for i := 0; i < len(ranked); i++ {
		row := ranked[i].c.item.RowID
		if holds(row) || l.sig[row] == nil {
			continue
		}
		j := s.holdingVersionBelow(ranked, i, holds)
		if j < 0 {
			continue
		}
		v := ranked[j]
		copy(ranked[i+1:j+1], ranked[i:j])
		ranked[i] = v
	}
	return ranked
}

// statusOrder keeps what OpenClaw's user model (USER.md) marks superseded
// from outranking what it marks active: a superseded entry ranked above
// an active one gives its place to the best-ranked active entry below
// it, and moves down one, as versionOrder moves the versions of a fact.
// The other candidates keep their places. As with versionOrder, this is
// what the marks mean, not a weight: the file says which entry holds.
func statusOrder(ranked []scored) []scored {
	for i := range ranked {
		if ranked[i].c.item.Status != memory.StatusSuperseded {
			continue
		}
		j := slices.IndexFunc(ranked[i+1:], func(s scored) bool { return s.c.item.Status == memory.StatusActive })
		if j < 0 {
			break // no active entry below this one, nor below the later ones
		}
		j += i + 1
		v := ranked[j]
		copy(ranked[i+1:j+1], ranked[i:j])
		ranked[i] = v
	}
	return ranked
}

// asksValueNow reports whether the question asks what holds now: it says
// so (intent Current), it asks about an entity as a whole ("who's our
// contact at Soko?", "tell me about Pete": its facts as they are, not as
// they were), or it asks a plain question about something that changed
// (asksNow). Not a question about a choice, a reason or an opinion ("why
// did we move to AWS?", "is Oti glad we moved?"): an older version may be
// what it asks about.
func (s *search) asksValueNow() bool {
	switch {
	case s.p.Now.IsZero() || s.p.Choice:
		return false
	case s.p.Intent == query.Current, s.p.Intent == query.About:
		return true
	}
	return s.recent && s.p.Intent == query.Search
}

// holdingVersionBelow returns the index of the best-ranked candidate
// below i that is a version linked to ranked[i] (one it supersedes or one
// that supersedes it) and holds, or -1.
func (s *search) holdingVersionBelow(ranked []scored, i int, holds func(int64) bool) int {
	l := s.links
	row := ranked[i].c.item.RowID
	for j := i + 1; j < len(ranked); j++ {
		o := ranked[j].c.item.RowID
		if (slices.Contains(l.next[row], o) || slices.Contains(l.prev[row], o)) && holds(o) {
			return j
		}
	}
	return -1
}
