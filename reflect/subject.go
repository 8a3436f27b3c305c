package reflect

import (
	"strings"
	"unicode"

	"memoria/memory"
)

// Whose attribute a curated statement states. A statement about a
// relative of an entity ("Thomas, Peter's older brother, lives in Graz",
// "His sister Anna lives in Linz") names the entity, on its page or in
// passing, but states the relative's attribute: a later fact about the
// entity (Peter moved) says nothing of it. Such a statement is compared
// only as the relative's, when the relative is a known entity, or not at
// all.

// relationNouns name a person by their relation to another. A word list:
// to move into the lexicon package with the others (issue 43, item 4).
var relationNouns = wordSet(`brother brothers sister sisters mother father mum mom dad parents parent
	son sons daughter daughters wife husband partner spouse fiancé fiancée fiance fiancee
	girlfriend boyfriend cousin cousins uncle aunt auntie nephew niece grandmother grandfather
	grandma grandpa granny grandson granddaughter grandchildren kids children child
	stepson stepdaughter stepmother stepfather in-law in-laws sibling siblings twin
	friend friends neighbour neighbor neighbours neighbors colleague colleagues flatmate roommate housemate
	boss landlord landlady tenant godmother godfather godson goddaughter`)

// subjectFillers may stand in a statement's subject before or around a
// relation noun ("his older brother", "Peter's younger sister").
var subjectFillers = wordSet(`his her their my our its the a an older younger elder eldest youngest little big step half best old late`)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// relativeSubject reports whether a statement's subject (the words before
// its predicate) is someone named by a relation ("Thomas, Peter's older
// brother, …", "Sister Inês …", "His sister Anna …"), and returns the
// names in that subject that are not possessive (Thomas, Inês, Anna):
// the relative's own. A relation noun that ends a label ("Brother:
// Thomas") or a description with no subject of its own ("Peter's older
// brother; lives in Graz", on Thomas's page) is no subject.
func relativeSubject(text string) (bool, []string) {
	var names []string
	relation := false
	for _, raw := range strings.Fields(text) {
		w := strings.Trim(raw, ",.;:()\"'’")
		if w == "" {
			continue
		}
		possessive := strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "’s")
		base := strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		l := strings.ToLower(base)
		switch {
		case relationNouns[l]:
			if strings.HasSuffix(raw, ";") || strings.HasSuffix(raw, ":") {
				return false, nil
			}
			relation = true
		case subjectFillers[l]:
		case unicode.IsUpper([]rune(base)[0]):
			if !possessive {
				names = append(names, base)
			}
		default:
			return relation, names // the predicate starts
		}
	}
	return relation, names
}

// relativeOf reports whether a statement is about a relative of the
// entity page (a page's slug, "" outside pages) rather than about it, and
// returns the keys of the known entities it names as that relative.
func relativeOf(text, page string, res *resolver) (bool, []string) {
	rel, names := relativeSubject(text)
	if !rel {
		return false, nil
	}
	var keys []string
	for _, n := range names {
		k := res.byKey[memory.EntityKey(n)]
		if page != "" && (k == page || strings.EqualFold(n, page) || strings.Contains(strings.ToLower(page), strings.ToLower(n))) {
			return false, nil // the page's entity itself: "Thomas, Peter's older brother, …" on Thomas's page
		}
		if k != "" {
			keys = append(keys, k)
		}
	}
	return true, keys
}
