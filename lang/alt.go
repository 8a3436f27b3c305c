package lang

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/russian"
	"golang.org/x/text/unicode/norm"
)

// The full-text tokenizer (porter unicode61 remove_diacritics 2) fits
// English and other space-separated Latin text. What it cannot derive is
// computed here, in Go, and added to the items' full-text rows
// (docs/multilingual.md has the measurements behind each choice):
//
//   - CJK: unicode61 finds no word boundaries in Chinese and Japanese (a
//     whole clause is one token), so each run of Han, kana or Hangul is
//     indexed as its overlapping bigrams ("北京天气" → 北京 京天 天气); a
//     run of one character as itself. Latin words glued to CJK text
//     ("把Memoria部署") are indexed on their own too.
//   - Folds unicode61 does not make: width (full-width and half-width
//     forms, as NFKC folds them: "ＡＢ－１２３" is AB-123), ё→е, Greek accents and final sigma, ß→ss,
//     ø→o, æ→ae, œ→oe, ł→l, đ→d, ı→i, þ→th; and the transliterations of
//     letters with marks: ü→ue, ö→oe, ä→ae, å→aa, ø→oe ("Müller" is
//     found by "Mueller", and "Mueller" by "Müller").
//   - Russian stems (Snowball) for Cyrillic words.
//   - Stems of Latin words (stem.go) in text written in a language other
//     than English that Snowball stems (Stemmed): German, Italian,
//     Swedish, French, Spanish, Portuguese, Dutch, Danish, Norwegian.
//
// Queries get the same forms (AltTerms), so every alt term is a plain
// word of the index: no column filter is needed, and a query mixing
// scripts is scored by one bm25 over all its terms.

// Version changes whenever AltText makes other tokens; it is part of the
// index identity (with Unicode, below), so existing indexes are rebuilt.
const Version = 4

// Unicode names the Unicode tables AltText depends on (Go's for letters
// and case, x/text's for decomposition): a Go or x/text upgrade may make
// other tokens from the same text, and an index deletes rows by making
// them again, so it is part of the index identity too.
var Unicode = unicode.Version + "/" + norm.Version

// IsCJK reports whether r belongs to a script written without spaces
// between words (Han, Hiragana, Katakana) or whose words carry particles
// (Hangul), which are searched by bigrams.
func IsCJK(r rune) bool {
	if r < 0x1100 {
		return false
	}
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r) ||
		r == 'ー' || r == '々'
}

// isTokenRune approximates unicode61's token characters: letters, numbers
// and combining marks (which continue a token).
func isTokenRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Co, r)
}

// AltText is what an item's text adds to its full-text row: the extra
// tokens, space separated, each word's in the order of the words, or ""
// for text the tokenizer handles alone (English in ASCII).
func AltText(text string) string {
	stem := Stemmed(text)
	if !stem && !hasNonASCII(text) {
		return ""
	}
	var b strings.Builder
	eachWord(text, !stem, func(w string) {
		for _, t := range wordAlts(w, stem) {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(t)
		}
	})
	return b.String()
}

// AltTerms are the extra search terms for a query word, as the alt column
// holds them: the bigrams of its CJK runs and the words glued to them, its
// folded and transliterated forms, its stems (those of every language
// stem.go knows, since a word alone does not tell its language: they
// match only text that Stemmed, never English text). Nil for a word that
// has none (an English function word, a number).
func AltTerms(word string) []string {
	var out []string
	eachWord(word, false, func(w string) {
		for _, t := range wordAlts(w, true) {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	})
	return out
}

// wordAlts are the alt tokens of one unicode61 token w: its alt forms if
// it has a letter outside ASCII, then, if stem, its stems; each once.
func wordAlts(w string, stem bool) []string {
	var out []string
	if hasNonASCII(w) {
		for _, t := range altForms(w) {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	if stem {
		out = stemTokens(out, w)
	}
	return out
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// eachWord calls fn for each run of token characters in s, or, if
// nonASCII, only for those that contain a non-ASCII character.
func eachWord(s string, nonASCIIOnly bool, fn func(string)) {
	start, nonASCII := -1, false
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if isTokenRune(r) {
			if start < 0 {
				start, nonASCII = i, false
			}
			if r >= utf8.RuneSelf {
				nonASCII = true
			}
		} else if start >= 0 {
			if nonASCII || !nonASCIIOnly {
				fn(s[start:i])
			}
			start = -1
		}
		i += size
	}
	if start >= 0 && (nonASCII || !nonASCIIOnly) {
		fn(s[start:])
	}
}

// altForms are the alt tokens of one unicode61 token w (a run of token
// characters with at least one non-ASCII character).
func altForms(w string) []string {
	var out []string
	if strings.IndexFunc(w, IsCJK) >= 0 {
		w = nfkc(w) // half-width kana as full-width, full-width Latin as ASCII
		// Split into CJK runs (bigrams) and the pieces between them
		// (indexed as words of their own).
		var run []rune
		flush := func() {
			switch len(run) {
			case 0:
			case 1:
				out = append(out, string(run))
			default:
				for i := 0; i+1 < len(run); i++ {
					out = append(out, string(run[i:i+2]))
				}
			}
			run = run[:0]
		}
		piece := -1
		for i, r := range w {
			if IsCJK(r) {
				if piece >= 0 {
					out = append(out, wordForms(w[piece:i], true)...)
					piece = -1
				}
				run = append(run, r)
				continue
			}
			flush()
			if piece < 0 {
				piece = i
			}
		}
		flush()
		if piece >= 0 {
			out = append(out, wordForms(w[piece:], true)...)
		}
		return out
	}
	return wordForms(w, false)
}

// wordForms are the alt forms of a word without CJK: the word itself when
// glued (it was part of a longer token), its fold and its
// transliteration when they differ from what the tokenizer makes of the
// word, and its Russian stem.
func wordForms(w string, glued bool) []string {
	var out []string
	if glued {
		out = append(out, w)
	}
	if !hasNonASCII(w) {
		return out
	}
	f, plain := fold(w, true), fold(w, false)
	if f != "" && f != plain && !slices.Contains(out, f) {
		out = append(out, f)
	}
	if t := transliterate(w); t != "" && t != f && t != plain && !slices.Contains(out, t) {
		out = append(out, t)
	}
	if stemRussian && isCyrillic(w) {
		s := russian.Stem(f, true)
		if s != "" && s != f && utf8.RuneCountInString(s) >= 3 && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// stemRussian turns the Snowball Russian stems on: measured to help on
// the multilingual set (docs/multilingual.md).
const stemRussian = true

func isCyrillic(w string) bool {
	for _, r := range w {
		if unicode.Is(unicode.Cyrillic, r) {
			return true
		}
	}
	return false
}

// specialFolds are letters that carry no decomposable diacritic, so that
// remove_diacritics leaves them, but that people often write without.
var specialFolds = map[rune]string{
	'ß': "ss", 'ø': "o", 'æ': "ae", 'œ': "oe", 'ł': "l", 'đ': "d", 'ı': "i",
	'þ': "th", 'ð': "d", 'ς': "σ", 'ё': "е",
}

// transliterations are the letters people without them on their keyboard
// write as two: German and Scandinavian umlauts and å, ø.
var transliterations = map[rune]string{
	'ä': "ae", 'ö': "oe", 'ü': "ue", 'å': "aa", 'ø': "oe",
}

// Fold is how a name is compared with another: lower case, width folded
// (full-width and half-width forms), diacritics removed and the special
// letters folded ("Zoë Müller" and "zoe muller", "Søren" and "Soren"), as
// the index folds the words it searches, so that a name and its words
// match alike. Cyrillic keeps its marks except ё.
func Fold(w string) string {
	if !hasNonASCII(w) {
		return strings.ToLower(w)
	}
	return fold(w, true)
}

// nfkc folds the width of s: the letters, digits and signs of the
// half-width and full-width forms (U+FF00–U+FFEF: "ＡＢ－１２３", "ｶﾀｶﾅ")
// as NFKC makes them, the others left as they are (NFKC would also make
// "m³" "m3" and "ﬁ" "fi", which the tokenizer has always kept).
func nfkc(s string) string {
	if strings.IndexFunc(s, isWide) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isWide(r) {
			b.WriteString(norm.NFKC.String(string(r)))
		} else {
			b.WriteRune(r)
		}
	}
	return norm.NFC.String(b.String())
}

// isWide reports whether r is one of the half-width and full-width forms.
func isWide(r rune) bool { return r >= 0xFF00 && r <= 0xFFEF }

// fold lower-cases w and removes its diacritics (NFD, marks dropped) and,
// if special, folds width (nfkc) and the special
// letters and removes the marks of letters outside the Latin script too.
// Without special it is what the tokenizer's remove_diacritics makes of
// w, which folds Latin letters only. Cyrillic keeps its marks (й is a
// letter of its own) except ё.
func fold(w string, special bool) string {
	return foldWith(w, special, nil)
}

// transliterate is fold with the letters of transliterations written as
// two ("Müller" → "mueller", "Øresund" → "oeresund"), or "" when w has
// none of them.
func transliterate(w string) string {
	lw := norm.NFC.String(strings.ToLower(nfkc(w)))
	if strings.IndexFunc(lw, func(r rune) bool { _, ok := transliterations[r]; return ok }) < 0 {
		return ""
	}
	return foldWith(lw, true, transliterations)
}

func foldWith(w string, special bool, first map[rune]string) string {
	if special {
		w = nfkc(w)
	}
	var b strings.Builder
	for _, r := range norm.NFC.String(strings.ToLower(w)) {
		if s, ok := first[r]; ok {
			b.WriteString(s)
			continue
		}
		if s, ok := specialFolds[r]; ok && special {
			b.WriteString(s)
			continue
		}
		if unicode.Is(unicode.Cyrillic, r) || (!special && !unicode.Is(unicode.Latin, r)) {
			b.WriteRune(r)
			continue
		}
		for _, d := range norm.NFD.String(string(r)) {
			if !unicode.Is(unicode.Mn, d) {
				b.WriteRune(d)
			}
		}
	}
	return b.String()
}
