package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"memoria"
	"memoria/retain"
)

// maxStdinFacts bounds the facts read from stdin in one call.
const maxStdinFacts = 100_000

// retainFlags are retain's own flags.
type retainFlags struct {
	date, now      string
	infer, accept  bool
	since          string
	llmURL, llmMod string
	review         string
}

// runRetain appends facts to the Retain section of a daily log, or, with
// --infer and --accept, proposes facts for review and accepts them.
func runRetain(ctx context.Context, e *env, args []string) error {
	var c common
	var rf retainFlags
	fs := newFlags("retain", e, &c)
	fs.StringVar(&rf.date, "date", "", "the log's day, `YYYY-MM-DD` (default: today)")
	fs.StringVar(&rf.now, "now", "", "\"now\" for today and --since, `YYYY-MM-DD[THH:MM]`")
	fs.BoolVar(&rf.infer, "infer", false, "propose facts from logs without a Retain section, into the review file")
	fs.StringVar(&rf.since, "since", "", "with --infer: only logs since `WHEN` (7d, 2w, YYYY-MM-DD)")
	fs.BoolVar(&rf.accept, "accept", false, "move the ticked [x] proposals of the review file into their logs")
	fs.StringVar(&rf.llmURL, "llm-url", "", "with --infer: an OpenAI-compatible chat `URL` (Ollama, llama.cpp server); default $MEMORIA_LLM_URL")
	fs.StringVar(&rf.llmMod, "llm-model", "", "with --llm-url: the model `NAME`; default $MEMORIA_LLM_MODEL")
	fs.StringVar(&rf.review, "review", "", "the review `FILE`, workspace-relative (default "+memoria.ReviewFile+")")
	pos, err := parseFlags(e, fs, textArgs(args))
	if err != nil {
		return err
	}
	var now time.Time
	if rf.now != "" {
		if now, err = memoria.ParseNow(rf.now); err != nil {
			return usagef("--now: %v", err)
		}
	}
	switch {
	case rf.infer && rf.accept:
		return usagef("--infer and --accept are separate steps: run one, review, then the other")
	case rf.infer || rf.accept:
		if len(pos) > 0 || rf.date != "" {
			return usagef("--infer and --accept take no facts and no --date")
		}
		if rf.infer {
			return runInfer(ctx, e, &c, rf, now)
		}
		return runAccept(ctx, e, &c, rf)
	case rf.since != "" || rf.llmURL != "" || rf.llmMod != "" || rf.review != "":
		return usagef("--since, --llm-url, --llm-model and --review go with --infer or --accept")
	}
	var date time.Time
	if rf.date != "" {
		if date, err = memoria.ParseDay(rf.date); err != nil {
			return usagef("--date: %v", err)
		}
	}
	facts, err := readFacts(e, pos)
	if err != nil {
		return err
	}
	// Validate everything before touching the workspace: bad input writes
	// nothing and exits 2.
	for i, f := range facts {
		if _, err := retain.Validate(f); err != nil {
			if len(facts) > 1 {
				return usagef("fact %d: %v", i+1, err)
			}
			return usagef("%v", err)
		}
	}
	ws, err := c.open(ctx, e, false)
	if err != nil {
		return err
	}
	defer ws.Close()
	res, err := ws.Retain(ctx, facts, memoria.RetainOptions{Date: date, Now: now})
	if err != nil {
		if errors.Is(err, memoria.ErrInvalid) {
			return usagef("%v", err)
		}
		return err
	}
	return printRetained(e, c.json, res)
}

// readFacts returns the facts given as arguments, or read from stdin (one
// per line, blank lines skipped) when the only argument is "-".
func readFacts(e *env, pos []string) ([]string, error) {
	if len(pos) == 0 {
		return nil, usagef(`retain needs a fact, such as "O(c=0.8) @Peter: Prefers tea.", or - to read facts from stdin`)
	}
	if len(pos) != 1 || pos[0] != "-" {
		for _, p := range pos {
			if p == "-" {
				return nil, usagef("- (read stdin) cannot be mixed with facts given as arguments")
			}
		}
		return pos, nil
	}
	sc := bufio.NewScanner(e.stdin)
	sc.Buffer(make([]byte, 0, 64<<10), retain.MaxFactBytes+2)
	var facts []string
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		if isBlank(line) {
			continue
		}
		if len(facts) == maxStdinFacts {
			return nil, usagef("stdin: more than %d facts; split the input", maxStdinFacts)
		}
		if _, err := retain.Validate(line); err != nil {
			return nil, usagef("stdin line %d: %v", n, err)
		}
		facts = append(facts, line)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, usagef("stdin line %d: fact is longer than %d bytes: split it into smaller facts", n+1, retain.MaxFactBytes)
		}
		return nil, fmt.Errorf("reading stdin: %w", err)
	}
	if len(facts) == 0 {
		return nil, usagef("stdin holds no facts (one per line)")
	}
	return facts, nil
}

func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' && s[i] != '\t' {
			return false
		}
	}
	return true
}

func printRetained(e *env, asJSON bool, res memoria.RetainResult) error {
	if asJSON {
		type added struct {
			Bullet string `json:"bullet"`
			Source string `json:"source"`
		}
		out := struct {
			Path    string   `json:"path"`
			Added   []added  `json:"added"`
			Skipped []string `json:"skipped"`
		}{Path: res.Path, Added: []added{}, Skipped: res.Skipped}
		if out.Skipped == nil {
			out.Skipped = []string{}
		}
		for _, a := range res.Added {
			out.Added = append(out.Added, added{a.Bullet, a.Source.String()})
		}
		return writeJSON(e.stdout, out)
	}
	for _, a := range res.Added {
		fmt.Fprintf(e.stdout, "%s  %s\n", a.Source, a.Bullet)
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(e.stdout, "already in %s: %s\n", res.Path, s)
	}
	return nil
}

// textArgs moves arguments that start with "- " (a Markdown bullet, as in
// `memoria core append About "- Dog: Biscuit"`) behind "--", so that the
// flag parser reads them as text rather than as unknown flags.
func textArgs(args []string) []string {
	var flags, text []string
	for i, a := range args {
		if a == "--" {
			text = append(text, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "- ") || strings.HasPrefix(a, "-\t") {
			text = append(text, a)
			continue
		}
		flags = append(flags, a)
	}
	if len(text) == 0 {
		return flags
	}
	return append(append(flags, "--"), text...)
}
