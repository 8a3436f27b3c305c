package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// SentenceEnd reports whether the '.', '!' or '?' at s[i] ends a sentence,
// and returns the offset just past it and the closing quotes or brackets
// that follow it; it returns -1 when it ends none. A sentence ends there
// when white space and the start of another sentence follow (a capital, a
// digit, a currency sign, an opening quote or bracket, or a letter of a
// script without case), or nothing does; a '.' after an abbreviation or
// an initial ("Dr.", "e.g.", "J.") ends none. Recall, reflect and retain
// all cut prose into sentences with it, so that they read the same
// sentences.
func SentenceEnd(s string, i int) int {
	if i < 0 || i >= len(s) || s[i] != '.' && s[i] != '!' && s[i] != '?' {
		return -1
	}
	end := i + 1
	for end < len(s) {
		r, n := utf8.DecodeRuneInString(s[end:])
		if !strings.ContainsRune(`"')]”’`, r) {
			break
		}
		end += n
	}
	next := end
	for next < len(s) && isSpace(s[next]) {
		next++
	}
	switch {
	case next == len(s):
	case next == end:
		return -1 // "3.5", "e.g.," or "?!": no white space after it
	default:
		if r, _ := utf8.DecodeRuneInString(s[next:]); !startsSentence(r) {
			return -1
		}
	}
	if s[i] == '.' && abbreviation(s[:i]) {
		return -1
	}
	return end
}

// Sentences cuts a line of prose into its sentences (SentenceEnd), each
// without the white space around it.
func Sentences(line string) []string {
	var out []string
	start := 0
	for i := 0; i < len(line); i++ {
		if end := SentenceEnd(line, i); end > 0 {
			if t := strings.TrimSpace(line[start:end]); t != "" {
				out = append(out, t)
			}
			start, i = end, end-1
		}
	}
	if t := strings.TrimSpace(line[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// ItemStart returns where the statement of a list item starts in line:
// past its indentation, its marker, a task box ("[ ] ", "[x] ") and a
// typed fact's kind and confidence ("W ", "O(c=0.8) ", "B: "), not its
// mentions. ok is false when line is no list item.
func ItemStart(line string) (start int, ok bool) {
	t := strings.TrimLeft(line, " \t")
	n, _, ok := ListMarker(t)
	if !ok {
		return 0, false
	}
	start = len(line) - len(t) + n
	rest := line[start:]
	if len(rest) >= 4 && rest[0] == '[' && (rest[1] == ' ' || rest[1] == 'x' || rest[1] == 'X') && rest[2] == ']' && isSpace(rest[3]) {
		after := strings.TrimLeft(rest[3:], " \t")
		start += len(rest) - len(after)
		rest = after
	}
	if p, ok := parsePrefix(rest); ok && p.rest != "" && p.rest != rest {
		start += len(rest) - len(p.rest)
	}
	return start, true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// startsSentence reports whether a sentence can start with r: "₹18,400
// from the oven fund" starts one.
func startsSentence(r rune) bool {
	switch {
	case unicode.IsUpper(r), unicode.IsDigit(r), unicode.Is(unicode.Sc, r), strings.ContainsRune(`"'(“‘[`, r):
		return true
	case unicode.IsLetter(r):
		return !unicode.IsLower(r) // a script without case: 漢字, العربية
	}
	return false
}

// abbreviation reports whether text ends with a word that a '.' after it
// abbreviates: a title, "e.g.", "etc.", "incl." or an initial.
func abbreviation(text string) bool {
	w := text[strings.LastIndexAny(text, " \t\n\r(\"“")+1:]
	if utf8.RuneCountInString(w) == 1 {
		r, _ := utf8.DecodeRuneInString(w)
		return unicode.IsLetter(r)
	}
	switch strings.ToLower(w) {
	case "dr", "mr", "mrs", "ms", "st", "prof", "no", "nr", "vs", "etc", "e.g", "i.e", "approx", "ca", "inc", "ltd", "jr", "sr",
		"incl", "excl", "esp", "cf", "tel":
		return true
	}
	return false
}
