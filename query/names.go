package query

import (
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"memoria/lang"
	"memoria/memory"
)

// EntityMatch is a known entity named in a text: text[Start:End] names the
// entity whose slug is Slug.
type EntityMatch struct {
	Start, End int
	Slug       string
}

// EntityMatcher finds the names of known entities in a text. NameTable is
// the usual implementation; the index may provide another.
type EntityMatcher interface {
	// MatchEntities returns non-overlapping matches in text order.
	MatchEntities(text string) []EntityMatch
}

// NameTable maps entity names and aliases to slugs and finds them in text:
// case-insensitively, on whole words, the longest name first. A name is
// compared as its sequence of words, so "The-Castle", "the castle" and
// "THE CASTLE" are one name. A name that is a single stop word ("Will")
// matches only where the text capitalises it.
type NameTable struct {
	names    map[string]nameEntry // words of a name, lower-cased, joined by ' '
	maxWords int
	// cjk are the names written in a script without spaces (Han, kana,
	// Hangul), longest first: they are found inside runs of text too
	// ("王伟说" names 王伟).
	cjk []string
}

type nameEntry struct {
	slug    string
	primary bool // the slug's own name, which beats another entity's alias
	stop    bool // a single stop word: needs a capital letter in the text
}

// NewNameTable builds a table from slugs to their aliases. Each slug's own
// display name (memory.EntityName) is included. Slugs that fail
// memory.ValidateSlug are skipped. When two entities claim a name, an
// entity's own name beats an alias, and otherwise the slug that sorts first
// wins.
func NewNameTable(entities map[string][]string) *NameTable {
	t := &NameTable{}
	for _, slug := range slices.Sorted(maps.Keys(entities)) {
		_ = t.Add(slug, entities[slug]...)
	}
	return t
}

// NewNameTableFromPages builds a table from entity pages (slug, name and
// aliases), as the Markdown parser produces them.
func NewNameTableFromPages(pages []memory.EntityPage) *NameTable {
	m := make(map[string][]string, len(pages))
	for _, p := range pages {
		names := m[p.Slug]
		if p.Name != "" {
			names = append(names, p.Name)
		}
		m[p.Slug] = append(names, p.Aliases...)
	}
	return NewNameTable(m)
}

// Add adds an entity's slug, with its display name, and further names. It
// fails only for a slug that memory.ValidateSlug rejects.
func (t *NameTable) Add(slug string, names ...string) error {
	if err := memory.ValidateSlug(slug); err != nil {
		return err
	}
	if t.names == nil {
		t.names = make(map[string]nameEntry)
	}
	t.add(slug, memory.EntityName(slug), true)
	for _, n := range names {
		t.add(slug, n, false)
	}
	return nil
}

func (t *NameTable) add(slug, name string, primary bool) {
	ws := words(name)
	if len(ws) == 0 {
		return
	}
	if len(ws) > 1 && strings.EqualFold(ws[0].text, "the") {
		// "The Cabin" is also "our cabin", "at the cabin": the name
		// without its article names it too (never over another entity's
		// own name).
		t.add(slug, strings.TrimSpace(name[ws[1].start:]), false)
	}
	key := joinLower(ws)
	if old, ok := t.names[key]; ok && (old.primary || !primary) {
		return
	}
	t.names[key] = nameEntry{slug: slug, primary: primary, stop: len(ws) == 1 && IsStopWord(key)}
	t.maxWords = max(t.maxWords, len(ws))
	if len(ws) == 1 && strings.IndexFunc(key, lang.IsCJK) >= 0 && !slices.Contains(t.cjk, key) {
		t.cjk = append(t.cjk, key)
		slices.SortStableFunc(t.cjk, func(a, b string) int { return len(b) - len(a) })
	}
}

// Lookup returns the slug that a name, alias or slug (in any case, with
// spaces or dashes) belongs to.
func (t *NameTable) Lookup(name string) (string, bool) {
	if t == nil {
		return "", false
	}
	ws := words(name)
	if len(ws) == 0 {
		return "", false
	}
	e, ok := t.names[joinLower(ws)]
	return e.slug, ok
}

// Len is the number of names in the table.
func (t *NameTable) Len() int {
	if t == nil {
		return 0
	}
	return len(t.names)
}

// MatchEntities finds known names in text, whole words only, longest first.
func (t *NameTable) MatchEntities(text string) []EntityMatch {
	if t == nil || len(t.names) == 0 {
		return nil
	}
	ws := words(text)
	var out []EntityMatch
	var key strings.Builder
	for i := 0; i < len(ws); {
		matched := 0
		for n := min(t.maxWords, len(ws)-i); n >= 1; n-- {
			if !adjacent(text, ws[i:i+n]) {
				continue
			}
			key.Reset()
			for k, w := range ws[i : i+n] {
				if k > 0 {
					key.WriteByte(' ')
				}
				key.WriteString(strings.ToLower(w.text))
			}
			e, ok := t.names[key.String()]
			if !ok || (e.stop && !capitalised(ws[i].text)) {
				continue
			}
			if inIdentifier(text, ws[i].start, ws[i+n-1].end) {
				matched = n // part of a file name, variable or path: not a mention
				break
			}
			out = append(out, EntityMatch{Start: ws[i].start, End: ws[i+n-1].end, Slug: e.slug})
			matched = n
			break
		}
		if matched == 0 {
			if slug, ok := t.shortName(ws[i].text); ok && !inIdentifier(text, ws[i].start, ws[i].end) {
				out = append(out, EntityMatch{Start: ws[i].start, End: ws[i].end, Slug: slug})
			}
		}
		i += max(matched, 1)
	}
	if len(t.cjk) > 0 {
		out = t.matchCJK(text, out)
	}
	return out
}

// shortName finds the entity a short form of a name stands for: a
// capitalised word of at least three letters, not a stop word, that begins
// the first word of exactly one entity's names ("Rob" for Robert, "Chris"
// for Christopher, "Kat" for Katherine). A word two entities' names begin
// with ("Alex": Alexander and Alexandra) names neither.
func (t *NameTable) shortName(w string) (string, bool) {
	if utf8.RuneCountInString(w) < 3 || !capitalised(w) {
		return "", false
	}
	lw := strings.ToLower(w)
	if IsStopWord(lw) || genericWords[lw] || calendarAbbrev[lw] {
		return "", false
	}
	found := ""
	for key, e := range t.names {
		first, _, _ := strings.Cut(key, " ")
		if len(first) <= len(lw) || !strings.HasPrefix(first, lw) {
			continue
		}
		if found != "" && found != e.slug {
			return "", false
		}
		found = e.slug
	}
	return found, found != ""
}

// calendarAbbrev are short month and weekday names, which begin other
// words ("Mar" of Marrakech, "Sun" of Sunil) but name days.
var calendarAbbrev = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("jan feb mar apr may jun jul aug sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun") {
		m[w] = true
	}
	return m
}()

// matchCJK adds the CJK names found inside longer runs of text, where
// no space marks a word's edge, to the matches found word by word.
func (t *NameTable) matchCJK(text string, out []EntityMatch) []EntityMatch {
	lower := strings.ToLower(text)
	if len(lower) != len(text) {
		lower = text // offsets must stay those of text; CJK has no case anyway
	}
	added := false
	for _, name := range t.cjk {
		for from := 0; ; {
			k := strings.Index(lower[from:], name)
			if k < 0 {
				break
			}
			m := EntityMatch{Start: from + k, End: from + k + len(name), Slug: t.names[name].slug}
			from = m.End
			if !slices.ContainsFunc(out, func(o EntityMatch) bool { return o.Start < m.End && m.Start < o.End }) {
				out = append(out, m)
				added = true
			}
		}
	}
	if added {
		slices.SortStableFunc(out, func(a, b EntityMatch) int { return a.Start - b.Start })
	}
	return out
}

// adjacent reports whether consecutive words are separated only by white
// space and at most one joining character (- _ . ' ’ & / +), so that a name
// does not run across a comma or a sentence break ("Peter, Andy").
func adjacent(text string, ws []word) bool {
	for k := 1; k < len(ws); k++ {
		punct := 0
		for _, r := range text[ws[k-1].end:ws[k].start] {
			switch {
			case unicode.IsSpace(r):
			case strings.ContainsRune("-_.'’&/+", r):
				punct++
			default:
				return false
			}
		}
		if punct > 1 {
			return false
		}
	}
	return true
}

// identifierGlue are the characters that join words into one identifier
// when no space surrounds them: "warelay.yaml", "WARELAY_DEBUG",
// "name=value", "host:port".
const identifierGlue = "._=:"

// inIdentifier reports whether text[start:end] is part of a longer
// identifier: a glue character joins it to a letter or digit, with no
// space between, or it ends a path ("/var/lib/warelay", "~/warelay"). A
// name inside a file name, an environment variable, a metric or a path
// names the thing in code, not the entity: "warelay.yaml" is a file. A
// sentence that ends after a name ("ask Pete.") and a slash between two
// names ("Pete/Andy") are prose.
func inIdentifier(text string, start, end int) bool {
	if end+1 < len(text) && strings.IndexByte(identifierGlue, text[end]) >= 0 {
		if r, _ := utf8.DecodeRuneInString(text[end+1:]); isWordRune(r) {
			return true
		}
	}
	if start >= 2 && strings.IndexByte(identifierGlue, text[start-1]) >= 0 {
		if r, _ := utf8.DecodeLastRuneInString(text[:start-1]); isWordRune(r) {
			return true
		}
	}
	if start >= 1 && text[start-1] == '/' {
		token := text[strings.LastIndexAny(text[:start], " \t\n")+1 : start]
		return strings.Count(token, "/") >= 2 || strings.HasPrefix(token, "/") || strings.HasPrefix(token, "~")
	}
	return false
}

func capitalised(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

func joinLower(ws []word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = strings.ToLower(w.text)
	}
	return strings.Join(parts, " ")
}
