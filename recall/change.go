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
// changed (change.Read, change.Statement): "Vet: Dr Fiona McLeod, Te Arawhiti Vet
// Clinic" on a dog's page, and "We've moved the dogs to Clutha Vets in
// Alexandra" in a log. The log line is tied by the statement's words (its
// head words, or values it says are over) or says that what an entity's
// statement says ended; a tie by an entity alone and a shared cue is
// prosePair's. One sentence changes one statement: the one it shares the
// most words with, and none when two share as many. mentions gives the
// entity keys a line of prose names (nil: none). Run reads them only for
// a question about now or about a past window, where versions count.
func linkProseChanges(cands []*candidate, l *links, mentions func(string) []string) {
	best := byRRF(cands)
	// The statements among the best candidates; the log lines among all
	// of them: a line that says a change often shares few words with the
	// question ("Callum's switched us to Schist & Co" for "who's our wine
	// distributor?").
	var curated, logs []memory.Item
	for i, c := range best {
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
	if len(curated) == 0 || len(logs) == 0 {
		return
	}
	type statement struct {
		item memory.Item
		st   *change.Statement
		ents []string
		asOf time.Time
	}
	var stmts []statement // made on first use: most questions meet no change
	for _, lg := range logs {
		for _, sentence := range proseSentences(lg.Content) {
			ch := change.Read(sentence, nil)
			if ch == nil || ch.Before(lg.Written) {
				continue
			}
			if stmts == nil {
				for _, it := range curated {
					var ents []string
					for _, e := range it.Entities {
						ents = append(ents, memory.EntityKey(e))
					}
					for _, text := range proseSentences(it.Content) {
						stmts = append(stmts, statement{it, change.NewStatement(text, nil), ents, change.AsOf(it.Content)})
					}
				}
			}
			var keys []string
			for _, e := range lg.Entities {
				keys = append(keys, memory.EntityKey(e))
			}
			if mentions != nil {
				keys = append(keys, mentions(sentence)...)
			}
			// The statements it shares the most words with: one, or
			// copies of one (a page's field and the world fact it was
			// written from give the same values).
			var by []*statement
			most := -1
			for i := range stmts {
				s := &stmts[i]
				if !s.asOf.IsZero() && !lg.Written.After(s.asOf) {
					continue
				}
				t, head, value := s.st.Tie(ch, keys, s.ents)
				if !((t == change.TieHead || t == change.TieEnded) && s.st.Outdated(ch, head, value, nil) || t == change.TieEntity && s.st.Ended(ch, nil)) {
					continue
				}
				switch n := s.st.Shared(ch); {
				case n > most:
					by, most = []*statement{s}, n
				case n == most && s.item.RowID != by[0].item.RowID:
					by = append(by, s)
				}
			}
			if len(by) == 0 || slices.ContainsFunc(by[1:], func(s *statement) bool { return !s.st.SameValues(by[0].st) }) {
				continue
			}
			for _, s := range by {
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
