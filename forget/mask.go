package forget

import (
	"bytes"
	"strings"
)

// RawLines splits data into its lines as package markdown numbers them
// (markdown.Lines): at "\n", "\r\n", and at a lone "\r" in a file that
// has one; each line keeps its ending, and a final ending starts no
// further line. Line n of a citation is RawLines(data)[n-1].
func RawLines(data []byte) [][]byte {
	lone := loneCR(data)
	var out [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if lone {
			i = bytes.IndexAny(data, "\r\n")
		}
		if i < 0 {
			out = append(out, data)
			break
		}
		next := i + 1
		if data[i] == '\r' && next < len(data) && data[next] == '\n' {
			next++
		}
		out = append(out, data[:next])
		data = data[next:]
	}
	return out
}

// loneCR reports whether data has a '\r' that ends a line on its own
// (not before '\n', and not the file's last byte), as markdown's does.
func loneCR(data []byte) bool {
	for i := bytes.IndexByte(data, '\r'); i >= 0; {
		if i+1 < len(data) && data[i+1] != '\n' {
			return true
		}
		j := bytes.IndexByte(data[i+1:], '\r')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// Body is a raw line without its ending.
func Body(line []byte) []byte {
	return bytes.TrimRight(line, "\r\n")
}

// Mask returns data with every tombstone and every line whose text s
// holds blanked, keeping each line's ending, so that the lines left keep
// their numbers: what an index reads of a file (package ingest). A
// blanked heading keeps its #s, so that the sections around it stay as
// they were (a Retain section does not run on over it). data itself is
// returned when nothing is blanked.
func Mask(data []byte, s Set) []byte {
	if len(s) == 0 && !bytes.Contains(data, []byte(TombstonePrefix)) {
		return data
	}
	lines := RawLines(data)
	var out []byte
	for i, l := range lines {
		body := Body(l)
		blank := IsTombstone(string(body))
		if !blank && len(s) > 0 {
			blank = s.Has(string(body))
		}
		if !blank {
			if out != nil {
				out = append(out, l...)
			}
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(data))
			for _, p := range lines[:i] {
				out = append(out, p...)
			}
		}
		out = append(out, headingMarks(string(body))...)
		out = append(out, l[len(body):]...)
	}
	if out == nil {
		return data
	}
	return out
}

// headingMarks is a heading line's indentation and #s ("" for a line that
// is not a heading).
func headingMarks(line string) string {
	t := strings.TrimPrefix(line, "\uFEFF")
	indent := len(t) - len(strings.TrimLeft(t, " "))
	if indent > 3 {
		return ""
	}
	n := 0
	for indent+n < len(t) && t[indent+n] == '#' {
		n++
	}
	if n == 0 || n > 6 || indent+n < len(t) && t[indent+n] != ' ' && t[indent+n] != '\t' {
		return ""
	}
	return t[:indent+n]
}
