package main

import (
	"context"
	"fmt"

	"memoria"
)

// runDoctor checks the workspace and its derived files, and says what to
// run to fix each problem. It exits 1 when it finds one.
func runDoctor(ctx context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("doctor", e, &c)
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("doctor takes no arguments, got %q", pos[0])
	}
	ws, err := c.open(ctx, e, true)
	if err != nil {
		return err
	}
	defer ws.Close()
	return doctor(ctx, e, &c, ws)
}

// doctor prints Doctor's findings for an open workspace (doctor, and
// status --deep after the status).
func doctor(ctx context.Context, e *env, c *common, ws *memoria.Workspace) error {
	findings, problems, err := runDoctorChecks(ctx, ws)
	if err != nil {
		return err
	}
	if c.json {
		if err := writeJSON(e.stdout, map[string]any{"workspace": ws.Dir(), "problems": problems, "findings": findings}); err != nil {
			return err
		}
	} else {
		for _, f := range findings {
			mark := "ok  "
			if !f.OK {
				mark = "FIX "
			}
			fmt.Fprintf(e.stdout, "%s %-16s %s\n", mark, f.Check, f.Detail)
			if f.Fix != "" {
				fmt.Fprintf(e.stdout, "     %-16s → %s\n", "", f.Fix)
			}
		}
	}
	if problems > 0 {
		return fmt.Errorf("%s found (each line marked FIX says what to run)", plural(problems, "problem"))
	}
	return nil
}

// plural writes a count with its noun: "1 problem", "3 problems".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// runDoctorChecks runs Doctor and counts the findings that need a fix.
func runDoctorChecks(ctx context.Context, ws *memoria.Workspace) ([]memoria.Finding, int, error) {
	findings, err := ws.Doctor(ctx)
	problems := 0
	for _, f := range findings {
		if !f.OK {
			problems++
		}
	}
	return findings, problems, err
}
