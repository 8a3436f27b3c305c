package lang

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/danish"
	"github.com/blevesearch/snowballstem/dutch"
	"github.com/blevesearch/snowballstem/french"
	"github.com/blevesearch/snowballstem/german"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/norwegian"
	"github.com/blevesearch/snowballstem/portuguese"
	"github.com/blevesearch/snowballstem/spanish"
	"github.com/blevesearch/snowballstem/swedish"
)

// Stems of Latin-script words (docs/multilingual.md, "Stems"): the
// Snowball stemmers of the languages below, as the Snowball project
// generates them for Go (github.com/blevesearch/snowballstem). The full-text
// tokenizer stems English only (porter), so "Rechnungen", "fatture" and
// "fakturorna" do not find "Rechnung", "fattura" and "faktura".
//
// A stem is a token of its own, the stem followed by StemMark
// ("rechnungː"): a form no word of any text takes, so a stem matches only
// stems and never adds weight to the English word the tokenizer already
// makes of the same letters. Which language a query word is in cannot be
// told from the word alone, so a word is given the stems of every
// language here (the distinct ones: two to four), on both sides: an
// item's text (when Stemmed says it is written in one of these languages)
// and a query word. Two words then match when one of the languages
// stems them alike. Words of English text get no stems (Stemmed), so an
// English workspace has no stem tokens, and the stems of an English
// question match nothing there.

// StemMark ends every stem token. It is a letter (U+02D0, modifier letter
// triangular colon), so that the tokenizers keep it in the token, which
// their stemmers then leave alone (no suffix ends in it); no word ends in
// it but in phonetic transcriptions.
const StemMark = "ː"

// minStem is the fewest letters a word and its stem must have: shorter
// stems conflate words across languages ("cafe" and "caffè" are "caf" in
// Danish).
const minStem = 4

type stemmer struct {
	lang string
	stem func(*snowballstem.Env) bool
	// translit: the language's letters with marks are often written as a
	// vowel and e (ü as ue, ä as ae, ø as oe) or doubled (å as aa): the
	// stemmer is given the word folded and those digraphs collapsed
	// (Müller, Mueller and Muller are all "muller"). The other stemmers
	// are given the word as written, whose marks their suffixes need
	// ("-ación"), and their stem is folded after.
	translit bool
}

// stemmers are the languages whose words are stemmed, in a fixed order
// (the order of a word's stem tokens).
var stemmers = []stemmer{
	{"de", german.Stem, true},
	{"it", italian.Stem, false},
	{"sv", swedish.Stem, true},
	{"fr", french.Stem, false},
	{"es", spanish.Stem, false},
	{"pt", portuguese.Stem, false},
	{"nl", dutch.Stem, false},
	{"da", danish.Stem, true},
	{"no", norwegian.Stem, true},
}

// stemmable reports whether w, lower-cased and in NFKC, is a word to stem:
// Latin letters only (no digit: "v0", "AB-123" are codes), at least
// minStem of them, and not a function word.
func stemmable(w string) bool {
	if utf8.RuneCountInString(w) < minStem || IsFunctionWord(w) {
		return false
	}
	for _, r := range w {
		if !unicode.Is(unicode.Latin, r) && !unicode.Is(unicode.Mn, r) {
			return false
		}
	}
	return true
}

// stemTokens appends to out the stem tokens of the word w (as written),
// each once and not already in out; none for a word that is not stemmable.
func stemTokens(out []string, w string) []string {
	lw := strings.ToLower(nfkc(w))
	if !stemmable(lw) {
		return out
	}
	folded := fold(lw, true)
	collapsed := collapseDigraphs(folded)
	env := snowballstem.NewEnv("")
	for _, s := range stemmers {
		in := lw
		if s.translit {
			in = collapsed
		}
		env.SetCurrent(in)
		s.stem(env)
		st := env.Current()
		if !s.translit {
			st = fold(st, true)
		}
		if utf8.RuneCountInString(st) < minStem {
			continue
		}
		if t := st + StemMark; !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// collapseDigraphs turns the transliterations of letters with marks back
// into the plain letter, in a folded word: ue → u (but not after q: "que"),
// oe → o, ae → a, aa → a.
func collapseDigraphs(w string) string {
	if !strings.Contains(w, "e") && !strings.Contains(w, "aa") {
		return w
	}
	b := make([]byte, 0, len(w))
	for i := 0; i < len(w); i++ {
		c := w[i]
		b = append(b, c)
		if i+1 >= len(w) {
			continue
		}
		n := w[i+1]
		switch {
		case n == 'e' && (c == 'o' || c == 'a'),
			n == 'e' && c == 'u' && (i == 0 || w[i-1] != 'q'),
			n == 'a' && c == 'a':
			i++
		}
	}
	return string(b)
}

// Stemmed reports whether text is written in one of the languages whose
// words are stemmed rather than in English, from its function words and
// its letters. A foreign function word counts when written in lower case,
// or capitalised where a sentence begins, but not between two capitalised
// words ("Casa das Hortênsias", "Femke de Wit": a name, and English text
// names places and people in every language); a word with marks counts
// when written in lower case (a capitalised one is mostly a name: "São
// Gonçalo"). A word that is a function word in English and in another
// language ("a", "in", "per") counts for neither. The text is stemmed
// when it has more foreign function words than English ones, and two of
// them, or one and a word with marks, a name included ("Frau Müller hat
// die Rechnungen", "zweiwöchige … vor"); or, with no function word of any
// language, two words with marks in lower case. Text in other scripts
// tells nothing.
func Stemmed(text string) bool {
	en, other, marked, markedName := 0, 0, 0, 0
	ws := latinWords(text)
	for i, w := range ws {
		l, ok := functionWordLanguage[w.lower]
		switch {
		case !ok:
			if w.nonASCII && w.capital {
				markedName++
			} else if w.nonASCII {
				marked++
			}
		case l == "en":
			en++
		case l == "-":
			// English and another language's
		case w.capital && !w.sentenceStart:
		case !w.capital && w.joinedPrev && ws[i-1].capital && i+1 < len(ws) && ws[i+1].joinedPrev && ws[i+1].capital:
			// a particle of a name
		default:
			other++
		}
	}
	switch {
	case other >= 2:
		return other > en
	case other == 1:
		return marked+markedName >= 1 && other+marked+markedName > en
	default:
		return en == 0 && marked >= 2
	}
}

// latinWord is a run of letters that holds a Latin letter.
type latinWord struct {
	lower         string // lower-cased
	capital       bool   // its first letter is upper case
	nonASCII      bool   // it has a letter outside ASCII
	sentenceStart bool   // the first word, or the first of a sentence
	joinedPrev    bool   // only spaces or a hyphen between it and the word before
}

// latinWords are the runs of letters of text that hold a Latin letter, in
// order; the runs in other scripts are left out.
func latinWords(text string) []latinWord {
	var out []latinWord
	start, latin, nonASCII := -1, false, false
	sentence, joined, mark := true, false, false
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.Is(unicode.Mn, r) {
			if start < 0 {
				start, latin, nonASCII = i, false, false
			}
			if unicode.Is(unicode.Latin, r) {
				latin = true
				nonASCII = nonASCII || r >= utf8.RuneSelf
			}
			continue
		}
		if start >= 0 {
			out = appendLatin(out, text[start:i], latin, nonASCII, sentence, joined)
			start, sentence, joined = -1, false, true
		}
		// A sentence ends at a line break, or at . ! ? : ; before a
		// space (not in "0.8" or "e.g").
		switch {
		case r == '\n' || unicode.IsSpace(r) && mark:
			sentence, joined = true, false
		case r != ' ' && r != '-':
			joined = false
		}
		mark = strings.ContainsRune(".!?:;", r)
	}
	if start >= 0 {
		out = appendLatin(out, text[start:], latin, nonASCII, sentence, joined)
	}
	return out
}

func appendLatin(out []latinWord, w string, latin, nonASCII, sentence, joined bool) []latinWord {
	if !latin {
		return out
	}
	r, _ := utf8.DecodeRuneInString(w)
	return append(out, latinWord{strings.ToLower(w), unicode.IsUpper(r), nonASCII, sentence, joined})
}

// NotEnglish reports whether text is written in another language than
// English: in another script (CJK, Cyrillic, Greek, Arabic… for most of
// its letters), or in a Latin-script language Stemmed recognises. It
// tells a workspace whose logs are mostly not English, where an
// English-only embedding model's channel would mislead.
func NotEnglish(text string) bool {
	latin, other := 0, 0
	for _, r := range text {
		switch {
		case !unicode.IsLetter(r):
		case unicode.Is(unicode.Latin, r):
			latin++
		default:
			other++
		}
	}
	return other > latin || Stemmed(text)
}
