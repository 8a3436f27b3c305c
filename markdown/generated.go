package markdown

import "strings"

// Text that is not evidence is not indexed: a copy of what the logs say, or
// a hint a template wrote, would otherwise be recalled as if someone had
// written it down (the top results for "tell me about Bob" were reflect's
// begin marker, its "3 facts in the daily logs…" line and copied bullets).

// Markers of the block `memoria reflect` manages in an entity page. The
// block copies facts of the daily logs, each with its citation: the
// originals are indexed, the copies are not. A begin marker without an end
// marker (a person deleted it) leaves the rest of the page indexed.
const (
	ManagedBegin = "<!-- memoria:begin"
	ManagedEnd   = "<!-- memoria:end"
)

// BookkeepingKeys are the keys of the sub-items reflect keeps under an
// opinion ("  - supports: memory/2025-11-04.md#L10"): references to
// evidence, not evidence. Such sub-items of a typed fact are not indexed.
var BookkeepingKeys = []string{"last_updated", "supports", "contradicts", "superseded"}

// Template lines `memoria init` writes under the headings of its starter
// files: hints on what goes where, never indexed. workspace.Init writes
// exactly these.
const (
	TemplateCore       = "Durable facts and preferences, kept small. One `##` section per block."
	TemplateWorld      = "Objective facts about the world, one bullet each (`- W @Entity: …`)."
	TemplateExperience = "What I did, first person, one bullet each (`- B @Entity: …`)."
	TemplateOpinions   = "Beliefs with confidence and evidence (`- O(c=0.8) @Entity: …`)."
)

func isTemplateLine(s string) bool {
	switch strings.TrimSpace(s) {
	case TemplateCore, TemplateWorld, TemplateExperience, TemplateOpinions:
		return true
	}
	return false
}

// managedEnd returns the line after the end marker of the managed block
// that begins on line i, or -1 when the block is not closed.
func (p *parser) managedEnd(i int) int {
	for j := i + 1; j < len(p.lines); j++ {
		if strings.HasPrefix(strings.TrimSpace(p.lines[j]), ManagedEnd) {
			return j + 1
		}
	}
	return -1
}

// isBookkeeping reports whether a list item's text is a bookkeeping entry
// ("supports: …").
func isBookkeeping(text string) bool {
	key, _, ok := strings.Cut(text, ":")
	if !ok {
		return false
	}
	key = strings.ToLower(strings.TrimSpace(key))
	for _, k := range BookkeepingKeys {
		if key == k {
			return true
		}
	}
	return false
}

// subItems indexes lines [start, end) under a typed fact as passages,
// leaving out the bookkeeping sub-items (with their continuation lines).
func (p *parser) subItems(start, end int) {
	from := start
	for i := start; i < end; {
		s := p.lines[i]
		w, off := IndentWidth(s)
		content, _, ok := ListMarker(s[off:])
		if !ok || !isBookkeeping(s[off+content:]) {
			i++
			continue
		}
		// The bookkeeping item runs to the next line indented no deeper
		// that is not blank.
		j := i + 1
		for j < end {
			if t := p.lines[j]; t != "" {
				if wj, _ := IndentWidth(t); wj <= w {
					break
				}
			}
			j++
		}
		p.passages(from, i)
		from, i = j, j
	}
	p.passages(from, end)
}
