package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"

	"memoria/markdown"
	"memoria/memory"
)

// Errors ReadLines wraps, for callers to tell them apart: a citation that
// is not one (bad syntax, a reversed range) or names no memory file of the
// workspace is the caller's mistake; one whose file or lines do not exist
// may be stale.
var (
	ErrBadSource     = errors.New("bad citation")
	ErrNotMemoryFile = errors.New("not a memory file of the workspace (memory.md, memory/*.md, bank/*.md)")
	ErrNoLines       = errors.New("no such lines")
)

// MaxGetBytes bounds what ReadLines reads of a file: memory.MaxFileSize.
const MaxGetBytes = memory.MaxFileSize

// ReadLines reads the lines a citation ("memory/2025-11-27.md#L12-L15")
// points at, from the Markdown on disk. A citation without a line range
// returns the whole file. The path must be a memory file of the workspace
// and lead to one (see Reader). The lines are read as the parser reads them
// (markdown.Lines): the text of a passage is the text its citation reads
// back.
//
// One rule for lines past the end: the lines of the range that exist are
// returned (Lines.Clipped says the range went past the end, FileLines
// where the file ends); a range none of whose lines exist is ErrNoLines.
func ReadLines(dir, ref string) (Lines, error) {
	src, err := memory.ParseSource(ref)
	if err != nil {
		return Lines{}, fmt.Errorf("%w: %w", ErrBadSource, err)
	}
	// What get reads is what the index reads, opened the one way both
	// open it (Reader): the workspace's Markdown (memory.md, memory/,
	// bank/), nothing else in the folder (.memory/, review/, a code
	// repository beside it), whatever a symlink says.
	r, err := NewReader(dir)
	if err != nil {
		return Lines{}, fmt.Errorf("get %s: %w", src.Path, err)
	}
	defer r.Close()
	data, err := r.ReadFile(src.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return Lines{}, fmt.Errorf("get %s: %w", src.Path, missingFile{})
	}
	if err != nil {
		return Lines{}, fmt.Errorf("get %s: %w", src.Path, err)
	}
	lines := markdown.Lines(data)
	if src.Start == 0 {
		src.Start, src.End = 1, len(lines)
		if len(lines) == 0 {
			return Lines{Source: memory.Source{Path: src.Path}}, nil
		}
	}
	if src.End < src.Start {
		src.End = src.Start
	}
	if src.Start > len(lines) {
		return Lines{}, fmt.Errorf("get %s: %w: line %d is past the end (the file has %d lines; it may have changed since it was cited)", src.Path, ErrNoLines, src.Start, len(lines))
	}
	clipped := src.End > len(lines)
	src.End = min(src.End, len(lines))
	var b bytes.Buffer
	for i, l := range lines[src.Start-1 : src.End] {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
	}
	return Lines{Source: src, Text: b.String(), Clipped: clipped, FileLines: len(lines)}, nil
}

// missingFile is fs.ErrNotExist, said for people.
type missingFile struct{}

func (missingFile) Error() string {
	return "no such file in the workspace (it may have been renamed or deleted since it was cited; recall again)"
}
func (missingFile) Unwrap() error { return fs.ErrNotExist }

// Lines is text read from a workspace file with its citation.
type Lines struct {
	Source    memory.Source // the lines read (a range clipped to the file's end)
	Text      string
	Clipped   bool // the range asked for went past the end of the file
	FileLines int  // how many lines the file has
}
