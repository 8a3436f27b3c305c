package recall

import (
	"memoria/memory"
)

// Result is one recalled item in the agent-facing shape of DESIGN §3.
type Result struct {
	ID         string      `json:"id"`
	Kind       memory.Kind `json:"kind"`
	Timestamp  string      `json:"timestamp,omitempty"`  // the day it was written (YYYY-MM-DD)
	EventTime  *EventTime  `json:"event_time,omitempty"` // when it happened, if the text says
	Entities   []string    `json:"entities"`
	Content    string      `json:"content"`
	Confidence *float64    `json:"confidence,omitempty"`
	Source     string      `json:"source"` // path#Lx or path#Lx-Ly, exactly the lines of Content
	Score      float64     `json:"score"`  // relative: 1 for the best result
	// SupersededBy are the later facts about the same entity and attribute
	// that replace this one; Supersedes the earlier ones it replaces.
	SupersededBy []Link   `json:"superseded_by,omitempty"`
	Supersedes   []Link   `json:"supersedes,omitempty"`
	Explain      *Explain `json:"explain,omitempty"`

	src memory.Source
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

// Explain says why a result ranks where it does (--explain).
type Explain struct {
	Channels map[string]int     `json:"channels"`         // channel → 1-based rank in it
	Boosts   map[string]float64 `json:"boosts,omitempty"` // named multiplicative boosts
	Fused    float64            `json:"fused"`            // score before normalising
}

// Cite is the result's citation as a Source.
func (r Result) Cite() memory.Source { return r.src }
