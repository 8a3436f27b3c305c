package markdown

import "bytes"

// Helpers for editors of Markdown files (core memory, Retain sections) that
// must keep every byte they do not mean to change.

// LineEnding is "\r\n" when the file's first line ends so, else "\n": the
// ending new lines get, so a CRLF file stays CRLF.
func LineEnding(data []byte) string {
	if i := bytes.IndexByte(data, '\n'); i > 0 && data[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// EndsWithNewline reports whether b is empty or ends with a newline, so
// that appended text starts on a line of its own.
func EndsWithNewline(b []byte) bool { return len(b) == 0 || b[len(b)-1] == '\n' }

// RawLines splits data into lines, each keeping its ending; a final newline
// does not start another line (as the parser counts lines).
func RawLines(data []byte) [][]byte {
	var lines [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			lines = append(lines, data)
			break
		}
		lines = append(lines, data[:i+1])
		data = data[i+1:]
	}
	return lines
}
