package web

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"memoria"
	"memoria/recall"
)

// status is what the header of the page shows: the workspace and what its
// index holds.
func (h *handler) status(ctx context.Context, ws *memoria.Workspace, _ *http.Request) (any, error) {
	st, err := ws.Status(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]any{
		"workspace": ws.Dir(), "core": ws.CorePath(), "files": st.Files, "facts": st.Facts,
		"passages": st.Passages, "entities": st.Entities, "entity_pages": st.EntityPages,
		"pending": st.Pending, "vector_model": st.VectorModel, "embedded": st.Embedded, "texts": st.Texts,
	}
	if !st.FirstDay.IsZero() {
		out["first_day"], out["last_day"] = st.FirstDay.Format(time.DateOnly), st.LastDay.Format(time.DateOnly)
	}
	return out, nil
}

// recallOut is a recall's answer.
type recallOut struct {
	Query       string          `json:"query"`
	Results     []recall.Result `json:"results"`
	LexicalOnly string          `json:"lexical_only,omitempty"`
}

// recall runs Workspace.Recall as `memoria recall --explain` does: q, and
// the optional since, until, kind (repeatable or comma-separated), entity
// (the same), k (1–100, default 25), min_score, lexical and now.
func (h *handler) recall(ctx context.Context, ws *memoria.Workspace, r *http.Request) (any, error) {
	q := r.URL.Query()
	o := memoria.RecallOptions{Explain: true, Lexical: q.Get("lexical") == "1"}
	var err error
	if o.Now, err = now(r); err != nil {
		return nil, err
	}
	if o.K, err = intParam(r, "k", 25, 1, maxResults); err != nil {
		return nil, err
	}
	clock := o.Now
	if clock.IsZero() {
		clock = time.Now()
	}
	if o.Since, err = memoria.ParseTimeBound(q.Get("since"), clock); err != nil {
		return nil, badRequest("since: %v", err)
	}
	if o.Until, err = memoria.ParseUntilBound(q.Get("until"), clock); err != nil {
		return nil, badRequest("until: %v", err)
	}
	if s := q.Get("min_score"); s != "" {
		if _, err := fmt.Sscan(s, &o.MinScore); err != nil {
			return nil, badRequest("min_score: want a number from 0 to 1, got %q", s)
		}
	}
	o.Kinds, o.Entities = list(q["kind"]), list(q["entity"])
	text := q.Get("q")
	res, err := ws.Recall(ctx, text, o)
	if err != nil {
		return nil, err
	}
	if res == nil {
		res = []recall.Result{}
	}
	return recallOut{Query: text, Results: res, LexicalOnly: ws.SemanticOff()}, nil
}

// list splits repeated and comma-separated values.
func list(vs []string) []string {
	var out []string
	for _, v := range vs {
		for p := range strings.SplitSeq(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// getLine is one line of a file as the page shows it.
type getLine struct {
	N     int    `json:"n"`
	Text  string `json:"text"`
	Cited bool   `json:"cited"`
}

// getOut is what get answers: the cited lines, with a few lines around
// them.
type getOut struct {
	Source    string    `json:"source"` // the lines read (clipped to the file's end)
	Path      string    `json:"path"`
	Clipped   bool      `json:"clipped,omitempty"`
	FileLines int       `json:"file_lines"`
	Lines     []getLine `json:"lines"`
}

// around is how many lines of context get shows each side.
const around = 4

// get reads the lines a citation (ref) points at through Workspace.Get,
// which refuses any path that is not a memory file of the workspace.
func (h *handler) get(_ context.Context, ws *memoria.Workspace, r *http.Request) (any, error) {
	ref := r.URL.Query().Get("ref")
	if ref == "" {
		return nil, badRequest("ref: give a citation, e.g. memory/2025-11-27.md#L12-L15")
	}
	cited, err := ws.Get(ref)
	if err != nil {
		return nil, err
	}
	src := cited.Source
	out := getOut{Source: src.String(), Path: src.Path, Clipped: cited.Clipped, FileLines: cited.FileLines}
	start, end := src.Start, src.End
	if start == 0 { // the whole file
		start, end = 1, cited.FileLines
	}
	lo, hi := max(1, start-around), min(cited.FileLines, end+around)
	wide, err := ws.Get(fmt.Sprintf("%s#L%d-L%d", src.Path, lo, hi))
	if err != nil {
		return nil, err
	}
	for i, l := range strings.Split(wide.Text, "\n") {
		n := wide.Source.Start + i
		out.Lines = append(out.Lines, getLine{N: n, Text: l, Cited: n >= start && n <= end})
	}
	return out, nil
}

// timeline answers a page of Workspace.Timeline: before (YYYY-MM-DD) and
// days (1–120).
func (h *handler) timeline(ctx context.Context, ws *memoria.Workspace, r *http.Request) (any, error) {
	var o memoria.TimelineOptions
	var err error
	if s := r.URL.Query().Get("before"); s != "" {
		if o.Before, err = memoria.ParseDay(s); err != nil {
			return nil, badRequest("before: %v", err)
		}
	}
	if o.Days, err = intParam(r, "days", memoria.DefaultTimelineDays, 1, memoria.MaxTimelineDays); err != nil {
		return nil, err
	}
	return ws.Timeline(ctx, o)
}

// entities lists the known entities, most mentioned first: those whose
// slug or name contains q, at most limit (default and at most 500).
func (h *handler) entities(ctx context.Context, ws *memoria.Workspace, r *http.Request) (any, error) {
	limit, err := intParam(r, "limit", maxEntities, 1, maxEntities)
	if err != nil {
		return nil, err
	}
	all, err := ws.Entities(ctx)
	if err != nil {
		return nil, err
	}
	q := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("q")))
	out := []memoria.EntitySummary{}
	for _, e := range all {
		if q != "" && !strings.Contains(strings.ToLower(e.Slug), q) && !strings.Contains(strings.ToLower(e.Name), q) {
			continue
		}
		if len(out) < limit {
			out = append(out, e)
		}
	}
	return map[string]any{"total": len(all), "entities": out}, nil
}

// neighbour is an entity named together with another one.
type neighbour struct {
	Slug  string `json:"slug"`
	Facts int    `json:"facts"`
}

// entityOut is an entity's report with the entities its facts name
// besides it.
type entityOut struct {
	*memoria.EntityReport
	Neighbours []neighbour `json:"neighbours"`
}

// entity answers Workspace.Entity for name.
func (h *handler) entity(ctx context.Context, ws *memoria.Workspace, r *http.Request) (any, error) {
	name := strings.TrimSpace(r.URL.Query().Get("name"))
	if name == "" {
		return nil, badRequest("name: give an entity's name, alias or slug")
	}
	rep, err := ws.Entity(ctx, name)
	if err != nil {
		return nil, err
	}
	count := map[string]int{}
	seen := map[string]bool{}
	for _, rs := range [][]recall.Result{rep.Timeline, rep.Current, rep.Opinions} {
		for _, res := range rs {
			if seen[res.ID] {
				continue
			}
			seen[res.ID] = true
			for _, e := range res.Entities {
				if !strings.EqualFold(e, rep.Slug) && !slices.ContainsFunc(rep.Aliases, func(a string) bool { return strings.EqualFold(a, e) }) {
					count[e]++
				}
			}
		}
	}
	out := entityOut{EntityReport: rep, Neighbours: []neighbour{}}
	for s, n := range count {
		out.Neighbours = append(out.Neighbours, neighbour{s, n})
	}
	slices.SortFunc(out.Neighbours, func(a, b neighbour) int { return cmp.Or(b.Facts-a.Facts, strings.Compare(a.Slug, b.Slug)) })
	return out, nil
}

// graph answers Workspace.EntityGraph for the n (2–100, default 30) most
// mentioned entities.
func (h *handler) graph(ctx context.Context, ws *memoria.Workspace, r *http.Request) (any, error) {
	n, err := intParam(r, "n", memoria.DefaultGraphEntities, 2, memoria.MaxGraphEntities)
	if err != nil {
		return nil, err
	}
	return ws.EntityGraph(ctx, memoria.EntityGraphOptions{Entities: n})
}

// proposals lists both review queues, each cut at maxQueue.
func (h *handler) proposals(_ context.Context, ws *memoria.Workspace, _ *http.Request) (any, error) {
	rp, err := ws.RetainProposals("")
	if err != nil {
		return nil, err
	}
	cp, err := ws.CoreProposals()
	if err != nil {
		return nil, err
	}
	open := slices.DeleteFunc(slices.Clone(cp), func(p memoria.CoreProposal) bool { return p.State != "open" })
	return map[string]any{
		"retain": map[string]any{"file": memoria.ReviewFile, "total": len(rp), "items": rp[:min(len(rp), maxQueue)]},
		"core": map[string]any{"file": memoria.CoreProposalsFile, "total": len(cp), "open": len(open),
			"items": cp[:min(len(cp), maxQueue)], "core": ws.CorePath()},
	}, nil
}

// idIn is the body of a decision on one proposal.
type idIn struct {
	ID   string `json:"id"`
	Text string `json:"text,omitempty"` // core proposals: the text to append instead of the proposal's
}

func readID(r *http.Request) (idIn, error) {
	var in idIn
	if err := decode(r, &in); err != nil {
		return in, err
	}
	if in.ID == "" {
		return in, badRequest("id: give the proposal's id")
	}
	return in, nil
}

func (h *handler) acceptRetain(ctx context.Context, ws *memoria.Workspace, r *http.Request) (any, error) {
	in, err := readID(r)
	if err != nil {
		return nil, err
	}
	res, err := ws.AcceptRetainProposal(ctx, in.ID, memoria.AcceptOptions{})
	if err != nil {
		return nil, err
	}
	acc := []map[string]string{}
	for _, a := range res.Accepted {
		acc = append(acc, map[string]string{"bullet": a.Bullet, "source": a.Source.String()})
	}
	skipped := res.Skipped
	if skipped == nil {
		skipped = []string{}
	}
	return map[string]any{"accepted": acc, "skipped": skipped, "left": res.Left}, nil
}

func (h *handler) rejectRetain(_ context.Context, ws *memoria.Workspace, r *http.Request) (any, error) {
	in, err := readID(r)
	if err != nil {
		return nil, err
	}
	if err := ws.RejectRetainProposal(in.ID, memoria.AcceptOptions{}); err != nil {
		return nil, err
	}
	return map[string]any{"rejected": in.ID}, nil
}

func (h *handler) acceptCore(ctx context.Context, ws *memoria.Workspace, r *http.Request) (any, error) {
	in, err := readID(r)
	if err != nil {
		return nil, err
	}
	p, err := ws.AcceptCoreProposal(ctx, in.ID, in.Text, memoria.CoreOptions{})
	if err != nil {
		return nil, err
	}
	return map[string]any{"accepted": p.ID, "block": p.Block, "text": p.Text, "core": ws.CorePath()}, nil
}

func (h *handler) rejectCore(_ context.Context, ws *memoria.Workspace, r *http.Request) (any, error) {
	in, err := readID(r)
	if err != nil {
		return nil, err
	}
	if err := ws.RejectCoreProposal(in.ID, memoria.CoreOptions{}); err != nil {
		return nil, err
	}
	return map[string]any{"rejected": in.ID}, nil
}

// inferIn is the body of an inference run from the page.
type inferIn struct {
	Since string `json:"since,omitempty"` // 7d, 2w, YYYY-MM-DD; "" for all logs
	Now   string `json:"now,omitempty"`
}

// infer runs `memoria retain --infer` (the offline heuristics).
func (h *handler) infer(ctx context.Context, ws *memoria.Workspace, r *http.Request) (any, error) {
	var in inferIn
	if err := decode(r, &in); err != nil {
		return nil, err
	}
	var o memoria.InferOptions
	var err error
	if in.Now != "" {
		if o.Now, err = memoria.ParseNow(in.Now); err != nil {
			return nil, badRequest("now: %v", err)
		}
	}
	clock := cmp.Or(o.Now, time.Now())
	if o.Since, err = memoria.ParseTimeBound(in.Since, clock); err != nil {
		return nil, badRequest("since: %v", err)
	}
	res, err := ws.InferFacts(ctx, o)
	if err != nil {
		return nil, err
	}
	return map[string]any{"review": res.Review, "logs": res.Logs, "proposals": len(res.Proposals), "added": res.Added}, nil
}
