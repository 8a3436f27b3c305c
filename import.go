package memoria

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"memoria/imports"
	"memoria/memory"
	"memoria/safewrite"
)

// ImportOptions shape an import.
type ImportOptions struct {
	// Format is one of imports.Formats; "" detects it from the name and
	// the first bytes.
	Format string
	// Now dates what has no date of its own (a memory file); zero means
	// time.Now().
	Now time.Time
	// DryRun reads and reports, writes nothing.
	DryRun      bool
	LockTimeout time.Duration
}

// ImportReport says what an import did.
type ImportReport struct {
	Format   string   `json:"format"`
	Sessions int      `json:"sessions"` // read from the input
	Imported int      `json:"imported"` // written
	Skipped  int      `json:"skipped"`  // imported before (their key is in their log already)
	Turns    int      `json:"turns"`    // of the sessions read
	Files    []string `json:"files"`    // daily logs written, in order
	Warnings []string `json:"warnings,omitempty"`
}

// importBuffer bounds the Markdown an import holds before it writes: an
// export of hundreds of megabytes is written a few megabytes at a time.
const importBuffer = 2 << 20

// Import brings conversations or memory notes kept elsewhere into the
// workspace as Markdown (docs/import.md): each session becomes a section
// of the daily log of the day it started ("## Conversation: TITLE [KEY]",
// one bullet per turn with its time and speaker), appended after
// everything the log holds; no line is ever changed. A session whose key
// is in its log already was imported before and is skipped, so importing
// the same export again changes nothing. The input is read as a stream
// and written a few megabytes at a time; the index is brought up to date
// once, at the end.
func (w *Workspace) Import(ctx context.Context, name string, r io.Reader, o ImportOptions) (ImportReport, error) {
	rep := ImportReport{Format: o.Format}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	if rep.Format == "" {
		br := newPeekReader(r)
		head, _ := br.peek(4096)
		f, err := imports.Detect(name, head)
		if err != nil {
			return rep, invalidError{err}
		}
		rep.Format, r = f, br
	}
	pending := map[string]*strings.Builder{} // day → sections to append
	var order []string
	size := 0
	flush := func() error {
		for _, day := range order {
			rel := "memory/" + day + ".md"
			sections := pending[day].String()
			written := false
			err := safewrite.UpdateWith(w.dir, rel, safewrite.Options{LockTimeout: o.LockTimeout, Holder: "memoria import"}, func(old []byte) ([]byte, error) {
				add, n := newSections(string(old), sections)
				if n == 0 {
					return old, nil // nothing new: no write
				}
				if len(old)+len(add) > memory.MaxFileSize {
					return nil, fmt.Errorf("%s would pass the %d MB limit of a file; import it split, or move older sessions out", rel, memory.MaxFileSize>>20)
				}
				rep.Imported += n
				written = true
				return append(withHeading(old, day), add...), nil
			})
			if err != nil {
				return fmt.Errorf("import into %s: %w", rel, err)
			}
			if written {
				rep.Files = append(rep.Files, rel)
			}
		}
		clear(pending)
		order, size = order[:0], 0
		return nil
	}
	err := imports.Read(rep.Format, name, r, func(s imports.Session) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		rep.Sessions++
		day := s.Day(o.Now)
		if pending[day] == nil {
			pending[day] = &strings.Builder{}
			order = append(order, day)
		}
		text := imports.Render(s)
		pending[day].WriteString("\n" + text)
		rep.Turns += len(s.Turns)
		size += len(text)
		if size >= importBuffer && !o.DryRun {
			return flush()
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, imports.ErrFormat) {
			return rep, invalidError{err}
		}
		return rep, err
	}
	if o.DryRun {
		rep.Imported = rep.Sessions
		return rep, nil
	}
	if err := flush(); err != nil {
		return rep, err
	}
	rep.Skipped = rep.Sessions - rep.Imported
	if len(rep.Files) > 0 {
		if _, err := w.Sync(ctx); err != nil {
			return rep, fmt.Errorf("the sessions were written, but updating the index failed (the next recall retries): %w", err)
		}
		if _, err := w.EmbedNew(ctx); err != nil {
			rep.Warnings = append(rep.Warnings, "the imported text is not embedded yet (memoria index embeds it): "+err.Error())
		}
	}
	return rep, nil
}

// newSections returns the sections of add (each starting "\n## ") whose key
// old does not hold yet, and how many.
func newSections(old, add string) (string, int) {
	var b strings.Builder
	n := 0
	parts := strings.Split(add, "\n## ")
	for _, p := range parts[1:] {
		head, _, _ := strings.Cut(p, "\n")
		key := head[strings.LastIndex(head, "[")+1:]
		key = strings.TrimSuffix(key, "]")
		if strings.Contains(old, "["+key+"]") || strings.Contains(b.String(), "["+key+"]") {
			continue
		}
		b.WriteString("\n## " + p)
		n++
	}
	return b.String(), n
}

// withHeading gives a new daily log its "# DAY" title; an existing one is
// kept as it is, ending with a newline.
func withHeading(old []byte, day string) []byte {
	if len(old) == 0 {
		return []byte("# " + day + "\n")
	}
	if old[len(old)-1] != '\n' {
		return append(old, '\n')
	}
	return old
}

// peekReader lets Import look at the first bytes of its input and still
// read them all.
type peekReader struct {
	r    io.Reader
	head []byte
}

func newPeekReader(r io.Reader) *peekReader { return &peekReader{r: r} }

func (p *peekReader) peek(n int) ([]byte, error) {
	buf := make([]byte, n)
	k, err := io.ReadFull(p.r, buf)
	p.head = buf[:k]
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		err = nil
	}
	return p.head, err
}

func (p *peekReader) Read(b []byte) (int, error) {
	if len(p.head) > 0 {
		n := copy(b, p.head)
		p.head = p.head[n:]
		return n, nil
	}
	return p.r.Read(b)
}
