package markdown

import (
	"regexp"
	"strings"
)

// Aliases written in prose. An entity page that opens with "My sister
// Helena, also called Lenny" or "# Robert Marsh ("Rob")" names the entity's
// other names as people write them, without front matter; they count as
// aliases like those of an "aliases:" list. Only the page's opening is
// read (its title and first paragraph), where a page says who it is about:
// an alias said further down is as likely to be someone else's ("his
// mother Ingrid, also called Inge").

// aliasPhrase finds "also called X", "also known as X", "a.k.a. X", "aka
// X", "goes by X", "nicknamed X", "known as X", "calls her X": X is a
// quoted name, or one or two capitalised words.
var aliasPhrase = regexp.MustCompile(`(?i:\b(?:also called|also known as|a\.k\.a\.?|aka|goes by|nicknamed|known as|call(?:s|ed)? (?:her|him|them|it))\s+)(?:["“']([^"”']{2,40})["”']|(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?))`)

// quotedNickname finds a quoted name in parentheses: `Robert ("Rob")`.
var quotedNickname = regexp.MustCompile(`\(\s*["“']([^"”'()]{2,40})["”']\s*\)`)

// proseAliases returns the aliases the page's opening names: its first
// heading and the first paragraph after it (up to the first list, heading
// or blank line after some text).
func proseAliases(lines []string, from int) []string {
	var out []string
	seenText := false
	for i := from; i < len(lines) && i < from+12; i++ {
		l := strings.TrimSpace(lines[i])
		switch {
		case l == "":
			if seenText {
				return out
			}
			continue
		case strings.HasPrefix(l, "#"):
			if seenText {
				return out
			}
		case strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "* ") || strings.HasPrefix(l, "<!--") || strings.HasPrefix(l, "|"):
			return out
		default:
			seenText = true
		}
		for _, m := range aliasPhrase.FindAllStringSubmatch(l, -1) {
			out = appendAliases(out, strings.TrimSpace(m[1]+m[2]))
		}
		for _, m := range quotedNickname.FindAllStringSubmatch(l, -1) {
			out = appendAliases(out, strings.TrimSpace(m[1]))
		}
	}
	return out
}
