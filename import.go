package memoria

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"memoria/forget"
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
	Format   string `json:"format"`
	Sessions int    `json:"sessions"` // read from the input
	Imported int    `json:"imported"` // written
	Skipped  int    `json:"skipped"`  // imported before (their key is in their log already)
	// Forgotten counts the lines left out because the workspace forgot
	// their text (memoria forget), a session whose heading or every line
	// was forgotten being left out whole (not counted in Imported).
	Forgotten int      `json:"forgotten,omitempty"`
	Turns     int      `json:"turns"` // of the sessions read
	Files     []string `json:"files"` // daily logs written, in order
	Warnings  []string `json:"warnings,omitempty"`
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
// the same export again changes nothing.
//
// Text the workspace forgot (memoria forget: the record forgotten.md) is
// not brought back: its lines are left out of each session (imports.
// Filter), and a session whose heading or every turn was forgotten is not
// imported at all.
//
// The input is untrusted (imports.Render: none of its text can start a
// heading, a section or a fact) and read twice: first whole, writing
// nothing, so that input cut short, over the size of one session or not
// text is refused before any log changes; then to write, a few megabytes
// at a time. Input that cannot be read twice (a pipe) is first copied to
// an unnamed temporary file. Memory stays bounded by the largest session
// (imports.MaxSessionBytes), never the input. The index is brought up to
// date once, at the end.
func (w *Workspace) Import(ctx context.Context, name string, r io.Reader, o ImportOptions) (ImportReport, error) {
	rep := ImportReport{Format: o.Format}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	gone, err := forget.Load(w.dir)
	if err != nil {
		return rep, err
	}
	in, err := rereadable(r)
	if err != nil {
		return rep, fmt.Errorf("read %s: %w", name, err)
	}
	defer in.close()
	first := bufio.NewReaderSize(in.first, 4096)
	if rep.Format == "" {
		head, err := first.Peek(4096)
		if err != nil && !errors.Is(err, io.EOF) {
			return rep, fmt.Errorf("read %s: %w", name, err)
		}
		f, err := imports.Detect(name, head)
		if err != nil {
			return rep, invalidError{err}
		}
		rep.Format = f
	}
	refused := func(err error) error {
		if errors.Is(err, imports.ErrFormat) || errors.Is(err, imports.ErrTooLarge) || errors.Is(err, imports.ErrNotInert) {
			return invalidError{fmt.Errorf("%w; nothing was imported", err)}
		}
		return err
	}
	// The first pass: every session read and rendered, nothing written.
	// A dry run counts against the logs as they are.
	logKeys := map[string]map[string]bool{}
	err = imports.Read(rep.Format, name, first, func(s imports.Session) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		text, err := imports.Render(s)
		if err != nil {
			return err
		}
		rep.Sessions++
		rep.Turns += len(s.Turns)
		if !o.DryRun {
			return nil
		}
		_, dropped, keep := imports.Filter(text, gone.Has)
		rep.Forgotten += dropped
		if keep {
			day := s.Day(o.Now)
			if logKeys[day] == nil {
				old, _ := os.ReadFile(filepath.Join(w.dir, "memory", day+".md"))
				logKeys[day] = imports.Keys(old)
			}
			if logKeys[day][s.Key()] {
				rep.Skipped++
			} else {
				logKeys[day][s.Key()] = true
				rep.Imported++
			}
		}
		return nil
	})
	if err != nil || o.DryRun {
		return rep, refused(err)
	}
	// The second pass writes what the first read.
	second, err := in.again()
	if err != nil {
		return rep, fmt.Errorf("read %s: %w", name, err)
	}
	pending := map[string][]string{} // day → sections to append
	var order []string
	size := 0
	flush := func() error {
		for _, day := range order {
			rel := "memory/" + day + ".md"
			var added, skipped int
			err := safewrite.UpdateWith(w.dir, rel, safewrite.Options{LockTimeout: o.LockTimeout, Holder: "memoria import"}, func(old []byte) ([]byte, error) {
				out, a, s := imports.Append(old, day, pending[day])
				added, skipped = a, s
				if a > 0 && len(out) > memory.MaxFileSize {
					return nil, fmt.Errorf("%s would pass the %d MB limit of a file; import it split, or move older sessions out", rel, memory.MaxFileSize>>20)
				}
				return out, nil
			})
			if err != nil {
				return fmt.Errorf("import into %s: %w", rel, err)
			}
			rep.Imported += added
			rep.Skipped += skipped
			if added > 0 {
				rep.Files = append(rep.Files, rel)
			}
		}
		clear(pending)
		order, size = order[:0], 0
		return nil
	}
	sessions := 0
	err = imports.Read(rep.Format, name, second, func(s imports.Session) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		sessions++
		text, err := imports.Render(s)
		if err != nil {
			return err
		}
		text, dropped, keep := imports.Filter(text, gone.Has)
		rep.Forgotten += dropped
		if !keep {
			return nil
		}
		day := s.Day(o.Now)
		if pending[day] == nil {
			order = append(order, day)
		}
		pending[day] = append(pending[day], text)
		if size += len(text); size >= importBuffer {
			return flush()
		}
		return nil
	})
	if err == nil && sessions != rep.Sessions {
		err = fmt.Errorf("%s changed while it was imported (%d sessions, then %d)", name, rep.Sessions, sessions)
	}
	if err == nil {
		err = flush()
	}
	if err != nil {
		return rep, refused(err)
	}
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

// importInput is an import's input, to be read twice: first, then again.
type importInput struct {
	first io.Reader
	again func() (io.Reader, error)
	close func() error
}

// rereadable makes r readable twice. A regular file is read again from
// where it started. Other input (a pipe) is copied, as the first pass
// reads it, to a temporary file that has no name from the start (removed
// at once, so that nothing is left behind even if the process is killed;
// where an open file cannot be removed, at close): input refused by the
// first pass is not read further.
func rereadable(r io.Reader) (*importInput, error) {
	seekable := true
	if f, ok := r.(*os.File); ok { // a terminal or a pipe may seek, and read anew
		st, err := f.Stat()
		seekable = err == nil && st.Mode().IsRegular()
	}
	if seekable {
		if rs, ok := r.(io.ReadSeeker); ok {
			if start, err := rs.Seek(0, io.SeekCurrent); err == nil {
				return &importInput{
					first: rs,
					again: func() (io.Reader, error) { _, err := rs.Seek(start, io.SeekStart); return rs, err },
					close: func() error { return nil },
				}, nil
			}
		}
	}
	tmp, err := os.CreateTemp("", "memoria-import-*")
	if err != nil {
		return nil, err
	}
	removed := os.Remove(tmp.Name()) == nil
	return &importInput{
		first: io.TeeReader(r, tmp),
		again: func() (io.Reader, error) {
			if _, err := io.Copy(tmp, r); err != nil { // what the first pass left unread
				return nil, err
			}
			_, err := tmp.Seek(0, io.SeekStart)
			return tmp, err
		},
		close: func() error {
			err := tmp.Close()
			if !removed {
				os.Remove(tmp.Name())
			}
			return err
		},
	}, nil
}
