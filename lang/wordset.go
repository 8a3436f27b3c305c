package lang

// WordSet is a table of words as a set, for the packages that look words
// up in one.
func WordSet(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
