package reflect

import "strings"

// Reseal writes, into the begin marker of a page's managed block, the hash
// of the block as it now reads, so that reflect takes the block for its
// own and not for a hand edit: `memoria forget` removes lines from a block
// (a copy of a forgotten fact) and reseals it. A page without exactly one
// well-formed block is returned as it is.
func Reseal(page []byte) []byte {
	s := string(page)
	begin, bodyStart, end := -1, -1, -1
	off := 0
	for l := range strings.Lines(s) {
		switch t := strings.TrimSpace(l); {
		case strings.HasPrefix(t, BeginMarker):
			if begin >= 0 {
				return page
			}
			begin, bodyStart = off, off+len(l)
		case strings.HasPrefix(t, EndMarker):
			if end >= 0 {
				return page
			}
			end = off
		}
		off += len(l)
	}
	if begin < 0 || end < bodyStart {
		return page
	}
	marker := s[begin:bodyStart]
	i := strings.Index(marker, "hash=")
	if i < 0 || i+17 > len(marker) {
		return page
	}
	var body []string
	if bodyStart < end {
		body = strings.Split(strings.TrimSuffix(s[bodyStart:end], "\n"), "\n")
	}
	return []byte(s[:begin+i+5] + blockHash(body) + s[begin+i+17:])
}
