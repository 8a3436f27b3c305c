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

// NameTable maps entity names and aliases to slugs, finds them in text
// (MatchEntities) and resolves a name given on its own (Resolve), by the
// same rules, so that a question, `memoria entity` and recall's
// --entity agree on what a name names. Names are compared on whole words,
// without case or diacritics (lang.Fold), the longest name first: "The-
// Castle", "the castle" and "THE CASTLE" are one name, and so are "Zoë
// Müller" and "zoe muller". A name that is a single stop word ("Will")
// matches in a text only where the text capitalises it. A name several
// entities share names none of them.
type NameTable struct {
	names map[string]nameEntry // folded words of a name joined by ' ' (nameKey)
	// parts maps each word of a slug (folded; not a stop word, a generic
	// or calendar word, nor shorter than three letters) to the entities
	// whose slugs hold it: a word of only one entity's slug names that
	// entity ("Atlas" for Project-Atlas). Not the words of aliases: "the
	// family house" would make every "house" name The-Castle.
	parts map[string][]string
	// claimed holds each name key and each part, by the entity key
	// (memory.EntityKey) of each entity that claims it: an entity's names
	// are added many times over, and a common word of thousands of slugs
	// must not be looked for in a list of thousands each time.
	claimed  map[claim]bool
	maxWords int
	// cjk are the names written in a script without spaces (Han, kana,
	// Hangul), longest first: they are found inside runs of text too
	// ("王伟说" names 王伟).
	cjk []string
}

type claim struct{ key, entity string }

type nameEntry struct {
	slug    string
	primary bool // the slug's own name, which beats another entity's alias
	stop    bool // a single stop word: needs a capital letter in the text
	// others are the further entities with as good a claim to the name
	// (two entities' aliases "Pete"): the name then names none of them.
	others []string
}

// slugs are the entities that claim the name.
func (e nameEntry) slugs() []string { return append([]string{e.slug}, e.others...) }

// claim records that the entity (slug, whose memory.EntityKey is entity:
// the index keeps a page's slug as written and a mention's in lower case)
// claims key, and reports whether that is new.
func (t *NameTable) claim(key, entity string) bool {
	c := claim{key, entity}
	if t.claimed[c] {
		return false
	}
	t.claimed[c] = true
	return true
}

// NewNameTable builds a table from slugs to their aliases. Each slug's own
// display name (memory.EntityName) is included. Slugs that fail
// memory.ValidateSlug are skipped. When two entities claim a name, an
// entity's own name beats an alias; two aliases (or two own names) make
// the name ambiguous: it names neither.
func NewNameTable(entities map[string][]string) *NameTable {
	t := &NameTable{}
	for _, slug := range slices.Sorted(maps.Keys(entities)) {
		_ = t.Add(slug, entities[slug]...)
	}
	return t
}

// Add adds an entity's slug, with its display name, and further names. It
// fails only for a slug that memory.ValidateSlug rejects.
func (t *NameTable) Add(slug string, names ...string) error {
	if err := memory.ValidateSlug(slug); err != nil {
		return err
	}
	if t.names == nil {
		t.names = make(map[string]nameEntry)
		t.parts = make(map[string][]string)
		t.claimed = make(map[claim]bool)
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
	entity := memory.EntityKey(slug)
	for _, w := range ws {
		// A part is a key of its own in claimed: no name key holds "\x00".
		if k := foldWord(w.text); primary && nameWord(k) && strings.IndexFunc(k, lang.IsCJK) < 0 && t.claim("\x00"+k, entity) {
			t.parts[k] = append(t.parts[k], slug)
		}
	}
	key := nameKey(ws)
	if old, ok := t.names[key]; ok && (old.primary || !primary) {
		if old.primary == primary && t.claim(key, entity) {
			// As good a claim by a second entity makes the name ambiguous.
			old.others = append(old.others, slug)
			t.names[key] = old
		}
		return
	}
	t.claim(key, entity)
	t.names[key] = nameEntry{slug: slug, primary: primary, stop: len(ws) == 1 && IsStopWord(key)}
	t.maxWords = max(t.maxWords, len(ws))
	if len(ws) == 1 && strings.IndexFunc(key, lang.IsCJK) >= 0 && !slices.Contains(t.cjk, key) {
		t.cjk = append(t.cjk, key)
		slices.SortStableFunc(t.cjk, func(a, b string) int { return len(b) - len(a) })
	}
}

// Lookup returns the slug of the one entity a name stands for, as
// Resolve finds it.
func (t *NameTable) Lookup(name string) (string, bool) {
	slug, _ := t.Resolve(name)
	return slug, slug != ""
}

// Resolve finds the entity a name given on its own stands for (recall's
// --entity, `memoria entity NAME`), by the rules MatchEntities follows in
// a text: a name, slug or alias (any case, diacritics or not, '-' or '_'
// for a space); else a word of only one entity's slug ("Atlas" for
// Project-Atlas); else a short form that begins the first word of
// only one entity's names ("Rob" for Robert), here in any case. When
// several entities answer to the name, slug is "" and candidates lists
// them (as the table has them: a mention's slug is in lower case).
func (t *NameTable) Resolve(name string) (slug string, candidates []string) {
	if t == nil {
		return "", nil
	}
	ws := words(name)
	if len(ws) == 0 {
		return "", nil
	}
	key := nameKey(ws)
	if e, ok := t.names[key]; ok {
		return only(e.slugs())
	}
	if len(ws) > 1 {
		return "", nil
	}
	if c := t.parts[key]; len(c) > 0 {
		return only(c)
	}
	return only(t.shortForms(key))
}

// only is the one slug of a list of one, or the list as candidates (a
// copy: the caller may change it, the table's own lists must not).
func only(slugs []string) (string, []string) {
	if len(slugs) == 1 {
		return slugs[0], nil
	}
	return "", slices.Clone(slugs)
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
	caseless := !capitalisesNames(ws)
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
				key.WriteString(foldWord(w.text))
			}
			e, ok := t.names[key.String()]
			if !ok || (e.stop && !capitalised(ws[i].text)) {
				continue
			}
			if inIdentifier(text, ws[i].start, ws[i+n-1].end) || len(e.others) > 0 {
				// Part of a file name, variable or path: not a mention. Or
				// a name several entities share, which names none of them,
				// nor do its words, as Resolve has it.
				matched = n
				break
			}
			out = append(out, EntityMatch{Start: ws[i].start, End: ws[i+n-1].end, Slug: e.slug})
			matched = n
			break
		}
		if matched == 0 {
			if slug, ok := t.wordName(ws[i].text, caseless); ok && !inIdentifier(text, ws[i].start, ws[i].end) {
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

// wordName finds the entity a word of a text names where no whole name
// matched, as Resolve does: a word of only one entity's slug ("atlas"),
// else a short form of one entity's first name. A word several entities
// answer to names none. In a text the case says more than in a name given
// alone: a short form must be capitalised ("Rob", but not "rob a bank"),
// and so must a word of a slug unless the text is caseless ("tell me
// about atlas"): where the writer capitalises names, a word in lower case
// is a word ("the electric van" is not @Van-Dam-Tweewielers).
func (t *NameTable) wordName(w string, caseless bool) (string, bool) {
	k := foldWord(w)
	if c := t.parts[k]; len(c) > 0 {
		return c[0], len(c) == 1 && (caseless || capitalised(w))
	}
	if !capitalised(w) {
		return "", false
	}
	if c := t.shortForms(k); len(c) == 1 {
		return c[0], true
	}
	return "", false
}

// shortForms are the entities a short form of a name may stand for: a
// folded word of at least three letters, not a stop word, that begins
// the first word of their names ("Rob" for Robert, "Chris" for
// Christopher, "Kat" for Katherine). One entity: the word names it; two
// ("Alex": Alexander and Alexandra): it names neither. Sorted, for the
// same list each time.
func (t *NameTable) shortForms(lw string) []string {
	if !nameWord(lw) {
		return nil
	}
	var found []string
	for key, e := range t.names {
		first, _, _ := strings.Cut(key, " ")
		if len(first) <= len(lw) || !strings.HasPrefix(first, lw) {
			continue
		}
		found = append(found, e.slugs()...)
	}
	// One entity may begin several of the names, spelled two ways.
	slices.SortFunc(found, func(a, b string) int { return strings.Compare(memory.EntityKey(a), memory.EntityKey(b)) })
	return slices.CompactFunc(found, func(a, b string) bool { return memory.EntityKey(a) == memory.EntityKey(b) })
}

// nameWord reports whether a folded word may stand for a name it is only
// part of (a word of the name, a short form): three letters or more, and
// not a stop word, a generic word or a month or weekday abbreviation,
// which name no one ("The" of The-Castle, "Mar" of Marrakech).
func nameWord(lw string) bool {
	return utf8.RuneCountInString(lw) >= 3 && !IsStopWord(lw) && !genericWords[lw] && !calendarAbbrev[lw]
}

// calendarAbbrev are short month and weekday names, which begin other
// words ("Mar" of Marrakech, "Sun" of Sunil) but name days: the English
// abbreviations, and the names as short as they are ("may").
var calendarAbbrev = func() map[string]bool {
	m := map[string]bool{}
	months, weekdays := lang.Months["en"], lang.Weekdays["en"]
	for _, n := range slices.Concat(months[:], weekdays[:]) {
		for _, w := range slices.Concat(n.Short, n.Full) {
			if len(w) <= 3 || slices.Contains(n.Short, w) {
				m[w] = true
			}
		}
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
			e := t.names[name]
			m := EntityMatch{Start: from + k, End: from + k + len(name), Slug: e.slug}
			from = m.End
			if len(e.others) == 0 && !slices.ContainsFunc(out, func(o EntityMatch) bool { return o.Start < m.End && m.Start < o.End }) {
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

// capitalisesNames reports whether a text capitalises a word other than
// its first and "I": its writer then capitalises names.
func capitalisesNames(ws []word) bool {
	for k, w := range ws {
		if k > 0 && w.text != "I" && capitalised(w.text) {
			return true
		}
	}
	return false
}

func capitalised(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// nameKey is the key a name's words are kept under: each word folded
// (foldWord), joined by spaces.
func nameKey(ws []word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = foldWord(w.text)
	}
	return strings.Join(parts, " ")
}

// foldWord is a word as names are compared: lang.Fold, except that a word
// with CJK in it is only lower-cased, as matchCJK finds those names in
// the text as written (folding would take the voicing marks off kana).
func foldWord(w string) string {
	if strings.IndexFunc(w, lang.IsCJK) >= 0 {
		return strings.ToLower(w)
	}
	return lang.Fold(w)
}
