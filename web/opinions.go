package web

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"memoria"
	"memoria/memory"
	"memoria/reflect"
)

// maxOpinions bounds the opinions one request returns.
const maxOpinions = 300

// step is one piece of evidence of an opinion and what it did to the
// confidence, as reflect recorded it in the evidence's note.
type step struct {
	Supports bool     `json:"supports"`
	Source   string   `json:"source,omitempty"` // the evidence's lines
	FactID   string   `json:"fact_id,omitempty"`
	Day      string   `json:"day,omitempty"` // the day of the log it is in
	Note     string   `json:"note,omitempty"`
	Before   *float64 `json:"before,omitempty"` // confidence before it, when recorded
	After    *float64 `json:"after,omitempty"`  // and after it
	FlipTo   *float64 `json:"flip_to,omitempty"`
	Strong   bool     `json:"strong,omitempty"`
	New      bool     `json:"new,omitempty"` // the fact that started the opinion
}

// former is a statement an opinion used to hold.
type former struct {
	Text    string   `json:"text"`
	Until   string   `json:"until,omitempty"`
	Sources []string `json:"sources"`
}

// opinionOut is one opinion of bank/opinions.md with its history.
type opinionOut struct {
	Source      string   `json:"source"` // bank/opinions.md#Lx-Ly: the bullet and its sub-bullets
	Statement   string   `json:"statement"`
	Entities    []string `json:"entities"`
	Confidence  *float64 `json:"confidence,omitempty"`
	LastUpdated string   `json:"last_updated,omitempty"`
	Steps       []step   `json:"steps"`
	Superseded  []former `json:"superseded"`
}

var (
	dayRE  = regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)
	citeRE = regexp.MustCompile(`[A-Za-z0-9_./-]+\.md#L\d+(?:-L?\d+)?`)
)

// opinions reads bank/opinions.md (through Workspace.Get, the read path of
// citations) as reflect keeps it: each opinion, its confidence, and each
// piece of evidence with the day of its log and the change of confidence
// reflect wrote next to it. Hand-written evidence has no recorded change.
func (h *handler) opinions(_ context.Context, ws *memoria.Workspace, _ *http.Request) (any, error) {
	out := map[string]any{"file": reflect.OpinionsPath, "total": 0, "opinions": []opinionOut{}}
	file, err := ws.Get(reflect.OpinionsPath)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	of, err := reflect.ParseOpinions([]byte(file.Text))
	if err != nil {
		return nil, err
	}
	lines := strings.Split(file.Text, "\n")
	ops := of.Opinions()
	list := make([]opinionOut, 0, min(len(ops), maxOpinions))
	for _, op := range ops[:min(len(ops), maxOpinions)] {
		end := op.Line
		for end < len(lines) && strings.TrimSpace(lines[end]) != "" && (lines[end][0] == ' ' || lines[end][0] == '\t') {
			end++
		}
		o := opinionOut{
			Source:    memory.Source{Path: reflect.OpinionsPath, Start: op.Line, End: end}.String(),
			Statement: op.Statement, Entities: op.Entities, LastUpdated: op.LastUpdated(),
			Steps: []step{}, Superseded: []former{},
		}
		if o.Entities == nil {
			o.Entities = []string{}
		}
		if op.HasConfidence {
			c := op.Confidence
			o.Confidence = &c
		}
		for _, it := range op.Items {
			switch {
			case it.Evidence != nil:
				o.Steps = append(o.Steps, stepOf(it.Key == reflect.KeySupports, *it.Evidence))
			case it.Key == reflect.KeySuperseded:
				f := former{Text: it.Value, Sources: citeRE.FindAllString(it.Value, -1)}
				if f.Sources == nil {
					f.Sources = []string{}
				}
				if i := strings.LastIndexByte(it.Value, '('); i > 0 {
					f.Text = strings.TrimSpace(it.Value[:i])
					f.Until = dayRE.FindString(it.Value[i:])
				}
				o.Superseded = append(o.Superseded, f)
			}
		}
		// Evidence in the order it happened (reflect appends it in
		// written order; a person may not have).
		slices.SortStableFunc(o.Steps, func(a, b step) int { return strings.Compare(a.Day, b.Day) })
		list = append(list, o)
	}
	out["total"], out["opinions"] = len(ops), list
	return out, nil
}

func stepOf(supports bool, e reflect.Evidence) step {
	s := step{Supports: supports, FactID: e.FactID, Note: e.Note, Strong: e.Strong()}
	if e.Source.Path != "" {
		s.Source = e.Source.String()
		if _, day, ok := memory.ClassifyPath(e.Source.Path); ok && !day.IsZero() {
			s.Day = day.Format("2006-01-02")
		}
	}
	c := reflect.ParseNote(e.Note)
	if c.HasChange {
		s.Before, s.After = &c.Before, &c.After
	}
	if c.HasNew {
		if c.Flipped {
			s.FlipTo = &c.New
		} else {
			s.New, s.After = true, &c.New
		}
	}
	return s
}
