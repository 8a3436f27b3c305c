package retain

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"memoria/markdown"
	"memoria/memory"
)

// Proposal is a fact proposed for a log, for a person to accept or not.
type Proposal struct {
	Fact   string        // the bullet's text, "W @Peter: …", valid for Validate
	Source memory.Source // the lines it was inferred from
	Reason string        // why it was proposed: decision, preference, fix, event, fact, llm
	Ticked bool          // accepted in the review file ([x])
	Line   int           // its 1-based line in the review file, when parsed from one
}

// MaxProposalsPerLog bounds the proposals Infer makes for one log, the
// strongest first.
const MaxProposalsPerLog = 8

// Names maps entity keys (memory.EntityKey of a slug, name or alias) to
// slugs: the entities Infer recognises by name in plain text.
type Names map[string]string

// HasRetain reports whether a log already has a Retain section; Infer is
// meant for logs that do not.
func HasRetain(data []byte) bool {
	hs, err := markdown.Headings(data)
	if err != nil {
		return false
	}
	for _, h := range hs {
		if h.Retain {
			return true
		}
	}
	return false
}

// signal is one heuristic: a pattern, the kind it suggests and a weight.
type signal struct {
	reason string
	re     *regexp.Regexp
	weight int
}

// The patterns are compiled on first use: most commands never infer, and
// compiling them all costs about a millisecond at every start.
var signals = sync.OnceValue(func() []signal {
	return []signal{
		{"decision", regexp.MustCompile(`(?i)\b(decided|agreed|chose|settled on|opted for|will no longer|won't .{1,40} any ?more|from now on|going forward|for good)\b`), 3},
		{"preference", regexp.MustCompile(`(?i)\b(prefers?|preferred|likes|liked|loves?|loved|hates?|hated|dislikes?|can't stand|enjoys|wants|wanted|favou?rite|would rather)\b`), 3},
		{"fix", regexp.MustCompile(`(?i)\b(fixed|resolved|solved|patched|repaired|root cause|workaround)\b`), 3},
		{"fact", regexp.MustCompile(`(?i)\b(lives|mov(ed|es|ing) (from .{1,30} )?(in)?to|(planned|scheduled) for|works (at|for|on)|born|birthday|turns \d+|weighs|released|tagged|shipped|deployed|booked|signed|quit|joined|switched to|migrated|renamed|cancel+ed)\b`), 1},
	}
})

var (
	wordRE      = lazyRegexp(`[\p{L}\p{N}][\p{L}\p{N}'’_-]*`)
	listItemRE  = lazyRegexp(`^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?`)
	quotedRE    = lazyRegexp(`"[^"]*"|“[^”]*”`)
	firstPerson = lazyRegexp(`^(I|I'm|I've|I'd|We|We've)\b`)
	personLead  = lazyRegexp(`^(He|She)\b`)
	pronounLead = lazyRegexp(`^(He|She|They|It|This|That|These|Those|His|Her|Their)\b`)
)

// lazyRegexp returns expr compiled on first call.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// Infer proposes facts from the narrative of a daily log (rel, its
// content), with offline heuristics: sentences that state a decision ("we
// agreed", "decided"), a preference ("prefers", "hates", "wants"), a fix
// ("fixed", "resolved"), or, when they name a known entity, a dated event
// or a plain fact ("moved", "turns 40", "released"). Code blocks and tables
// are skipped. Each proposal is typed (O with a modest confidence for
// preferences, B for what "I" did, W otherwise), names its entities and
// cites its lines; at most MaxProposalsPerLog per log, strongest first.
func Infer(rel string, data []byte, names Names) ([]Proposal, error) {
	doc, err := markdown.ParseWith(rel, data, markdown.Options{MaxPassageLines: 1 << 20})
	if err != nil {
		return nil, err
	}
	code := codeLines(data)
	type scored struct {
		Proposal
		score int
	}
	var out []scored
	seen := map[string]bool{}
	subject, section := "", ""
	for _, p := range doc.Passages {
		if p.Section != section {
			subject, section = "", p.Section
		}
		if code[p.Source.Start] || strings.HasPrefix(strings.TrimSpace(p.Text), "|") {
			continue
		}
		for _, s := range sentences(p.Text, p.Source.Start) {
			// "He"/"She" opening a sentence stands for the last entity
			// that opened one: "Pete felt guilty. He decided …".
			if m := personLead().FindString(s.text); m != "" && subject != "" {
				s.text = memory.EntityName(subject) + s.text[len(m):]
			} else if ents := entities(s.text, names); len(ents) > 0 && strings.HasPrefix(s.text, firstWord(s.text, ents[0], names)) {
				subject = ents[0]
			}
			prop, score, ok := judge(s, names)
			if !ok || seen[prop.Fact] {
				continue
			}
			seen[prop.Fact] = true
			prop.Source = memory.Source{Path: rel, Start: s.first, End: s.last}
			if _, err := Validate(prop.Fact); err != nil {
				continue
			}
			out = append(out, scored{prop, score})
		}
	}
	// Strongest first, then in file order; keep the file order in the end.
	slices.SortStableFunc(out, func(a, b scored) int { return cmp.Compare(b.score, a.score) })
	out = out[:min(len(out), MaxProposalsPerLog)]
	slices.SortStableFunc(out, func(a, b scored) int { return cmp.Compare(a.Source.Start, b.Source.Start) })
	props := make([]Proposal, len(out))
	for i, s := range out {
		props[i] = s.Proposal
	}
	return props, nil
}

// sentence is a sentence of a passage with the lines it spans.
type sentence struct {
	text        string
	first, last int
}

// sentences splits a passage (first line numbered start) into sentences,
// each with its line range. List markers are removed.
func sentences(text string, start int) []sentence {
	var out []sentence
	var cur strings.Builder
	first := -1
	flush := func(last int) {
		s := strings.Join(strings.Fields(cur.String()), " ")
		if s != "" {
			out = append(out, sentence{s, first, last})
		}
		cur.Reset()
		first = -1
	}
	for i, line := range strings.Split(text, "\n") {
		n := start + i
		if m := listItemRE().FindString(line); m != "" {
			flush(n - 1)
			line = line[len(m):]
		}
		line = strings.TrimSpace(line)
		for line != "" {
			if first < 0 {
				first = n
			}
			end := sentenceEnd(line)
			if end < 0 {
				cur.WriteString(line + " ")
				break
			}
			cur.WriteString(line[:end])
			flush(n)
			line = strings.TrimSpace(line[end:])
		}
	}
	flush(start + strings.Count(text, "\n"))
	return out
}

// sentenceEnd returns the index just past the end of the first sentence
// in line (markdown.SentenceEnd), or -1. A line that ends after an
// abbreviation ("… with Dr.") goes on in the next.
func sentenceEnd(line string) int {
	for i := 0; i < len(line); i++ {
		if end := markdown.SentenceEnd(line, i); end > 0 {
			return end
		}
	}
	return -1
}

// judge decides whether a sentence makes a fact, and which.
func judge(s sentence, names Names) (Proposal, int, bool) {
	text := s.text
	if len(text) < 25 || len(text) > 320 || strings.HasSuffix(text, "?") || strings.HasSuffix(text, ":") {
		return Proposal{}, 0, false
	}
	ents := entities(text, names)
	reason, score := "", 0
	// Words in quotes are someone's speech, not a statement of the log.
	unquoted := quotedRE().ReplaceAllString(text, "")
	for _, sg := range signals() {
		if sg.re.MatchString(unquoted) {
			if sg.weight > score {
				reason = sg.reason
			}
			score += sg.weight
		}
	}
	if dateRE().MatchString(text) {
		score++
		if reason == "" {
			reason = "event"
		}
	}
	if len(ents) > 0 {
		score++
	}
	switch {
	case reason == "decision" || reason == "preference" || reason == "fix":
		// Strong signals stand alone.
	case len(ents) > 0 && reason == "fact":
		// Weak signals need an entity,
	case reason == "event" && len(ents) > 0 && strings.HasPrefix(text, firstWord(text, ents[0], names)):
		// and a date alone needs the entity as the subject.
	default:
		return Proposal{}, 0, false
	}
	kind := "W"
	switch {
	case reason == "preference" && !firstPerson().MatchString(text):
		kind = "O(c=0.7)"
	case firstPerson().MatchString(text) && strings.HasPrefix(text, "I"):
		kind = "B"
	}
	if pronounLead().MatchString(text) && len(ents) == 0 {
		score-- // "He agreed." says little on its own
	}
	fact := kind + " "
	for _, e := range ents {
		fact += "@" + e + " "
	}
	if len(ents) > 0 {
		fact = strings.TrimSpace(fact) + ": "
	}
	body := strings.TrimRight(text, " ")
	if !strings.HasSuffix(body, ".") && !strings.HasSuffix(body, "!") && !strings.HasSuffix(body, "\"") && !strings.HasSuffix(body, ")") {
		body += "."
	}
	return Proposal{Fact: fact + body, Reason: reason}, score, true
}

// dateRE finds explicit dates and weekdays: "November 28", "Nov 27",
// "2025-11-03", "on Friday", "at 10:30".
var dateRE = lazyRegexp(`(?i)\b(\d{4}-\d{2}-\d{2}|(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}\b|\d{1,2} (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*|(on|next|this|until|by) (monday|tuesday|wednesday|thursday|friday|saturday|sunday))`)

// entities returns the slugs of known entities named in text, as explicit
// @mentions or by name or alias (one to three words, a single word only
// when capitalised or when the slug is that lower-case word), in order of first mention.
func entities(text string, names Names) []string {
	var out []string
	add := func(slug string) {
		for _, e := range out {
			if strings.EqualFold(e, slug) {
				return
			}
		}
		out = append(out, slug)
	}
	words := wordRE().FindAllStringIndex(text, -1)
	for i := 0; i < len(words); i++ {
		for n := min(3, len(words)-i); n >= 1; n-- {
			span := text[words[i][0]:words[i+n-1][1]]
			w := strings.TrimSuffix(strings.TrimSuffix(span, "'s"), "’s")
			if n == 1 {
				// A single lower-case word names an entity only when its
				// slug is written so ("warelay"), not "castle" for
				// The-Castle.
				r, _ := utf8.DecodeRuneInString(w)
				if !unicode.IsUpper(r) && names[memory.EntityKey(w)] != w {
					continue
				}
			}
			if words[i][0] > 0 && text[words[i][0]-1] == '@' {
				if memory.ValidateSlug(w) == nil {
					add(w)
					break
				}
			}
			if slug, ok := names[memory.EntityKey(w)]; ok && memory.ValidateSlug(slug) == nil {
				if slug == strings.ToLower(slug) && strings.EqualFold(slug, w) {
					slug = w // a bare mention's key: keep the case as written
				}
				add(slug)
				i += n - 1
				break
			}
		}
	}
	return out
}

// codeLines marks the 1-based lines inside fenced code blocks.
func codeLines(data []byte) map[int]bool {
	code := map[int]bool{}
	in := false
	var fence string
	for i, l := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(l)
		switch {
		case !in && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")):
			in, fence = true, t[:3]
			code[i+1] = true
		case in:
			code[i+1] = true
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				in = false
			}
		}
	}
	return code
}

// String renders a proposal as its review-file line.
func (p Proposal) String() string {
	box := " "
	if p.Ticked {
		box = "x"
	}
	return fmt.Sprintf("- [%s] %s (from %s)", box, p.Fact, p.Source)
}

// firstWord returns the opening of text when it names the entity slug
// (so that "Pete went …" makes Peter the subject), else "\x00".
func firstWord(text, slug string, names Names) string {
	at := 0
	if strings.HasPrefix(text, "@") {
		at = 1
	}
	words := wordRE().FindAllStringIndex(text, 3)
	if len(words) == 0 || words[0][0] != at {
		return "\x00"
	}
	for n := len(words); n >= 1; n-- {
		w := text[:words[n-1][1]]
		k := memory.EntityKey(strings.TrimSuffix(strings.TrimSuffix(w[at:], "'s"), "’s"))
		if names[k] == slug || strings.EqualFold(k, slug) {
			return w
		}
	}
	return "\x00"
}
