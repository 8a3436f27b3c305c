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
// all. The words that name a relative are lang.RelationNouns.

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
		case lex().relationNouns[l]:
			if strings.HasSuffix(raw, ";") || strings.HasSuffix(raw, ":") {
				return false, nil
			}
			relation = true
		case lex().relationMods[l]:
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
