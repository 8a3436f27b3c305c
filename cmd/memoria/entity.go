package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"memoria"
	"memoria/recall"
)

// runEntity prints what memory holds about one entity: its page, its
// current facts, its timeline and its opinions, each cited.
func runEntity(ctx context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("entity", e, &c)
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	ws, err := c.open(ctx, e, true)
	if err != nil {
		return err
	}
	defer ws.Close()
	if len(pos) == 0 {
		return listEntities(ctx, e, ws, c.json)
	}
	name := strings.Join(pos, " ")
	rep, err := ws.Entity(ctx, name)
	if errors.Is(err, memoria.ErrUnknownEntity) {
		return notFoundError{err}
	}
	if errors.Is(err, memoria.ErrAmbiguousEntity) {
		return usagef("%v", err) // the candidates are listed: name one
	}
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(e.stdout, rep)
	}
	writeEntity(e.stdout, rep)
	return nil
}

// listEntities prints every known entity, most mentioned first: one line
// each, or a JSON list.
func listEntities(ctx context.Context, e *env, ws *memoria.Workspace, asJSON bool) error {
	list, err := ws.Entities(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		if list == nil {
			list = []memoria.EntitySummary{}
		}
		return writeJSON(e.stdout, list)
	}
	if len(list) == 0 {
		fmt.Fprintln(e.stdout, "no entities yet: mention one as @Name in a fact, or write bank/entities/<Name>.md")
		return nil
	}
	for _, en := range list {
		line := fmt.Sprintf("%-24s %4d items", "@"+en.Slug, en.Items)
		if !en.LastSeen.IsZero() {
			line += ", last " + en.LastSeen.Format("2006-01-02")
		}
		if en.Page != "" {
			line += ", page " + en.Page
		}
		if !strings.EqualFold(strings.ReplaceAll(en.Slug, "-", " "), strings.ReplaceAll(en.Name, "-", " ")) {
			line += " (" + en.Name + ")"
		}
		fmt.Fprintln(e.stdout, line)
	}
	return nil
}

// writeEntity prints a report as text: a heading, then one compact line
// per result in each section.
func writeEntity(w io.Writer, rep *memoria.EntityReport) {
	fmt.Fprintf(w, "%s (@%s)", rep.Name, rep.Slug)
	if len(rep.Aliases) > 0 {
		fmt.Fprintf(w, "; also: %s", strings.Join(rep.Aliases, ", "))
	}
	fmt.Fprintln(w)
	section := func(title string, rs []recall.Result) {
		fmt.Fprintf(w, "\n%s (%d)\n", title, len(rs))
		if len(rs) == 0 {
			fmt.Fprintln(w, "  none")
		}
		for _, r := range rs {
			fmt.Fprintln(w, "  "+compactLine(r))
		}
	}
	section("Page", rep.Page)
	section("Current facts", rep.Current)
	section("Timeline", rep.Timeline)
	section("Opinions", rep.Opinions)
}
