package recall

import (
	"slices"
	"strings"
	"time"

	"memoria/change"
	"memoria/markdown"
	"memoria/memory"
)

// Changes said in prose: a log line that says a curated statement's value
// changed ("We've moved the dogs to Clutha Vets in Alexandra" and, on the
// dogs' page, "Vet: Dr Fiona McLeod, Te Arawhiti Vet Clinic") is the
// statement's successor. package change reads the sentence and the
// statement; this file links them among the candidates.

// linkProseChanges links, among the candidates, a curated statement
// (a line of bank/ or memory.md) to a later log line that says its value
// changed (change.Read, change.Statement): "Vet: Dr Fiona McLeod, Te
// Arawhiti Vet Clinic" on a dog's page, and "We've moved the dogs to
// Clutha Vets in Alexandra" in a log. The log line is tied by the
// statement's words (its head words, or values it says are over) or says
// that what an entity's statement says ended; a tie by an entity alone
// and a shared cue is change.Sig.ProsePair's. One sentence changes one
// statement: the one it shares the most words with, and none when two
// share as many. mentions gives the entity keys a line of prose names
// (nil: none). Run reads them only for a question about now or about a
// past window, where versions count.
func linkProseChanges(cands []*candidate, l *links, mentions func(string) []string) {
	curated, logs := proseCandidates(cands)
	if len(curated) == 0 || len(logs) == 0 {
		return
	}
	var stmts []proseStatement // made on first use: most questions meet no change
	for _, lg := range logs {
		for _, sentence := range proseSentences(lg.Content) {
			ch := change.Read(sentence, nil)
			if ch == nil || ch.Before(lg.Written) {
				continue
			}
			if stmts == nil {
				stmts = proseStatements(curated)
			}
			keys := entityKeys(lg)
			if mentions != nil {
				keys = append(keys, mentions(sentence)...)
			}
			for _, s := range changedBy(stmts, ch, lg, keys) {
				if slices.Contains(l.next[s.item.RowID], lg.RowID) {
					continue
				}
				for _, it := range []memory.Item{s.item, lg} {
					if l.sig[it.RowID] == nil {
						l.sig[it.RowID] = signature(it)
					}
				}
				l.link(s.item.RowID, lg.RowID)
			}
		}
	}
}

// proseCandidates returns the statements among the best candidates and
// the log lines among all of them: a line that says a change often shares
// few words with the question ("Callum's switched us to Schist & Co" for
// "who's our wine distributor?").
func proseCandidates(cands []*candidate) (curated, logs []memory.Item) {
	for i, c := range byRRF(cands) {
		it := c.item
		if it.Kind != memory.KindPassage && it.Kind != memory.KindWorld {
			continue
		}
		if it.Written.IsZero() {
			if i < compareDepth {
				curated = append(curated, it)
			}
		} else {
			logs = append(logs, it)
		}
	}
	return curated, logs
}

// A proseStatement is a sentence of a curated candidate, read once.
type proseStatement struct {
	item memory.Item
	st   *change.Statement
	ents []string  // the keys of the item's entities
	asOf time.Time // change.AsOf of the item
}

// proseStatements reads the sentences of the curated candidates.
func proseStatements(curated []memory.Item) []proseStatement {
	var out []proseStatement
	for _, it := range curated {
		ents, asOf := entityKeys(it), change.AsOf(it.Content)
		for _, text := range proseSentences(it.Content) {
			out = append(out, proseStatement{it, change.NewStatement(text, nil), ents, asOf})
		}
	}
	return out
}

// entityKeys returns the keys of an item's entities (memory.EntityKey).
func entityKeys(it memory.Item) []string {
	var keys []string
	for _, e := range it.Entities {
		keys = append(keys, memory.EntityKey(e))
	}
	return keys
}

// changedBy returns the statements a change said in the log line lg
// outdates, keys the entities the sentence names: of those it is tied to
// and changes, the ones it shares the most words with, when that is one
// statement or copies of one (a page's field and the world fact it was
// written from give the same values); else none.
func changedBy(stmts []proseStatement, ch *change.Change, lg memory.Item, keys []string) []*proseStatement {
	var by []*proseStatement
	most := -1
	for i := range stmts {
		s := &stmts[i]
		if !s.asOf.IsZero() && !lg.Written.After(s.asOf) || !s.outdatedBy(ch, keys) {
			continue
		}
		switch n := s.st.Shared(ch); {
		case n > most:
			by, most = []*proseStatement{s}, n
		case n == most && s.item.RowID != by[0].item.RowID:
			by = append(by, s)
		}
	}
	if len(by) == 0 || slices.ContainsFunc(by[1:], func(s *proseStatement) bool { return !s.st.SameValues(by[0].st) }) {
		return nil
	}
	return by
}

// outdatedBy reports whether a change tied to the statement gives it
// another value, or, tied by an entity alone, says that what it says
// ended.
func (s *proseStatement) outdatedBy(ch *change.Change, keys []string) bool {
	t, head, value := s.st.Tie(ch, keys, s.ents)
	switch t {
	case change.TieHead, change.TieEnded:
		return s.st.Outdated(ch, head, value, nil)
	case change.TieEntity:
		return s.st.Ended(ch, nil)
	}
	return false
}

// proseSentences splits a passage (lines of a list or a paragraph) into
// its sentences, without list markers.
func proseSentences(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if start, ok := markdown.ItemStart(line); ok {
			line = line[start:]
		}
		for _, s := range markdown.Sentences(line) {
			if len(s) >= 8 {
				out = append(out, s)
			}
		}
	}
	return out
}
