package porter

// Token length limits of FTS5's porter tokenizer, in bytes: shorter or
// longer tokens are passed through without stemming (FTS5_PORTER_MAX_TOKEN
// and the nToken<3 test in fts5PorterCb).
const (
	minStemLen = 3
	maxStemLen = 64
)

// Stem returns the term FTS5's porter tokenizer emits for one token that
// the base tokenizer has already produced (so: case-folded, diacritics
// removed). Tokens shorter than 3 or longer than 64 bytes are returned
// unchanged.
//
// Like FTS5, Stem works on bytes: it only ever matches or rewrites ASCII
// letters, so a purely non-ASCII token is returned unchanged, while a mixed
// token such as "ωings" has its ASCII suffix stemmed exactly as SQLite does
// (bytes >= 0x80 count as consonants).
func Stem(word string) string {
	n := len(word)
	if n < minStemLen || n > maxStemLen {
		return word
	}
	var arr [maxStemLen + 1]byte
	copy(arr[:], word)
	b := stemBytes(arr[:n])
	if string(b) == word {
		return word
	}
	return string(b)
}

// stemBytes stems b in place and returns the stemmed prefix of b's backing
// array. Step 1b may grow the token by one byte, so b needs a capacity of at
// least len(b)+1.
func stemBytes(b []byte) []byte {
	if len(b) < minStemLen || len(b) > maxStemLen {
		return b
	}
	s := stemmer{b: b}
	s.run()
	return s.b
}

type stemmer struct{ b []byte }

func (s *stemmer) run() {
	s.step1a()
	if s.step1b() && !s.step1b2() {
		n := len(s.b)
		c := s.b[n-1]
		switch {
		case n >= 2 && !isVowel(c, false) && c != 'l' && c != 's' && c != 'z' && c == s.b[n-2]:
			s.b = s.b[:n-1] // hopp(ing) -> hop
		case mEq1(s.b) && oStar(s.b):
			s.replace(n, "e") // fil(ing) -> file
		}
	}
	s.step1c()
	s.apply(step2)
	s.apply(step3)
	s.apply(step4)
	s.step5a()
	s.step5b()
}

// isVowel reports whether c is a vowel; 'y' counts as one when yIsVowel,
// which callers set when the preceding letter is a consonant (or, in
// hasVowel, whenever y is not the first letter).
func isVowel(c byte, yIsVowel bool) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u':
		return true
	case 'y':
		return yIsVowel
	}
	return false
}

// gobbleVC skips the leading consonants, then vowels, of stem and returns
// the length of that prefix plus the consonant ending one [C]VC sequence, or
// 0 if stem holds no such sequence. prevCons tells whether the letter before
// stem[0] was a consonant (it decides how a leading 'y' is classified).
func gobbleVC(stem []byte, prevCons bool) int {
	cons := prevCons
	i := 0
	for ; i < len(stem); i++ {
		if cons = !isVowel(stem[i], cons); !cons {
			break
		}
	}
	for i++; i < len(stem); i++ {
		if cons = !isVowel(stem[i], cons); cons {
			return i + 1
		}
	}
	return 0
}

// mGt0 is Porter's condition (m > 0).
func mGt0(stem []byte) bool { return gobbleVC(stem, false) != 0 }

// mGt1 is Porter's condition (m > 1).
func mGt1(stem []byte) bool {
	n := gobbleVC(stem, false)
	return n != 0 && gobbleVC(stem[n:], true) != 0
}

// mEq1 is Porter's condition (m = 1).
func mEq1(stem []byte) bool {
	n := gobbleVC(stem, false)
	return n != 0 && gobbleVC(stem[n:], true) == 0
}

// oStar is Porter's condition (*o): stem ends consonant-vowel-consonant and
// the final consonant is not w, x or y.
func oStar(stem []byte) bool {
	switch stem[len(stem)-1] {
	case 'w', 'x', 'y':
		return false
	}
	var mask uint
	cons := false
	for _, c := range stem {
		cons = !isVowel(c, cons)
		mask <<= 1
		if cons {
			mask |= 1
		}
	}
	return mask&7 == 5
}

// mGt1AndSorT is the condition (m > 1 and (*S or *T)) of step 4's "ion".
func mGt1AndSorT(stem []byte) bool {
	last := stem[len(stem)-1]
	return (last == 's' || last == 't') && mGt1(stem)
}

// hasVowel is Porter's condition (*v*). FTS5 treats 'y' as a vowel anywhere
// but in first position, whatever precedes it.
func hasVowel(stem []byte) bool {
	for i, c := range stem {
		if isVowel(c, i > 0) {
			return true
		}
	}
	return false
}

// replace truncates the token to its first n bytes and appends repl. The
// buffer's capacity always suffices (see stemBytes); reslicing instead of
// append keeps the buffer from escaping to the heap.
func (s *stemmer) replace(n int, repl string) {
	s.b = s.b[:n+len(repl)]
	copy(s.b[n:], repl)
}

func (s *stemmer) hasSuffix(suf string) bool {
	// FTS5 requires a non-empty stem in front of every suffix.
	return len(s.b) > len(suf) && string(s.b[len(s.b)-len(suf):]) == suf
}

// step1a: sses -> ss, ies -> i, ss -> ss, s -> "".
func (s *stemmer) step1a() {
	n := len(s.b)
	if s.b[n-1] != 's' {
		return
	}
	switch {
	case s.b[n-2] == 'e':
		if (n > 4 && s.b[n-4] == 's' && s.b[n-3] == 's') || (n > 3 && s.b[n-3] == 'i') {
			s.b = s.b[:n-2]
		} else {
			s.b = s.b[:n-1]
		}
	case s.b[n-2] != 's':
		s.b = s.b[:n-1]
	}
}

// step1b: (m>0) eed -> ee, (*v*) ed -> "", (*v*) ing -> "". It reports
// whether "ed" or "ing" was removed.
func (s *stemmer) step1b() bool {
	switch {
	case s.hasSuffix("eed"):
		if stem := s.b[:len(s.b)-3]; mGt0(stem) {
			s.b = s.b[:len(s.b)-1]
		}
	case s.hasSuffix("ed"):
		if hasVowel(s.b[:len(s.b)-2]) {
			s.b = s.b[:len(s.b)-2]
			return true
		}
	case s.hasSuffix("ing"):
		if hasVowel(s.b[:len(s.b)-3]) {
			s.b = s.b[:len(s.b)-3]
			return true
		}
	}
	return false
}

// step1b2: at -> ate, bl -> ble, iz -> ize (unconditionally, after step 1b
// removed ed/ing). It reports whether a rule applied.
func (s *stemmer) step1b2() bool {
	for _, suf := range [...]string{"at", "bl", "iz"} {
		if s.hasSuffix(suf) {
			s.replace(len(s.b), "e")
			return true
		}
	}
	return false
}

// step1c: (*v*) y -> i.
func (s *stemmer) step1c() {
	n := len(s.b)
	if s.b[n-1] == 'y' && hasVowel(s.b[:n-1]) {
		s.b[n-1] = 'i'
	}
}

// step5a: (m>1) e -> "", (m=1 and not *o) e -> "".
func (s *stemmer) step5a() {
	n := len(s.b)
	if s.b[n-1] != 'e' {
		return
	}
	if stem := s.b[:n-1]; mGt1(stem) || (mEq1(stem) && !oStar(stem)) {
		s.b = s.b[:n-1]
	}
}

// step5b: (m>1 and *d and *L) -> single letter, i.e. "ll" -> "l".
func (s *stemmer) step5b() {
	n := len(s.b)
	if n > 1 && s.b[n-1] == 'l' && s.b[n-2] == 'l' && mGt1(s.b[:n-1]) {
		s.b = s.b[:n-1]
	}
}

// condition names the test a rule applies to the stem left in front of its
// suffix. (An enum rather than a func value keeps the stem buffer on the
// stack.)
type condition uint8

const (
	condMGt0        condition = iota // m > 0
	condMGt1                         // m > 1
	condMGt1AndSorT                  // m > 1 and (*S or *T)
)

func (c condition) holds(stem []byte) bool {
	switch c {
	case condMGt0:
		return mGt0(stem)
	case condMGt1:
		return mGt1(stem)
	}
	return mGt1AndSorT(stem)
}

// rule replaces suffix by repl when cond holds for the remaining stem.
type rule struct {
	suffix, repl string
	cond         condition
}

// ruleSet is one step's rules indexed, as FTS5 dispatches them, by the
// second-to-last letter of their suffix.
type ruleSet [256][]rule

func index(rules []rule) *ruleSet {
	var set ruleSet
	for _, r := range rules {
		c := r.suffix[len(r.suffix)-2]
		set[c] = append(set[c], r)
	}
	return &set
}

// apply runs the first rule whose suffix matches (with a non-empty stem in
// front of it). As in FTS5, a matching rule whose condition fails ends the
// step: no shorter suffix is tried.
func (s *stemmer) apply(set *ruleSet) {
	if len(s.b) < 2 {
		return
	}
	for _, r := range set[s.b[len(s.b)-2]] {
		if !s.hasSuffix(r.suffix) {
			continue
		}
		stem := s.b[:len(s.b)-len(r.suffix)]
		if r.cond.holds(stem) {
			s.replace(len(stem), r.repl)
		}
		return
	}
}

var step2, step3, step4 = index(step2Rules), index(step3Rules), index(step4Rules)

// The rule lists keep FTS5's order among suffixes that share their
// second-to-last letter (FTS5 dispatches on that letter, so suffixes with
// different ones can never both match).
var (
	step2Rules = []rule{
		{"ational", "ate", condMGt0},
		{"tional", "tion", condMGt0},
		{"enci", "ence", condMGt0},
		{"anci", "ance", condMGt0},
		{"izer", "ize", condMGt0},
		{"logi", "log", condMGt0},
		{"bli", "ble", condMGt0},
		{"alli", "al", condMGt0},
		{"entli", "ent", condMGt0},
		{"eli", "e", condMGt0},
		{"ousli", "ous", condMGt0},
		{"ization", "ize", condMGt0},
		{"ation", "ate", condMGt0},
		{"ator", "ate", condMGt0},
		{"alism", "al", condMGt0},
		{"iveness", "ive", condMGt0},
		{"fulness", "ful", condMGt0},
		{"ousness", "ous", condMGt0},
		{"aliti", "al", condMGt0},
		{"iviti", "ive", condMGt0},
		{"biliti", "ble", condMGt0},
	}
	step3Rules = []rule{
		{"ical", "ic", condMGt0},
		{"ness", "", condMGt0},
		{"icate", "ic", condMGt0},
		{"iciti", "ic", condMGt0},
		{"ful", "", condMGt0},
		{"ative", "", condMGt0},
		{"alize", "al", condMGt0},
	}
	step4Rules = []rule{
		{"al", "", condMGt1},
		{"ance", "", condMGt1},
		{"ence", "", condMGt1},
		{"er", "", condMGt1},
		{"ic", "", condMGt1},
		{"able", "", condMGt1},
		{"ible", "", condMGt1},
		{"ant", "", condMGt1},
		{"ement", "", condMGt1},
		{"ment", "", condMGt1},
		{"ent", "", condMGt1},
		{"ion", "", condMGt1AndSorT},
		{"ou", "", condMGt1},
		{"ism", "", condMGt1},
		{"ate", "", condMGt1},
		{"iti", "", condMGt1},
		{"ous", "", condMGt1},
		{"ive", "", condMGt1},
		{"ize", "", condMGt1},
	}
)
