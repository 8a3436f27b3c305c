package reflect

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"

	"memoria/change"
	"memoria/memory"
	"memoria/query"
)

// MatchThreshold is the lexical similarity (Similarity) from which an O
// fact sharing an entity with an opinion is evidence about it; below it,
// the fact starts a new opinion.
const MatchThreshold = 0.3

// Options shape a reflect computation. The zero value reflects on all
// history.
type Options struct {
	// Since: only facts written on this day or later are new evidence
	// for opinions and core proposals, and only the pages of entities they
	// mention (or whose opinions changed) are refreshed. Zero means all.
	Since time.Time
	// Now: facts written after this day are ignored. Zero means no bound.
	Now time.Time
	// MinFacts is how many facts an entity needs before reflect creates
	// its page; 0 means MinFactsForPage.
	MinFacts int
	// Similarity, when set, is the semantic similarity of two statements
	// (the cosine of their embeddings): the second signal for matching an
	// O fact to an opinion it shares few words with (SemanticMatch).
	Similarity func(a, b string) float64
}

// SemanticMatch is the embedding similarity from which an O fact that
// matched no opinion lexically is evidence about the most similar opinion
// sharing an entity, when that opinion leads the next by SemanticMargin.
// Measured with Universal Sentence Encoder Lite on pairs of the example
// and bench/reflectset: paraphrases of one view 0.51–0.71, views on other
// things 0.26–0.46.
const (
	SemanticMatch  = 0.55
	SemanticMargin = 0.05
)

// Change is one file reflect will write.
type Change struct {
	Path    string
	Old     []byte
	OldHash string // the hash of Old; the write is refused if the file no longer has it
	New     []byte
	Created bool
}

// OpinionChange reports what happened to one opinion.
type OpinionChange struct {
	Statement string   // the statement now
	Entities  []string // as written
	Before    float64  // confidence before (0 for a new opinion)
	After     float64
	Created   bool
	Flipped   bool     // the old statement was superseded
	Old       string   // the superseded statement, when Flipped
	Evidence  []string // "supports f_… memory/…#L4 (c 0.8->0.83)", in order
}

// PageChange reports one entity page written.
type PageChange struct {
	Path    string
	Created bool
	// HandEdited: the managed block had been edited by hand; the edited
	// block was kept, relabelled, and the new block written after it.
	HandEdited bool
}

// Report says what a reflect computation found and will change.
type Report struct {
	Facts       int // typed facts read from daily logs
	NewEvidence int // O facts applied to opinions this run
	Opinions    []OpinionChange
	Pages       []PageChange
	Proposals   int // core-memory proposals new in the review file
	// Stale are the curated statements newer facts contradict: marked
	// where they stand in bank/, proposed for review in core memory.
	Stale    []StaleMark
	Warnings []string // pages reflect could not manage, and why
	Changed  []string // files to write, in write order
}

// Plan is a computed reflect: the files to write and the report.
type Plan struct {
	Changes []Change
	Report  Report
}

// fact is a log fact with what reflect needs of it, precomputed.
type fact struct {
	memory.Fact
	keys   []string // canonical entity slugs
	terms  terms
	sig    *change.Sig    // made on first use (stale.go)
	prose  bool           // a sentence of a log's narrative that says a change (prose.go)
	typed  bool           // prose: a typed fact read as prose
	change *change.Change // prose: what it says changed
	// saying, for a sentence of prose, are those of keys that the clauses
	// saying its change name (change.Change.Saying): whom the change is
	// about, on an entity's page (staleIn).
	saying []string
	// around, for a sentence of prose that names no entity, are those the
	// sentence before it in its paragraph names: whom the paragraph is
	// about (staleIn).
	around []string
}

// termSet returns the fact's terms, read on first use.
func (f *fact) termSet() terms {
	if f.terms == nil {
		f.terms = termsOf(f.Text)
	}
	return f.terms
}

// Compute works out, without any I/O, what reflect changes: the opinions
// file, the entity pages and the core proposals. Its output depends only on
// in and o, so running it on its own output changes nothing.
func Compute(in *Input, o Options) (*Plan, error) {
	if o.MinFacts <= 0 {
		o.MinFacts = MinFactsForPage
	}
	res := newResolver(in)
	facts := logFacts(in, o.Now, res)
	p := &Plan{}
	p.Report.Facts = len(facts)
	since := memory.Day(o.Since)
	recent := func(f *fact) bool { return o.Since.IsZero() || !f.Written.Before(since) }

	// 1. Opinions; touched are the entity slugs whose page must be
	// refreshed.
	opf, touched, err := p.opinions(in, facts, recent, res, o.Similarity)
	if err != nil {
		return nil, err
	}

	// 2. Entity pages.
	byKey := map[string][]*fact{}
	for _, f := range facts {
		for _, k := range f.keys {
			byKey[k] = append(byKey[k], f)
			if recent(f) {
				touched[k] = true
			}
		}
	}
	prose := proseChanges(in, res, o.Now)
	pages(in, byKey, prose, opf, res, touched, o, p)

	// 3. Stale curated world facts. World facts that name no entity are
	// compared by the word they open with (change.SubjectOf), with the
	// curated statements that name none either: "the ute is now a grey
	// Ranger" outdates "The ute is a white 2011 Hilux".
	stale := maps.Clone(byKey)
	for _, f := range facts {
		if len(f.keys) == 0 && f.Kind == memory.KindWorld {
			if k := change.SubjectOf(f.Text); k != "" {
				stale[k] = append(stale[k], f)
			}
		}
	}
	if in.World.Exists {
		data, marks := staleIn(WorldPath, in.World.Data, "", stale, prose, res, true)
		p.Report.Stale = append(p.Report.Stale, marks...)
		p.add(WorldPath, in.World, data)
	}

	// 4. Core proposals: recurring facts, and stale statements of core
	// memory.
	p.proposals(in, facts, recent, stale, prose, res)
	for _, c := range p.Changes {
		p.Report.Changed = append(p.Report.Changed, c.Path)
	}
	return p, nil
}

// logFacts returns the typed facts of the daily logs written up to now
// (zero: all), oldest first, each with the canonical slugs of its
// entities; res counts their spellings.
func logFacts(in *Input, now time.Time, res *resolver) []*fact {
	var facts []*fact
	for _, d := range in.Logs {
		if d.Kind != memory.FileLog || !now.IsZero() && d.Date.After(memory.Day(now)) {
			continue
		}
		for _, f := range d.Facts {
			facts = append(facts, &fact{Fact: f})
		}
	}
	slices.SortStableFunc(facts, func(a, b *fact) int {
		return cmp.Or(a.Written.Compare(b.Written), cmp.Compare(a.Source.Path, b.Source.Path), cmp.Compare(a.Source.Start, b.Source.Start))
	})
	for _, f := range facts {
		res.count(f.Entities)
	}
	for _, f := range facts {
		f.keys = res.addSlugs(f.keys, f.Entities)
	}
	return facts
}

// opinions applies the new evidence to bank/opinions.md and returns the
// file as it will be written, read back (so that its opinions have the
// line numbers the pages cite), and the slugs of the entities whose
// opinions changed.
func (p *Plan) opinions(in *Input, facts []*fact, recent func(*fact) bool, res *resolver, sim func(a, b string) float64) (*OpinionsFile, map[string]bool, error) {
	opf, err := ParseOpinions(in.Opinions.Data)
	if err != nil {
		return nil, nil, err
	}
	touched := map[string]bool{}
	for _, oc := range reflectOpinions(opf, facts, recent, res, sim, &p.Report) {
		for _, e := range oc.Entities {
			touched[res.slug(e)] = true
		}
	}
	newOps := opf.Bytes()
	if !bytes.Equal(newOps, in.Opinions.Data) {
		p.add(OpinionsPath, in.Opinions, newOps)
	}
	opf, err = ParseOpinions(newOps)
	return opf, touched, err
}

// proposals adds the core proposals: recurring facts (proposeCore), and
// the stale statements of core memory (staleProposals).
func (p *Plan) proposals(in *Input, facts []*fact, recent func(*fact) bool, stale map[string][]*fact, prose []*fact, res *resolver) {
	file := string(in.Proposals.Data)
	repeated := proposeCore(in, facts, recent)
	if len(repeated) > 0 {
		file = withProposals(file, repeated)
	}
	_, coreMarks := staleIn(in.CorePath, in.Core.Data, "", stale, prose, res, false)
	more := staleProposals(file, coreMarks)
	if len(more) > 0 {
		file = withProposals(file, more)
		p.Report.Stale = append(p.Report.Stale, coreMarks...)
	}
	if n := len(repeated) + len(more); n > 0 {
		p.add(ProposalsPath, in.Proposals, []byte(file))
		p.Report.Proposals = n
	}
}

func (p *Plan) add(rel string, old File, data []byte) {
	if bytes.Equal(old.Data, data) && old.Exists {
		return
	}
	p.Changes = append(p.Changes, Change{Path: rel, Old: old.Data, OldHash: old.Hash, New: data, Created: !old.Exists})
}

// cited is the set of facts an opinion file already cites, by fact ID and
// path, and by source line for hand-written citations without an ID.
type cited struct {
	ids  map[string]bool // "f_…|path"
	srcs map[string][]memory.Source
}

func citedIn(f *OpinionsFile) *cited {
	c := &cited{ids: map[string]bool{}, srcs: map[string][]memory.Source{}}
	for _, op := range f.Opinions() {
		ev, _ := op.Evidence()
		for _, e := range ev {
			c.add(e)
		}
	}
	return c
}

func (c *cited) add(e Evidence) {
	if e.FactID != "" {
		c.ids[e.FactID+"|"+e.Source.Path] = true
	} else if e.Source.Path != "" {
		c.srcs[e.Source.Path] = append(c.srcs[e.Source.Path], e.Source)
	}
}

func (c *cited) has(f *fact) bool {
	return c.ids[f.ID+"|"+f.Source.Path] ||
		slices.ContainsFunc(c.srcs[f.Source.Path], func(s memory.Source) bool { return s.Start > 0 && s.Overlaps(f.Source) })
}

// reflectOpinions applies the new O facts to the opinions file: each one
// not cited yet reinforces or contradicts the most similar opinion sharing
// an entity, or starts a new opinion.
func reflectOpinions(opf *OpinionsFile, facts []*fact, recent func(*fact) bool, res *resolver, sim func(a, b string) float64, r *Report) []*OpinionChange {
	u := &opinionUpdate{opf: opf, done: citedIn(opf), res: res, sim: sim, report: r,
		byOp: map[*Opinion]*OpinionChange{}, opTerms: map[*Opinion]terms{}}
	for _, f := range facts {
		if isEvidence(f) && recent(f) && !u.done.has(f) {
			u.weigh(f)
		}
	}
	for op, oc := range u.byOp {
		oc.Statement = strings.Join(strings.Fields(op.Statement), " ")
		oc.Entities = op.Entities
		oc.After = op.Confidence
	}
	for _, oc := range u.order {
		r.Opinions = append(r.Opinions, *oc)
	}
	return u.order
}

// isEvidence reports whether a log fact may bear on an opinion: an O fact,
// or a world fact or an observation that names an entity (it counts when
// it takes a stance on one of the entity's opinions, Bears: "W @Ridings:
// not reliable on delivery times at the moment" against "Ridings are
// reliable on delivery times"). One that names no entity is tied to no
// view surely enough.
func isEvidence(f *fact) bool {
	return f.Kind == memory.KindOpinion || (f.Kind == memory.KindWorld || f.Kind == memory.KindObservation) && len(f.keys) > 0
}

// opinionUpdate is one run of reflectOpinions: the opinions file, what it
// cites, and what changed, by opinion and in order.
type opinionUpdate struct {
	opf     *OpinionsFile
	done    *cited
	res     *resolver
	sim     func(a, b string) float64
	report  *Report
	byOp    map[*Opinion]*OpinionChange
	order   []*OpinionChange
	opTerms map[*Opinion]terms // made on first use
}

// weigh applies one fact: as the source an opinion was written from
// (sourceOf), as a new opinion, or as evidence for or against the opinion
// it matches. A fact no opinion cites by its line may still be evidence an
// opinion's confidence holds already, as the opinions file a person or
// reflect wrote says (citesFile, updatedAfter, fileCiter): applying it
// again would count one observation twice.
func (u *opinionUpdate) weigh(f *fact) {
	best, supports, ok := u.match(f)
	if !ok {
		return
	}
	if best != nil && (citesFile(best, f.Source.Path) || updatedAfter(best, f.Written)) {
		return // evidence its confidence already holds
	}
	if best == nil && fileCiter(u.opf.Opinions(), f, u.res) != nil {
		return // the evidence a citation of its file names, said in other words
	}
	u.report.NewEvidence++
	ev := Evidence{FactID: f.ID, Source: f.Source}
	switch {
	case best != nil && f.Kind == memory.KindOpinion && sourceOf(best, f):
		// The opinion was written from this fact: it is cited from now
		// on, and the confidence stays the one both state.
		ev.Note = SourceNote
		best.addEvidence(true, ev)
		u.record(best, false, KeySupports, ev)
		best.touch(f.Written)
	case best == nil:
		u.start(f, ev)
	default:
		u.apply(best, f, supports, ev)
	}
}

// match returns the opinion f is evidence about (nil: f starts a new
// one) and, for a fact that is no opinion, whether it supports it; false
// when f bears on no opinion.
func (u *opinionUpdate) match(f *fact) (op *Opinion, supports, ok bool) {
	best, bestSim := u.closest(f)
	matched := best != nil && bestSim >= MatchThreshold
	if f.Kind != memory.KindOpinion {
		if !matched {
			return nil, false, false
		}
		bears, sup := Bears(best.Statement, f.Text)
		return best, sup, bears
	}
	if matched {
		return best, true, true
	}
	// Few words in common, but the same thing named and the view changed
	// ("Stopped using Emacs entirely; Zed is fast enough" against "Prefers
	// Emacs for everything"): the fact is about that opinion.
	ops := u.opf.Opinions()
	if op := changedView(ops, f, u.res); op != nil {
		return op, true, true
	}
	if op := semanticMatch(ops, f, u.res, u.sim); op != nil {
		return op, true, true
	}
	return u.soleOpinion(ops, f), true, true
}

// closest returns the opinion sharing an entity with f whose terms are
// most similar to f's (Similarity), and the similarity.
func (u *opinionUpdate) closest(f *fact) (*Opinion, float64) {
	var best *Opinion
	bestSim := 0.0
	for _, op := range u.opf.Opinions() {
		// f's terms are read at the first opinion that shares an entity:
		// most world facts meet none.
		if !sharesEntity(op, f, u.res) {
			continue
		}
		if s := u.termsOf(op).cosine(f.termSet()); s > bestSim {
			best, bestSim = op, s
		}
	}
	return best, bestSim
}

func (u *opinionUpdate) termsOf(op *Opinion) terms {
	t, ok := u.opTerms[op]
	if !ok {
		t = termsOf(op.Statement)
		u.opTerms[op] = t
	}
	return t
}

// start makes a new opinion of f.
func (u *opinionUpdate) start(f *fact, ev Evidence) {
	c := DefaultConfidence
	if f.HasConfidence {
		c = f.Confidence
	}
	op := &Opinion{Statement: f.Text, Entities: slices.Clone(f.Entities), Confidence: round2(c), HasConfidence: true}
	ev.Note = "new opinion, c=" + FormatConfidence(op.Confidence)
	op.Items = []Item{{Key: KeyLastUpdated, Value: day(f.Written)}}
	op.addEvidence(true, ev)
	u.opf.Add(op)
	u.record(op, true, KeySupports, ev)
}

// apply weighs f as evidence for or against op by the update rule
// (Apply), replacing op's statement by f's when the rule flips it.
func (u *opinionUpdate) apply(op *Opinion, f *fact, supports bool, ev Evidence) {
	oc := u.change(op, false) // made with its confidence before
	step := stepOf(op, f, supports)
	out := Apply(op.confidence(), streakOf(op), step)
	ev.Note = out.Note(step)
	if out.Flipped {
		oc.Flipped, oc.Old = true, op.flip(f, out, ev)
	} else {
		op.setConfidence(out.After)
		op.addEvidence(step.Supports, ev)
	}
	key := KeyContradicts
	if step.Supports || out.Flipped {
		key = KeySupports
	}
	u.record(op, false, key, ev)
	op.touch(f.Written)
}

// stepOf is f as the update rule sees it, as evidence about op. An O fact
// supports op unless it contradicts it; another fact as it bears on op
// (supports).
func stepOf(op *Opinion, f *fact, supports bool) Step {
	view := f.Kind == memory.KindOpinion
	strength := DefaultStrength
	if f.HasConfidence {
		strength = f.Confidence
	}
	if view {
		supports = !Contradicts(op.Statement, f.Text)
	}
	ev, _ := op.Evidence()
	step := Step{Supports: supports, Strength: strength, Young: len(ev) < YoungEvidence}
	if view && step.Supports && f.HasConfidence && f.Confidence < DoubtBelow {
		// The view restated at a low confidence ("O(c=0.2) Partitions
		// Beaubien delivers on time", after a late order) doubts it: the
		// writer leans the other way, with strength 1 − c.
		step.Supports, step.Strength, step.Doubted = false, 1-f.Confidence, true
	}
	step.Strong = !step.Supports && (step.Strength >= StrongAt || change.Says(f.Text))
	return step
}

// flip replaces the opinion's statement by f's, as the update rule's
// outcome says: the evidence so far now speaks the other way, and a
// superseded sub-bullet keeps the old statement, which flip returns on one
// line.
func (op *Opinion) flip(f *fact, out Outcome, ev Evidence) string {
	old := strings.Join(strings.Fields(op.Statement), " ")
	for i := range op.Items {
		it := &op.Items[i]
		if it.Evidence == nil {
			continue
		}
		if it.Key == KeySupports {
			it.Key = KeyContradicts
		} else {
			it.Key = KeySupports
		}
		it.raw = nil
	}
	op.Items = append(op.Items, Item{Key: KeySuperseded, Value: fmt.Sprintf("O(c=%s)%s: %s (until %s, %s)",
		FormatConfidence(out.After), mentions(op.Entities), old, day(f.Written), f.Source)})
	op.Statement, op.Entities, op.head = f.Text, slices.Clone(f.Entities), nil
	op.Confidence, op.HasConfidence = out.NewConfidence, true
	op.addEvidence(true, ev)
	return old
}

// touch moves the opinion's last_updated to the day written, if later.
func (op *Opinion) touch(written time.Time) {
	if d := day(written); op.LastUpdated() < d {
		op.setItem(KeyLastUpdated, d)
	}
}

// record notes evidence ev, cited under key, as op's change and as cited.
func (u *opinionUpdate) record(op *Opinion, created bool, key string, ev Evidence) {
	u.done.add(ev)
	oc := u.change(op, created)
	oc.Evidence = append(oc.Evidence, key+" "+ev.String())
}

// change is what the run changed of op, made at its first change.
func (u *opinionUpdate) change(op *Opinion, created bool) *OpinionChange {
	oc := u.byOp[op]
	if oc == nil {
		oc = &OpinionChange{Before: op.confidence(), Created: created}
		if created {
			oc.Before = 0
		}
		u.byOp[op] = oc
		u.order = append(u.order, oc)
	}
	return oc
}

// soleOpinion returns the one opinion about f's entities when f shares
// at least soleShared terms with it ("Steady in a crisis; handled the
// blackout without any fuss" and "The best person for calming a
// complaint, and steady in a crisis"): a second view of the entity in
// part the same words is more likely the same view than a new one. Nil
// when f names no entity, or its entities have more than one opinion.
// A verb that frames a view ("thinks") is no shared term.
func (u *opinionUpdate) soleOpinion(ops []*Opinion, f *fact) *Opinion {
	if len(f.keys) == 0 {
		return nil
	}
	found := onlyOpinion(ops, func(op *Opinion) bool { return len(op.Entities) > 0 && sharesEntity(op, f, u.res) })
	if found == nil {
		return nil
	}
	t := u.termsOf(found)
	shared := 0
	for w := range f.terms {
		if _, ok := t[w]; ok && !strings.HasPrefix(w, "~") && !lex().frameTerms[w] {
			shared++
		}
	}
	if shared < soleShared {
		return nil
	}
	return found
}

// onlyOpinion returns the one opinion of ops that is, or nil when none
// or several are.
func onlyOpinion(ops []*Opinion, is func(*Opinion) bool) *Opinion {
	var found *Opinion
	for _, op := range ops {
		if !is(op) {
			continue
		}
		if found != nil {
			return nil
		}
		found = op
	}
	return found
}

// soleShared is how many terms a fact shares with its entity's only
// opinion to count as evidence about it (soleOpinion).
const soleShared = 2

// changedView returns the opinion sharing an entity with f that f says
// changed: f names a thing the opinion names (a capitalised word, not an
// entity's name: "Emacs") and has a change marker, and contradicts it.
// It returns nil when no opinion, or more than one, qualifies.
func changedView(ops []*Opinion, f *fact, res *resolver) *Opinion {
	if !change.Says(f.Text) {
		return nil
	}
	return onlyOpinion(ops, func(op *Opinion) bool {
		return sharesEntity(op, f, res) && change.ShareValue(op.Statement, f.Text, res.isName) && Contradicts(op.Statement, f.Text)
	})
}

// semanticMatch returns the opinion sharing an entity with f whose
// statement embeds nearest f's, when sim is set and the similarity is at
// least SemanticMatch and leads the next opinion's by SemanticMargin.
func semanticMatch(ops []*Opinion, f *fact, res *resolver, sim func(a, b string) float64) *Opinion {
	if sim == nil {
		return nil
	}
	var best *Opinion
	first, second := 0.0, 0.0
	for _, op := range ops {
		if !sharesEntity(op, f, res) {
			continue
		}
		s := sim(op.Statement, f.Text)
		switch {
		case s > first:
			best, first, second = op, s, first
		case s > second:
			second = s
		}
	}
	if first < SemanticMatch || first-second < SemanticMargin {
		return nil
	}
	return best
}

// SourceNote is the note of the evidence an opinion was written from
// (sourceOf): it supports the opinion and leaves its confidence as it is.
const SourceNote = "its source; c unchanged"

// updatedAfter reports whether op's last_updated is a day after written
// (a last_updated that is no YYYY-MM-DD day says nothing).
func updatedAfter(op *Opinion, written time.Time) bool {
	lu, err := time.Parse(time.DateOnly, op.LastUpdated())
	return err == nil && lu.After(memory.Day(written))
}

// citesFile reports whether op cites the file path as a whole.
func citesFile(op *Opinion, path string) bool {
	ev, _ := op.Evidence()
	return slices.ContainsFunc(ev, func(e Evidence) bool { return e.Source.Path == path && e.Source.Start == 0 && e.FactID == "" })
}

// fileCiter returns the one opinion sharing an entity with f that cites
// f's file as a whole, or nil (none, or several).
func fileCiter(ops []*Opinion, f *fact, res *resolver) *Opinion {
	return onlyOpinion(ops, func(op *Opinion) bool {
		return len(f.keys) > 0 && sharesEntity(op, f, res) && citesFile(op, f.Source.Path)
	})
}

// sourceOf reports whether op was written from f: op cites no evidence,
// and both state one confidence.
func sourceOf(op *Opinion, f *fact) bool {
	ev, _ := op.Evidence()
	return len(ev) == 0 && op.HasConfidence && f.HasConfidence && round2(op.Confidence) == round2(f.Confidence) &&
		!Contradicts(op.Statement, f.Text)
}

// mentions writes entities as mentions, each after a space: " @Peter @warelay".
func mentions(ents []string) string {
	if len(ents) == 0 {
		return ""
	}
	return " @" + strings.Join(ents, " @")
}

func sharesEntity(op *Opinion, f *fact, res *resolver) bool {
	return len(op.Entities) == 0 && len(f.keys) == 0 ||
		slices.ContainsFunc(op.Entities, func(e string) bool { return slices.Contains(f.keys, res.slug(e)) })
}

// resolver maps every spelling of an entity (slug, page name, alias, in
// any case) to one canonical slug: the page's file name when there is a
// page, else the most frequent spelling of the mention.
type resolver struct {
	byKey  map[string]string         // entity key → page slug
	multi  []string                  // the keys of more than one word ("millyard pottery"), longest first
	first  map[string]string         // a lower-cased first name → the slug of the one page whose name of several words it opens ("" when several do)
	counts map[string]map[string]int // entity key → spelling → mentions
	memo   map[string]string
}

func newResolver(in *Input) *resolver {
	r := &resolver{byKey: map[string]string{}, counts: map[string]map[string]int{}, memo: map[string]string{}}
	var ents []*memory.EntityPage // of the pages, in path order
	for _, p := range slices.Sorted(maps.Keys(in.PageDocs)) {
		if e := in.PageDocs[p].Entity; e != nil {
			ents = append(ents, e)
		}
	}
	// Slugs first, then names and aliases, so that a page's own slug wins.
	for _, e := range ents {
		r.byKey[memory.EntityKey(e.Slug)] = e.Slug
	}
	for _, e := range ents {
		for _, n := range append([]string{e.Name}, e.Aliases...) {
			if k := memory.EntityKey(n); k != "" {
				if _, ok := r.byKey[k]; !ok {
					r.byKey[k] = e.Slug
				}
			}
		}
	}
	for k := range r.byKey {
		if strings.Contains(k, " ") {
			r.multi = append(r.multi, k)
		}
	}
	r.first = map[string]string{}
	for _, e := range ents {
		if ws := strings.Fields(e.Name); len(ws) > 1 && !query.IsStopWord(strings.ToLower(ws[0])) { // "The Van" has no first name
			w := strings.ToLower(ws[0])
			if s, ok := r.first[w]; ok && s != e.Slug {
				r.first[w] = ""
			} else {
				r.first[w] = e.Slug
			}
		}
	}
	slices.SortFunc(r.multi, func(a, b string) int { return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b)) })
	return r
}

// multiIn returns the keys of the known names of several words text says.
func (r *resolver) multiIn(text string) []string {
	l := " " + strings.Join(strings.FieldsFunc(strings.ToLower(text), func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) }), " ") + " "
	return slices.DeleteFunc(slices.Clone(r.multi), func(k string) bool { return !strings.Contains(l, " "+k+" ") })
}

// namesIn returns an isName for the values of text: a word that names an
// entity, or that is part of a known name of several words text says
// ("Millyard" and "Pottery" in "Studio: Millyard Pottery, behind the
// bakery"), says who or where, not what.
func (r *resolver) namesIn(text string) func(string) bool {
	var words []string
	for _, k := range r.multiIn(text) {
		words = append(words, strings.Fields(k)...)
	}
	if len(words) == 0 {
		return r.isName
	}
	return func(w string) bool { return r.isName(w) || slices.Contains(words, strings.ToLower(w)) }
}

// named returns the slugs of the entities a text of prose names: by a
// known name of several words, by a capitalised word that is a slug, name
// or alias, or by a person's first name ("Yusuf" for Yusuf Adams) when
// one page's name opens with it.
func (r *resolver) named(text string) []string {
	var out []string
	add := func(s string) {
		if s != "" {
			out = addKey(out, s)
		}
	}
	for _, k := range r.multiIn(text) {
		add(r.byKey[k])
	}
	for _, w := range strings.FieldsFunc(text, func(c rune) bool {
		return !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '-' && c != '\'' && c != '’'
	}) {
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		if w == "" || !unicode.IsUpper([]rune(w)[0]) {
			continue
		}
		if s := r.byKey[memory.EntityKey(w)]; s != "" {
			add(s)
		} else {
			add(r.first[strings.ToLower(w)])
		}
	}
	return out
}

// addSlugs appends the canonical slugs of mentions to keys, each once.
func (r *resolver) addSlugs(keys, mentions []string) []string {
	for _, m := range mentions {
		keys = addKey(keys, r.slug(m))
	}
	return keys
}

// addKey appends k to keys unless keys holds it.
func addKey(keys []string, k string) []string {
	if slices.Contains(keys, k) {
		return keys
	}
	return append(keys, k)
}

func (r *resolver) count(ents []string) {
	for _, e := range ents {
		k := memory.EntityKey(e)
		if r.counts[k] == nil {
			r.counts[k] = map[string]int{}
		}
		r.counts[k][e]++
	}
}

// slug is the canonical slug of a mention.
func (r *resolver) slug(e string) string {
	if s, ok := r.memo[e]; ok {
		return s
	}
	k := memory.EntityKey(e)
	s, ok := r.byKey[k]
	if !ok {
		s = e
		best := 0
		for sp, n := range r.counts[k] {
			if n > best || (n == best && sp < s) {
				s, best = sp, n
			}
		}
	}
	r.memo[e] = s
	return s
}
