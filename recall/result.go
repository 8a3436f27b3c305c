package recall

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"memoria/memory"
)

// Result is one recalled item in the shape agents read (docs/recall.md).
type Result struct {
	ID        string      `json:"id"`
	Kind      memory.Kind `json:"kind"`
	Timestamp string      `json:"timestamp,omitempty"`  // the day it was written (YYYY-MM-DD)
	EventTime *EventTime  `json:"event_time,omitempty"` // when it happened, if the text says
	// Observed and Status are what OpenClaw's user model (USER.md) marks
	// an entry with: the day the preference was observed, and whether it
	// is active or superseded by another entry.
	Observed string             `json:"observed,omitempty"`
	Status   memory.EntryStatus `json:"status,omitempty"`
	Entities []string           `json:"entities"`
	Content  string             `json:"content"`
	// Truncated is how many bytes of the cited text Content leaves out
	// (MaxContentBytes); 0 when it holds it all.
	Truncated  int      `json:"truncated,omitempty"`
	Confidence *float64 `json:"confidence,omitempty"`
	Source     string   `json:"source"` // path#Lx or path#Lx-Ly, exactly the lines of Content
	// ImportedFrom names the assistant a line imported by OpenClaw came
	// from (memory/imports/<source>/: "codex", "claude-code", "hermes").
	ImportedFrom string `json:"imported_from,omitempty"`
	// MachineSummary is set for a line of OpenClaw's dreaming sweep
	// (DREAMS.md, memory/dreaming/): a machine's summary for review, not
	// a record, to be checked against the lines it summarises.
	MachineSummary bool    `json:"machine_summary,omitempty"`
	Score          float64 `json:"score"` // relative: 1 for the best result
	// SupersededBy are the later facts about the same entity and attribute
	// that replace this one; Supersedes the earlier ones it replaces.
	SupersededBy []Link `json:"superseded_by,omitempty"`
	Supersedes   []Link `json:"supersedes,omitempty"`
	// Also are the other places the same fact is written (the same kind,
	// text and entities: a curated copy in bank/, or the log it was copied
	// from), which recall folds into this result rather than repeat.
	Also    []string `json:"also,omitempty"`
	Explain *Explain `json:"explain,omitempty"`
	// Evidence is what the engines scored the item with, on their own
	// scales (not in the JSON shape): unlike Score, which is relative to
	// the best result of one recall, it compares results of recalls of
	// different workspaces (a team-wide recall merges by it).
	Evidence Evidence `json:"-"`
	// LexicalOnly, set by callers, says why the recall that found this
	// result ran without its semantic channel ("the embedding model is not
	// installed…"); empty when it ran.
	LexicalOnly string `json:"lexical_only,omitempty"`

	src memory.Source
}

// MaxContentBytes is the most of an item's text a result carries. A
// passage is a paragraph or a few lines and a fact a few KiB at most, but
// a Markdown line may be megabytes long (a pasted log, minified data),
// which would flood an agent's context. The citation still names every
// line, which `memoria get` reads whole.
const MaxContentBytes = 8 << 10

// cut shortens Content to at most max bytes, at a character boundary.
func (r *Result) cut(max int) {
	short := ClipBytes(r.Content, max)
	r.Truncated = len(r.Content) - len(short)
	r.Content = short
}

// ClipBytes returns the longest prefix of s of at most n bytes that does
// not split a character.
func ClipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// TruncationNote says what a cut result leaves out, for text output; ""
// when nothing is cut.
func (r Result) TruncationNote() string {
	if r.Truncated == 0 {
		return ""
	}
	return fmt.Sprintf("… %d more bytes (memoria get %s)", r.Truncated, r.Source)
}

// Link points at another version of a fact (update-awareness).
type Link struct {
	ID        string `json:"id"`
	Source    string `json:"source"`
	Timestamp string `json:"timestamp,omitempty"` // the day it was written; "" for bank/ and memory.md
}

// EventTime is a fact's event time as days.
type EventTime struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// Evidence is a result's scores from the engines themselves.
type Evidence struct {
	Lexical  float64 // bm25 of its full-text match (0: not found by words)
	Semantic float64 // cosine of its text with the query's (0: not found by meaning)
}

// Explain says why a result ranks where it does (--explain).
type Explain struct {
	Channels map[string]int `json:"channels"` // channel → 1-based rank in it
	// Features are what each feature the result has added to its score
	// (its value times the fitted weight); none for a listing without
	// words, which keeps its own order.
	Features map[string]float64 `json:"features,omitempty"`
	Fused    float64            `json:"fused"` // the ranker's score, before it is made relative to the best
}

// Meta describes a result in one short phrase for people and prompts:
// kind, day written, event time, confidence and, with entities set, the
// entities ("opinion, 2025-11-27, c=0.95, @Peter").
func (r Result) Meta(entities bool) string {
	meta := []string{string(r.Kind)}
	if r.Timestamp != "" {
		meta = append(meta, r.Timestamp)
	}
	if r.EventTime != nil {
		meta = append(meta, "event "+r.EventTime.Start+"…"+r.EventTime.End)
	}
	if r.Confidence != nil {
		meta = append(meta, fmt.Sprintf("c=%.2f", *r.Confidence))
	}
	meta = append(meta, r.Origin()...)
	if entities && len(r.Entities) > 0 {
		meta = append(meta, "@"+strings.Join(r.Entities, " @"))
	}
	return strings.Join(meta, ", ")
}

// Origin says, in short phrases for people and prompts, what a line of
// OpenClaw's files is beside its kind: "observed 2026-07-27" and
// "superseded" (USER.md), "imported from codex", "machine summary"
// (DREAMS.md). None for the workspace's own notes.
func (r Result) Origin() []string {
	var out []string
	if r.Observed != "" {
		out = append(out, "observed "+r.Observed)
	}
	if r.Status != "" {
		out = append(out, string(r.Status))
	}
	if r.ImportedFrom != "" {
		out = append(out, "imported from "+r.ImportedFrom)
	}
	if r.MachineSummary {
		out = append(out, "machine summary")
	}
	return out
}

// Cite is the result's citation as a Source.
func (r Result) Cite() memory.Source { return r.src }

// Cites is the results' citations, in order: what an evaluation scores.
func Cites(rs []Result) []memory.Source {
	out := make([]memory.Source, len(rs))
	for i, r := range rs {
		out[i] = r.Cite()
	}
	return out
}

// FoldCopies keeps one result of each fact (results with the same ID: the
// same kind, text and entities) and lists the sources of the others in its
// Also: one entry per fact, with every place it is written. The entry kept
// is the first, unless a later one is preferred (prefer may be nil); it
// keeps the first one's place.
func FoldCopies(rs []Result, prefer func(Result) bool) []Result {
	first := map[string]int{}
	out := rs[:0]
	for _, r := range rs {
		if r.ID != "" && !strings.HasPrefix(r.ID, "p_") { // passages are never folded
			if i, ok := first[r.ID]; ok {
				if prefer != nil && prefer(r) && !prefer(out[i]) {
					r.Also = append(append(r.Also, out[i].Source), out[i].Also...)
					out[i] = r
				} else {
					out[i].Also = append(out[i].Also, r.Source)
				}
				continue
			}
			first[r.ID] = len(out)
		}
		out = append(out, r)
	}
	return out
}
