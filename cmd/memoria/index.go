package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"memoria"
	"memoria/memory"
)

// runIndex brings the index up to date, or rebuilds it with --rebuild.
func runIndex(ctx context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("index", e, &c)
	rebuild := fs.Bool("rebuild", false, "build the index afresh from the Markdown")
	noEmbed := fs.Bool("no-embed", false, "skip embedding new text for semantic recall")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("index takes no arguments, got %q", pos[0])
	}
	start := time.Now()
	ws, err := c.open(ctx, e, true)
	if err != nil {
		return err
	}
	defer ws.Close()
	var st memory.Stats
	action := "updated"
	switch {
	case *rebuild && c.built == "":
		st, err = ws.Rebuild(ctx)
		c.bar.done()
		action = "rebuilt"
	case c.built != "":
		action = "built"
		st = c.buildStats
	default:
		st, err = ws.Sync(ctx)
	}
	if err != nil {
		return err
	}
	semantic := "semantic recall off (--no-embed)"
	var emb memory.EmbedStats
	if !*noEmbed {
		if emb, semantic, err = embedPending(ctx, e, ws); err != nil {
			return err
		}
	}
	// A build counted what it wrote; after a sync, Status counts it.
	count := memory.Status{Files: st.FilesByKind, Facts: st.Facts, Passages: st.Passages, Entities: st.Entities}
	skipped := st.Skipped
	if !st.Counted {
		if count, err = ws.Status(ctx); err != nil {
			return err
		}
		skipped = len(count.Skipped)
	}
	elapsed := time.Since(start)
	if c.json {
		return json.NewEncoder(e.stdout).Encode(map[string]any{
			"action": action, "files": count.Files, "facts": count.Facts, "passages": count.Passages,
			"entities": count.Entities, "skipped": skipped, "parsed": st.Parsed, "removed": st.Removed,
			"warnings": st.Warnings, "seconds": elapsed.Seconds(), "index": ws.IndexPath(),
			"embedded": emb.Embedded, "vector_model": emb.Model, "semantic": semantic,
		})
	}
	facts := 0
	for _, n := range count.Facts {
		facts += n
	}
	files := 0
	for _, n := range count.Files {
		files += n
	}
	fmt.Fprintf(e.stdout, "index %s: %d files (%d re-parsed, %d removed, %d skipped), %d facts, %d passages, %d entities in %s; %s\n",
		action, files, st.Parsed, st.Removed, skipped, facts, count.Passages, count.Entities, elapsed.Round(time.Millisecond), semantic)
	return nil
}

// embedPending embeds new text with the workspace's model (IndexEmbedder)
// when it is installed; without it, recall stays lexical and this says so.
func embedPending(ctx context.Context, e *env, ws *memoria.Workspace) (memory.EmbedStats, string, error) {
	model, err := ws.IndexEmbedder(ctx)
	if errors.Is(err, memoria.ErrNoModel) {
		// The error names the model this workspace would use and its
		// install command (e5 for text mostly not in English).
		return memory.EmbedStats{}, "semantic recall off: " + err.Error(), nil
	}
	if err != nil {
		return memory.EmbedStats{}, "", err
	}
	var bar *progressBar
	if e.isTerminal {
		bar = &progressBar{w: e.stderr, label: "embedding", unit: "texts"}
	}
	st, err := ws.Embed(ctx, model, bar.update)
	bar.done()
	if err != nil && ctx.Err() != nil {
		// Interrupted: what was embedded is committed, batch by batch.
		return st, "", fmt.Errorf("embedding interrupted after %d texts (%d of %d still without a vector; memoria index goes on from there): %w",
			st.Embedded, st.Pending, st.Total, err)
	}
	if err != nil {
		return st, "", err
	}
	if msg := ws.LanguageNotice(ctx, model.Identity()); msg != "" {
		fmt.Fprintln(e.stderr, "note: "+msg)
	}
	return st, fmt.Sprintf("semantic: %d texts embedded now, %d in all (%s)", st.Embedded, st.Total, st.Model), nil
}
