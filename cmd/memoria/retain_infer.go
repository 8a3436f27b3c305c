package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"memoria"
)

// runInfer writes proposed facts for logs without a Retain section to the
// review file.
func runInfer(ctx context.Context, e *env, c *common, rf retainFlags, now time.Time) error {
	since, err := memoria.ParseTimeBound(rf.since, cmp.Or(now, time.Now()))
	if err != nil {
		return usagef("--since: %v", err)
	}
	o := memoria.InferOptions{
		Since: since, Now: now, Review: rf.review,
		LLMURL:   cmp.Or(rf.llmURL, e.getenv("MEMORIA_LLM_URL")),
		LLMModel: cmp.Or(rf.llmMod, e.getenv("MEMORIA_LLM_MODEL")),
	}
	if o.LLMURL != "" && o.LLMModel == "" {
		return usagef("--llm-url needs --llm-model (or $MEMORIA_LLM_MODEL)")
	}
	ws, err := c.open(ctx, e, true)
	if err != nil {
		return err
	}
	defer ws.Close()
	res, err := ws.InferFacts(ctx, o)
	if err != nil {
		if errors.Is(err, memoria.ErrInvalid) {
			return usagef("%v", err)
		}
		return err
	}
	if c.json {
		type prop struct {
			Fact   string `json:"fact"`
			Source string `json:"source"`
			Reason string `json:"reason"`
		}
		out := struct {
			Review    string `json:"review"`
			Logs      int    `json:"logs"`
			Added     int    `json:"added"`
			Proposals []prop `json:"proposals"`
		}{Review: res.Review, Logs: res.Logs, Added: res.Added, Proposals: []prop{}}
		for _, p := range res.Proposals {
			out.Proposals = append(out.Proposals, prop{p.Fact, p.Source.String(), p.Reason})
		}
		return writeJSON(e.stdout, out)
	}
	fmt.Fprintf(e.stdout, "%d proposals from %d logs without a Retain section; %d new in %s\n",
		len(res.Proposals), res.Logs, res.Added, res.Review)
	if res.Added > 0 {
		fmt.Fprintf(e.stdout, "tick the ones to keep ([x]) in %s, then run `memoria retain --accept`\n", res.Review)
	}
	return nil
}

// runAccept moves ticked proposals into their logs.
func runAccept(ctx context.Context, e *env, c *common, rf retainFlags) error {
	ws, err := c.open(ctx, e, false)
	if err != nil {
		return err
	}
	defer ws.Close()
	res, err := ws.AcceptProposals(ctx, memoria.AcceptOptions{Review: rf.review})
	if err != nil {
		if errors.Is(err, memoria.ErrInvalid) {
			return usagef("%v", err)
		}
		return err
	}
	if c.json {
		type added struct {
			Bullet string `json:"bullet"`
			Source string `json:"source"`
		}
		out := struct {
			Review   string   `json:"review"`
			Accepted []added  `json:"accepted"`
			Skipped  []string `json:"skipped"`
			Left     int      `json:"left"`
		}{Review: res.Review, Accepted: []added{}, Skipped: append([]string{}, res.Skipped...), Left: res.Left}
		for _, a := range res.Accepted {
			out.Accepted = append(out.Accepted, added{a.Bullet, a.Source.String()})
		}
		return writeJSON(e.stdout, out)
	}
	for _, a := range res.Accepted {
		fmt.Fprintf(e.stdout, "%s  %s\n", a.Source, a.Bullet)
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(e.stdout, "already retained: %s\n", s)
	}
	if len(res.Accepted)+len(res.Skipped) == 0 {
		fmt.Fprintf(e.stdout, "nothing ticked in %s (mark proposals to keep with [x])\n", res.Review)
	}
	fmt.Fprintf(e.stdout, "%d proposals left in %s\n", res.Left, res.Review)
	return nil
}
