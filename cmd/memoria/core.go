package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"memoria"
)

// runCore shows and edits core memory (memory.md): show [BLOCK],
// append BLOCK TEXT, replace BLOCK OLD NEW, insert BLOCK LINE TEXT.
func runCore(ctx context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("core", e, &c)
	limit := fs.Int("limit", 0, "size limit of memory.md in `BYTES` for edits that grow it (default 8192; -1 for none)")
	pos, err := parseFlags(e, fs, textArgs(args))
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("core needs an action: show [BLOCK], append BLOCK TEXT, replace BLOCK OLD NEW, insert BLOCK LINE TEXT")
	}
	action, rest := pos[0], pos[1:]
	// Text given as "-" is read from stdin, for multi-line blocks.
	readText := func(s string) (string, error) {
		if s != "-" {
			return s, nil
		}
		var b strings.Builder
		buf := make([]byte, 32<<10)
		for {
			n, rerr := e.stdin.Read(buf)
			b.Write(buf[:n])
			if b.Len() > 1<<20 {
				return "", usagef("stdin: text over 1 MB")
			}
			if rerr != nil {
				break
			}
		}
		return b.String(), nil
	}
	want := map[string]int{"show": -1, "append": 2, "replace": 3, "insert": 3}
	n, ok := want[action]
	switch {
	case !ok:
		return usagef("unknown core action %q: want show, append, replace or insert", action)
	case action == "show" && len(rest) > 1:
		return usagef("core show takes at most one block name (quote names with spaces)")
	case n >= 0 && len(rest) != n:
		return usagef("core %s needs %d arguments, got %d: memoria core %s %s", action, n, len(rest), action,
			map[string]string{"append": "BLOCK TEXT", "replace": "BLOCK OLD NEW", "insert": "BLOCK LINE TEXT"}[action])
	}
	o := memoria.CoreOptions{Limit: *limit}
	var line int
	if action == "insert" {
		if line, err = strconv.Atoi(rest[1]); err != nil || line < 0 {
			return usagef("core insert: LINE %q: want a line number of the block, 0 for right after its heading", rest[1])
		}
		rest = []string{rest[0], rest[2]}
	}
	for i := range rest {
		if action != "show" && i > 0 {
			if rest[i], err = readText(rest[i]); err != nil {
				return err
			}
		}
	}
	ws, err := c.open(ctx, e, false)
	if err != nil {
		return err
	}
	defer ws.Close()
	switch action {
	case "show":
		return coreShow(e, ws, c.json, rest)
	case "append":
		err = ws.CoreAppend(ctx, rest[0], rest[1], o)
	case "replace":
		err = ws.CoreReplace(ctx, rest[0], rest[1], rest[2], o)
	case "insert":
		err = ws.CoreInsert(ctx, rest[0], line, rest[1], o)
	}
	if err != nil {
		if errors.Is(err, memoria.ErrInvalid) {
			return usagef("%v", err)
		}
		return err
	}
	if c.json {
		return json.NewEncoder(e.stdout).Encode(map[string]string{"path": ws.CorePath(), "block": rest[0], "action": action})
	}
	fmt.Fprintf(e.stdout, "%s: %s %q\n", ws.CorePath(), map[string]string{"append": "appended to", "replace": "replaced in", "insert": "inserted into"}[action], rest[0])
	return nil
}

func coreShow(e *env, ws *memoria.Workspace, asJSON bool, rest []string) error {
	block := ""
	if len(rest) == 1 {
		block = rest[0]
	}
	if asJSON {
		bs, err := ws.CoreBlocks()
		if err != nil {
			return err
		}
		type blockJSON struct {
			Name   string `json:"name"`
			Source string `json:"source"`
			Text   string `json:"text"`
		}
		out := []blockJSON{}
		for _, b := range bs {
			if block != "" && !strings.EqualFold(strings.TrimSpace(b.Name), strings.TrimSpace(block)) {
				continue
			}
			out = append(out, blockJSON{b.Name, fmt.Sprintf("%s#L%d-L%d", ws.CorePath(), b.Line, b.Line+b.Lines), b.Text})
		}
		if block != "" && len(out) == 0 {
			if _, err := ws.CoreShow(block); err != nil {
				return usagef("%v", err)
			}
		}
		return writeJSON(e.stdout, out)
	}
	s, err := ws.CoreShow(block)
	if err != nil {
		if errors.Is(err, memoria.ErrInvalid) {
			return usagef("%v", err)
		}
		return err
	}
	fmt.Fprint(e.stdout, s)
	if s != "" && !strings.HasSuffix(s, "\n") {
		fmt.Fprintln(e.stdout)
	}
	return nil
}
