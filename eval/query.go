package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"memoria/memory"
)

// DateLayout is the layout of a query's question_date: its "now".
const DateLayout = "2006-01-02T15:04"

// DayLayout is the layout of a day: a window's start and end, a past asof.
const DayLayout = "2006-01-02"

// AsOfNow is the asof value of a query about the present state of a fact.
const AsOfNow = "now"

// Query is one evaluation question, as read from a line of a queries.jsonl
// file.
type Query struct {
	// ID identifies the query, e.g. "lme/00ca467f".
	ID string `json:"id"`
	// Workspace is the directory of the query's workspace. LoadQueries
	// resolves a relative path against the directory of the JSONL file.
	Workspace string `json:"workspace"`
	// Question is the text given to recall.
	Question string `json:"question"`
	// Answer is the reference answer (informational; not scored here).
	Answer string `json:"answer,omitempty"`
	// Now is when the question is asked (question_date); zero if absent.
	Now time.Time `json:"now"`
	// Category is the question type ("category", or its alias "type").
	Category string `json:"category"`
	// Abstention is true when the answer is not in the workspace.
	Abstention bool `json:"abstention,omitempty"`
	// Scored is false when the query has no usable gold; such queries are
	// run but left out of every score. It defaults to true when absent.
	Scored bool `json:"scored"`
	// Gold are the line ranges that hold the evidence.
	Gold []memory.Source `json:"gold"`
	// GoldSessions are the line ranges of the whole evidence sessions.
	GoldSessions []memory.Source `json:"gold_sessions,omitempty"`
	// GoldDays are the days (YYYY-MM-DD) of the evidence sessions.
	GoldDays []string `json:"gold_days,omitempty"`
	// Window is the range of days a temporal query asks about ("window":
	// {"start": "YYYY-MM-DD", "end": "YYYY-MM-DD"}, both included); nil if
	// absent. It drives the in-window share (InWindowShare).
	Window *memory.TimeRange `json:"window,omitempty"`
	// Superseded are, for a query about a fact that changed, the lines of
	// the version(s) of the fact that do not answer for the asked time: the
	// outdated ones when AsOf is "now", the later ones when it is a past
	// day. They drive CurrentFirst.
	Superseded []memory.Source `json:"superseded,omitempty"`
	// AsOf is the time an update query asks about: "now" (AsOfNow) or a
	// day YYYY-MM-DD; empty if absent.
	AsOf string `json:"asof,omitempty"`
}

// rawQuery is the wire form of a queries.jsonl line.
type rawQuery struct {
	ID           string          `json:"id"`
	Workspace    string          `json:"workspace"`
	Question     string          `json:"question"`
	Answer       json.RawMessage `json:"answer"`
	QuestionDate string          `json:"question_date"`
	Category     string          `json:"category"`
	Type         string          `json:"type"`
	Abstention   bool            `json:"abstention"`
	Scored       *bool           `json:"scored"`
	Gold         []string        `json:"gold"`
	GoldSessions []string        `json:"gold_sessions"`
	GoldDays     []string        `json:"gold_days"`
	Window       *rawWindow      `json:"window"`
	Superseded   []string        `json:"superseded"`
	AsOf         string          `json:"asof"`
}

// rawWindow is the wire form of a query's window.
type rawWindow struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// LoadQueries reads a JSONL file of queries, one JSON object per line (blank
// lines are skipped). A relative workspace is resolved against the file's
// directory; "type" is accepted as an alias of "category"; "scored" defaults
// to true. Errors name the file and line.
func LoadQueries(path string) ([]Query, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load queries: %w", err)
	}
	dir := filepath.Dir(path)
	var out []Query
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), len(data)+1)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		q, err := parseQuery(line, dir)
		if err != nil {
			return nil, fmt.Errorf("load queries %s:%d: %w", path, n, err)
		}
		out = append(out, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("load queries %s: %w", path, err)
	}
	return out, nil
}

// parseQuery decodes one JSONL line; dir resolves a relative workspace.
func parseQuery(line []byte, dir string) (Query, error) {
	var r rawQuery
	if err := json.Unmarshal(line, &r); err != nil {
		return Query{}, fmt.Errorf("decode: %w", err)
	}
	if r.ID == "" {
		return Query{}, fmt.Errorf("missing id")
	}
	q := Query{
		ID:         r.ID,
		Workspace:  r.Workspace,
		Question:   r.Question,
		Answer:     answerText(r.Answer),
		Category:   r.Category,
		Abstention: r.Abstention,
		Scored:     r.Scored == nil || *r.Scored,
		GoldDays:   r.GoldDays,
	}
	if q.Category == "" {
		q.Category = r.Type
	}
	if q.Workspace != "" && !filepath.IsAbs(q.Workspace) {
		q.Workspace = filepath.Join(dir, filepath.FromSlash(q.Workspace))
	}
	if r.QuestionDate != "" {
		t, err := time.Parse(DateLayout, r.QuestionDate)
		if err != nil {
			return Query{}, fmt.Errorf("query %s: question_date: %w", r.ID, err)
		}
		q.Now = t
	}
	var err error
	if q.Gold, err = parseSources(r.Gold); err != nil {
		return Query{}, fmt.Errorf("query %s: gold: %w", r.ID, err)
	}
	if q.GoldSessions, err = parseSources(r.GoldSessions); err != nil {
		return Query{}, fmt.Errorf("query %s: gold_sessions: %w", r.ID, err)
	}
	if q.Superseded, err = parseSources(r.Superseded); err != nil {
		return Query{}, fmt.Errorf("query %s: superseded: %w", r.ID, err)
	}
	if r.Window != nil {
		w, err := parseWindow(*r.Window)
		if err != nil {
			return Query{}, fmt.Errorf("query %s: window: %w", r.ID, err)
		}
		q.Window = &w
	}
	if r.AsOf != "" {
		if r.AsOf != AsOfNow {
			if _, err := time.Parse(DayLayout, r.AsOf); err != nil {
				return Query{}, fmt.Errorf("query %s: asof %q: want %q or YYYY-MM-DD", r.ID, r.AsOf, AsOfNow)
			}
		}
		q.AsOf = r.AsOf
	}
	return q, nil
}

// parseWindow parses a window's days; start must not be after end.
func parseWindow(w rawWindow) (memory.TimeRange, error) {
	start, err := time.Parse(DayLayout, w.Start)
	if err != nil {
		return memory.TimeRange{}, fmt.Errorf("start: %w", err)
	}
	end, err := time.Parse(DayLayout, w.End)
	if err != nil {
		return memory.TimeRange{}, fmt.Errorf("end: %w", err)
	}
	if end.Before(start) {
		return memory.TimeRange{}, fmt.Errorf("end %s before start %s", w.End, w.Start)
	}
	return memory.TimeRange{Start: start, End: end}, nil
}

// answerText returns a JSON string's value, or the raw JSON text of any
// other value (some data sets store numeric answers).
func answerText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s
	}
	return strings.TrimSpace(string(raw))
}

// parseSources parses citations such as "memory/2023-05-27.md#L5-L7".
func parseSources(refs []string) ([]memory.Source, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	out := make([]memory.Source, 0, len(refs))
	for _, ref := range refs {
		s, err := memory.ParseSource(ref)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
