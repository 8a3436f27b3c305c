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
	if len(pos) == 0 {
		return usagef("entity needs a name, e.g. `memoria entity Pete`")
	}
	name := strings.Join(pos, " ")
	ws, err := c.open(ctx, e, true)
	if err != nil {
		return err
	}
	defer ws.Close()
	rep, err := ws.Entity(ctx, name)
	if errors.Is(err, memoria.ErrUnknownEntity) {
		return notFoundError{err}
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
