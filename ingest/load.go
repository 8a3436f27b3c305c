package ingest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"

	"memoria/forget"
	"memoria/markdown"
	"memoria/memory"
	"memoria/workspace"
)

// DefaultMaxFileSize is the largest Markdown file indexed by default; a
// larger one is skipped with a warning rather than stalling every recall
// (a day's log of 16 MB is far past anything written by hand or by an agent).
const DefaultMaxFileSize = memory.MaxFileSize

// DefaultPassageLines is how many lines a passage spans at most in the
// index. Small passages rank most precisely; recall widens them with their
// neighbours when it returns them (recall.DefaultLines). Chosen by
// measurement on the development set; see docs/recall.md.
const DefaultPassageLines = 1

// Options say how files are read and cut into items.
type Options struct {
	PassageLines int   // longest passage in lines; 0 means DefaultPassageLines
	MaxFileSize  int64 // larger files are skipped; 0 means DefaultMaxFileSize
}

// Passage is PassageLines or its default.
func (o Options) Passage() int {
	if o.PassageLines > 0 {
		return o.PassageLines
	}
	return DefaultPassageLines
}

// MaxSize is MaxFileSize or its default.
func (o Options) MaxSize() int64 {
	if o.MaxFileSize > 0 {
		return o.MaxFileSize
	}
	return DefaultMaxFileSize
}

// Loaded is one file read, hashed and parsed (or the reason it was not).
type Loaded struct {
	File   workspace.File
	Hash   string // of the content: a sync reads again only files whose hash changed
	Lines  int
	Doc    *memory.Document
	Status string // why the file is not indexed; "" when it is
}

// HashBytes is a file's content hash.
func HashBytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:16])
}

// Load reads and parses one file. Problems become a status, never an error:
// a bad file must not stop the index of a good workspace. A record of
// forgotten text that cannot be read (forget.Load) is a status too: the
// file is not indexed rather than indexed with what was forgotten.
func Load(ws string, f workspace.File, o Options) Loaded {
	gone, err := forget.Load(ws)
	if err != nil {
		return Loaded{File: f, Status: "unreadable: " + errText(err)}
	}
	r, err := workspace.NewReader(ws)
	if err != nil {
		return Loaded{File: f, Status: "unreadable: " + errText(err)}
	}
	defer r.Close()
	return load(r, f, o, gone)
}

// load is Load with the workspace open. The file is opened as get opens
// it (workspace.Reader): what the index reads is what a citation of it
// reads back, and a file swapped since the listing for a symlink to
// something that is not a memory file, or for a FIFO, is not read.
//
// What was forgotten is not read (forget.Mask): a line whose text the
// workspace's record of forgotten text holds (gone), and every tombstone,
// is parsed as a blank line, so that the lines around keep their numbers
// and the hash stays the file's own (a sync compares it with the disk).
func load(r *workspace.Reader, f workspace.File, o Options, gone forget.Set) Loaded {
	l := Loaded{File: f}
	if f.Size > o.MaxSize() {
		l.Status = fmt.Sprintf("too large (%d MB > %d MB limit)", f.Size>>20, o.MaxSize()>>20)
		return l
	}
	fh, _, err := r.Open(f.Rel)
	if err != nil {
		l.Status = "unreadable: " + errText(err)
		return l
	}
	// Read into a buffer of the listed size, one byte more to see the end
	// (io.ReadAll's doubling would copy each file a few times); a file
	// that grew since it was listed is read to its end, within the limit.
	data := make([]byte, f.Size+1)
	n, err := io.ReadFull(fh, data)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		data, err = data[:n], nil
	case err == nil:
		var rest []byte
		rest, err = io.ReadAll(io.LimitReader(fh, o.MaxSize()+1-int64(n)))
		data = append(data, rest...)
	}
	fh.Close()
	switch {
	case err != nil:
		l.Status = "unreadable: " + errText(err)
		return l
	case int64(len(data)) > o.MaxSize():
		l.Status = fmt.Sprintf("too large (over the %d MB limit)", o.MaxSize()>>20)
		return l
	}
	l.Hash = HashBytes(data)
	l.Lines = bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		l.Lines++
	}
	doc, err := markdown.ParseWith(f.Rel, forget.Mask(data, gone), markdown.Options{MaxPassageLines: o.Passage()})
	if err != nil {
		if errors.Is(err, markdown.ErrBinary) {
			l.Status = "binary, not Markdown"
		} else {
			l.Status = errText(err)
		}
		return l
	}
	SortDoc(doc)
	l.Doc = doc
	return l
}

// SortDoc puts a document's facts and passages in line order, the order
// the writer numbers them in and the one a store reads its items back in: a full-text row depends on its passage's neighbours, so
// the rows made again from stored items must see them in the same order.
func SortDoc(doc *memory.Document) {
	slices.SortStableFunc(doc.Facts, func(a, b memory.Fact) int { return a.Source.Start - b.Source.Start })
	slices.SortStableFunc(doc.Passages, func(a, b memory.Passage) int { return a.Source.Start - b.Source.Start })
}

func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// LoadAll loads files in parallel and hands them to fn in input order, so
// that a build is deterministic whatever the scheduling. The workspace's
// record of forgotten text is read once for all of them; one that cannot
// be read stops the load, rather than index what was forgotten.
func LoadAll(ctx context.Context, ws string, files []workspace.File, o Options, fn func(i int, l Loaded) error) error {
	if len(files) == 0 {
		return nil
	}
	gone, err := forget.Load(ws)
	if err != nil {
		return err
	}
	r, err := workspace.NewReader(ws)
	if err != nil {
		return err
	}
	defer r.Close() // after the workers stop (deferred below)
	n := len(files)
	results := make([]Loaded, n)
	done := make([]chan struct{}, n)
	for i := range done {
		done[i] = make(chan struct{})
	}
	next := make(chan int)
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(ctx)
	defer func() { cancel(); wg.Wait() }()
	workers := max(1, min(runtime.GOMAXPROCS(0), n))
	// Parsing outruns writing: without a bound the parsed documents of
	// every file waited in results, and importing a 500 MB export held
	// 421 MB of them at once. At most lookahead files are parsed ahead of
	// the one fn takes next.
	lookahead := make(chan struct{}, 4*workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = load(r, files[i], o, gone)
				close(done[i])
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range n {
			select {
			case lookahead <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	for i := range n {
		select {
		case <-done[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		err := fn(i, results[i])
		results[i] = Loaded{} // let the parsed document go
		<-lookahead
		if err != nil {
			return err
		}
	}
	return nil
}

// TextHash keys an item's text for its embedding: items whose text did
// not change keep their vector when their file is re-parsed.
func TextHash(text string) string {
	s := sha256.Sum256([]byte(text))
	return hex.EncodeToString(s[:8])
}
