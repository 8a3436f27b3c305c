package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"memoria"
	"memoria/imports"
)

// runImport brings conversations and memory notes kept elsewhere into the
// workspace as daily-log sections: ChatGPT and Claude exports, OpenClaw
// session transcripts (a file, or a sessions folder), CLAUDE.md/AGENTS.md.
func runImport(ctx context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("import", e, &c)
	format := fs.String("format", "", "the input's `FORMAT`: "+strings.Join(imports.Formats, ", ")+" (default: told from the file)")
	dry := fs.Bool("dry-run", false, "read and report, write nothing")
	nowFlag := fs.String("now", "", "date what has no date of its own (memory files) with `YYYY-MM-DD` (default today)")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("import needs a file: conversations.json (ChatGPT or Claude), sessions/*.jsonl (OpenClaw), CLAUDE.md or AGENTS.md, or - for standard input with --format")
	}
	if *format != "" && !slices.Contains(imports.Formats, *format) {
		return usagef("--format %q: want one of %s", *format, strings.Join(imports.Formats, ", "))
	}
	var now time.Time
	if *nowFlag != "" {
		if now, err = memoria.ParseNow(*nowFlag); err != nil {
			return usagef("--now: %v", err)
		}
	}
	var files []string
	for _, p := range pos {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			m, _ := filepath.Glob(filepath.Join(p, "*.jsonl"))
			if len(m) == 0 {
				return usagef("%s: a folder holds no session transcripts (*.jsonl)", p)
			}
			files = append(files, m...)
			continue
		}
		files = append(files, p)
	}
	ws, err := c.open(ctx, e, false)
	if err != nil {
		return err
	}
	defer ws.Close()
	var reports []memoria.ImportReport
	for _, f := range files {
		var r io.Reader = e.stdin
		name := "stdin"
		if f != "-" {
			fh, err := os.Open(f)
			if err != nil {
				return notFoundError{fmt.Errorf("%s: %w", f, err)}
			}
			defer fh.Close()
			r, name = fh, f
		} else if *format == "" {
			return usagef("reading standard input needs --format")
		}
		rep, err := ws.Import(ctx, name, r, memoria.ImportOptions{Format: *format, Now: now, DryRun: *dry})
		if err != nil {
			if !strings.HasPrefix(err.Error(), name+":") {
				err = fmt.Errorf("%s: %w", name, err)
			}
			if errors.Is(err, memoria.ErrInvalid) {
				// Input refused before anything was written (not a format
				// it reads, cut short, too large, not text): bad input.
				return usagef("%s", oneLine(err.Error()))
			}
			return err
		}
		for _, w := range rep.Warnings {
			fmt.Fprintf(e.stderr, "warning: %s\n", oneLine(w))
		}
		reports = append(reports, rep)
		if !c.json {
			verb := "imported"
			if *dry {
				verb = "would import"
			}
			fmt.Fprintf(e.stdout, "%s (%s): %s read (%s): %d %s, %d imported before", name, rep.Format,
				plural(rep.Sessions, "session"), plural(rep.Turns, "turn"), rep.Imported, verb, rep.Skipped)
			if rep.Forgotten > 0 {
				fmt.Fprintf(e.stdout, "; %s left out (forgotten: memoria forget)", plural(rep.Forgotten, "line"))
			}
			if len(rep.Files) > 0 {
				fmt.Fprintf(e.stdout, "; %s", plural(len(rep.Files), "daily log")+" written")
			}
			fmt.Fprintln(e.stdout)
		}
	}
	if c.json {
		return writeJSON(e.stdout, reports)
	}
	return nil
}
