package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"memoria/memory"
)

// runStatus prints what the index holds and whether it is fresh.
func runStatus(ctx context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("status", e, &c)
	deep := fs.Bool("deep", false, "also run doctor's checks (reads the whole index)")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("status takes no arguments, got %q", pos[0])
	}
	ws, err := c.open(ctx, e, true)
	if err != nil {
		return err
	}
	defer ws.Close()
	st, err := ws.Status(ctx)
	if err != nil {
		return err
	}
	fresh := "up to date"
	if st.Pending > 0 {
		fresh = fmt.Sprintf("%d files changed since indexed (the next recall catches up)", st.Pending)
	}
	by := ""
	if c.resolved != nil {
		by = c.resolved.By
	}
	derived := derivedFiles(st.Path)
	if c.json {
		sizes := map[string]int64{}
		for _, f := range derived {
			sizes[f.name] = f.size
		}
		out := map[string]any{
			"workspace": ws.Dir(), "workspace_by": by, "index": st.Path, "index_bytes": st.Bytes, "built": st.Built,
			"derived_files": sizes,
			"files":         st.Files, "skipped": st.Skipped, "facts": st.Facts, "passages": st.Passages,
			"entities": st.Entities, "entity_pages": st.EntityPages,
			"first_day": day(st.FirstDay), "last_day": day(st.LastDay),
			"pending": st.Pending, "fresh": st.Pending == 0,
			"vector_model": st.VectorModel, "texts": st.Texts, "embedded": st.Embedded,
			"backend": st.Backend,
		}
		if st.VectorSearch != "" {
			out["vector_search"] = st.VectorSearch
		}
		if len(st.Advice) > 0 {
			out["advice"] = st.Advice
		}
		if len(st.Imported) > 0 {
			out["imported"] = st.Imported
		}
		if !st.Synced.IsZero() {
			out["synced"] = st.Synced
		}
		if !*deep {
			return json.NewEncoder(e.stdout).Encode(out)
		}
		findings, problems, err := runDoctorChecks(ctx, ws)
		if err != nil {
			return err
		}
		out["findings"], out["problems"] = findings, problems
		if err := json.NewEncoder(e.stdout).Encode(out); err != nil {
			return err
		}
		if problems > 0 {
			return fmt.Errorf("%s found", plural(problems, "problem"))
		}
		return nil
	}
	w := e.stdout
	if by != "" {
		fmt.Fprintf(w, "workspace  %s (chosen by %s)\n", ws.Dir(), by)
	} else {
		fmt.Fprintf(w, "workspace  %s\n", ws.Dir())
	}
	fmt.Fprintf(w, "index      %s (%.1f MB, %s)\n", st.Path, float64(st.Bytes)/(1<<20), fresh)
	if st.Backend == "postgres" {
		synced := "never"
		if !st.Synced.IsZero() {
			synced = st.Synced.Local().Format("2006-01-02 15:04:05")
		}
		fmt.Fprintf(w, "backend    postgres, shared by the workspaces of its database; last change synced %s\n", synced)
		for _, a := range st.Advice {
			fmt.Fprintf(w, "advice     %s\n", a)
		}
	} else {
		var derivedBytes int64
		parts := make([]string, 0, len(derived))
		for _, f := range derived {
			derivedBytes += f.size
			parts = append(parts, f.name+" "+humanBytes(f.size))
		}
		fmt.Fprintf(w, "derived    %s in %d files: %s\n", humanBytes(derivedBytes), len(derived), strings.Join(parts, ", "))
	}
	fmt.Fprintf(w, "files      %d daily logs (%s … %s), %d core, %d bank, %d opinions, %d entity pages, %d other\n",
		st.Files[memory.FileLog], day(st.FirstDay), day(st.LastDay), st.Files[memory.FileCore], st.Files[memory.FileBank],
		st.Files[memory.FileOpinions], st.Files[memory.FileEntity], st.Files[memory.FileOther])
	if line := openClawFiles(st); line != "" {
		fmt.Fprintf(w, "openclaw   %s\n", line)
	}
	total := 0
	for _, n := range st.Facts {
		total += n
	}
	fmt.Fprintf(w, "facts      %d (world %d, experience %d, opinion %d, observation %d)\n", total,
		st.Facts[memory.KindWorld], st.Facts[memory.KindExperience], st.Facts[memory.KindOpinion], st.Facts[memory.KindObservation])
	fmt.Fprintf(w, "passages   %d\n", st.Passages)
	fmt.Fprintf(w, "entities   %d (%d with a page)\n", st.Entities, st.EntityPages)
	switch {
	case st.VectorModel == "" || st.Embedded == 0:
		fmt.Fprintln(w, "semantic   off: no vectors (install the model with `memoria model install`, then `memoria index`)")
	default:
		fmt.Fprintf(w, "semantic   %d of %d texts embedded (%s)\n", st.Embedded, st.Texts, st.VectorModel)
		if st.VectorSearch != "" {
			fmt.Fprintf(w, "           search: %s\n", st.VectorSearch)
		}
	}
	if len(st.Skipped) > 0 {
		paths := make([]string, 0, len(st.Skipped))
		for p := range st.Skipped {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		fmt.Fprintf(w, "skipped    %d files\n", len(paths))
		for _, p := range paths {
			fmt.Fprintf(w, "  %s: %s\n", p, st.Skipped[p])
		}
	}
	if *deep {
		fmt.Fprintln(w)
		return doctor(ctx, e, &c, ws)
	}
	return nil
}

// openClawFiles counts the files of OpenClaw's own kinds (docs/openclaw.md,
// "The layout"): its user model, its dreaming summaries, and the memory it
// imported from other assistants, by assistant; "" when there are none.
func openClawFiles(st memory.Status) string {
	user, dreams, imported := st.Files[memory.FileUser], st.Files[memory.FileDreams], st.Files[memory.FileImport]
	if user+dreams+imported == 0 {
		return ""
	}
	line := fmt.Sprintf("%d user model (USER.md), %d dreaming summaries (DREAMS.md, memory/dreaming/), %d imported",
		user, dreams, imported)
	if len(st.Imported) > 0 {
		srcs := make([]string, 0, len(st.Imported))
		for src := range st.Imported {
			srcs = append(srcs, src)
		}
		sort.Strings(srcs)
		for i, src := range srcs {
			srcs[i] = fmt.Sprintf("%s %d", src, st.Imported[src])
		}
		line += " (" + strings.Join(srcs, ", ") + ")"
	}
	return line
}

// derivedFile is one file Memoria derived from the Markdown: the index, the
// vectors beside it, their write-ahead logs.
type derivedFile struct {
	name string
	size int64
}

// derivedFiles lists the files beside the index whose names start with
// its own (index.sqlite, index.sqlite-wal, index.sqlite.vectors…).
func derivedFiles(indexPath string) []derivedFile {
	entries, err := os.ReadDir(filepath.Dir(indexPath))
	if err != nil {
		return nil
	}
	base := filepath.Base(indexPath)
	var out []derivedFile
	for _, en := range entries {
		if !strings.HasPrefix(en.Name(), base) || !en.Type().IsRegular() {
			continue
		}
		if info, err := en.Info(); err == nil {
			out = append(out, derivedFile{en.Name(), info.Size()})
		}
	}
	return out
}

// humanBytes formats a size for people: 950 KB, 12.3 MB.
func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

func day(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Format("2006-01-02")
}
