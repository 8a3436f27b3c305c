package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"memoria/memory"
)

// Citations is a list of sources that encodes to JSON as citation strings
// such as "memory/2023-05-27.md#L5-L7".
type Citations []memory.Source

// MarshalJSON encodes the citations as strings.
func (c Citations) MarshalJSON() ([]byte, error) {
	refs := make([]string, len(c))
	for i, s := range c {
		refs[i] = s.String()
	}
	return json.Marshal(refs)
}

// UnmarshalJSON decodes citation strings.
func (c *Citations) UnmarshalJSON(data []byte) error {
	var refs []string
	if err := json.Unmarshal(data, &refs); err != nil {
		return fmt.Errorf("citations: %w", err)
	}
	srcs, err := parseSources(refs)
	if err != nil {
		return fmt.Errorf("citations: %w", err)
	}
	*c = srcs
	return nil
}

// QueryResult is what one query returned and how it scored.
type QueryResult struct {
	ID         string `json:"id"`
	Category   string `json:"category"`
	Question   string `json:"question"`
	Scored     bool   `json:"scored"`
	Abstention bool   `json:"abstention,omitempty"`
	// Results are the citations recall returned, best first.
	Results Citations `json:"results"`
	// Gold are the query's gold ranges.
	Gold Citations `json:"gold"`
	// Superseded are the query's superseded ranges, if any.
	Superseded Citations `json:"superseded,omitempty"`
	Scores
	// Latency is how long the recall call took.
	Latency time.Duration `json:"latency_ns"`
	// Err is the recall error, if any (only with RunOptions.KeepGoing).
	Err string `json:"error,omitempty"`
}

// Aggregate are mean scores over a set of scored queries.
type Aggregate struct {
	// Category is the category, or "overall".
	Category string `json:"category"`
	// N is how many scored queries the means cover.
	N       int     `json:"n"`
	R5      float64 `json:"r5"`
	R10     float64 `json:"r10"`
	MRR     float64 `json:"mrr"`
	NDCG10  float64 `json:"ndcg10"`
	Lines10 float64 `json:"lines10"`
	// Latency is the mean recall latency.
	Latency time.Duration `json:"latency_ns"`
	// InWindowN is how many of the queries have a window, and InWindow
	// their mean in-window share of the top 10 (nil when there are none).
	InWindowN int      `json:"in_window_n,omitempty"`
	InWindow  *float64 `json:"in_window,omitempty"`
	// CurrentFirstN is how many of the queries have superseded lines, and
	// CurrentFirst the share of them where the valid fact ranks above the
	// superseded one (nil when there are none).
	CurrentFirstN int      `json:"current_first_n,omitempty"`
	CurrentFirst  *float64 `json:"current_first,omitempty"`
}

// Overall is the Category of the aggregate over all categories.
const Overall = "overall"

// Report is the outcome of Run.
type Report struct {
	Name    string `json:"name"`
	Workers int    `json:"workers"`
	// Queries are the per-query results, in input order.
	Queries []QueryResult `json:"queries"`
	// Categories are the per-category aggregates, sorted by category.
	Categories []Aggregate `json:"categories"`
	// Overall aggregates every scored query.
	Overall Aggregate `json:"overall"`
	// Unscored counts queries left out of the scores (scored=false).
	Unscored int `json:"unscored"`
	// Errors counts queries whose recall failed (with KeepGoing).
	Errors int `json:"errors"`
	// Elapsed is the wall time of the whole run.
	Elapsed time.Duration `json:"elapsed_ns"`
}

// Summarize aggregates the scored results per category (sorted by name)
// and overall. A query without a category is counted under "-".
func Summarize(results []QueryResult) (categories []Aggregate, overall Aggregate) {
	sums := map[string]*Aggregate{}
	total := &Aggregate{Category: Overall}
	for _, q := range results {
		if !q.Scored {
			continue
		}
		cat := q.Category
		if cat == "" {
			cat = "-"
		}
		a := sums[cat]
		if a == nil {
			a = &Aggregate{Category: cat}
			sums[cat] = a
		}
		a.add(q)
		total.add(q)
	}
	for _, a := range sums {
		categories = append(categories, a.mean())
	}
	sort.Slice(categories, func(i, j int) bool { return categories[i].Category < categories[j].Category })
	return categories, total.mean()
}

// add sums one query's scores into a.
func (a *Aggregate) add(q QueryResult) {
	a.N++
	if q.R5 {
		a.R5++
	}
	if q.R10 {
		a.R10++
	}
	a.MRR += q.RR
	a.NDCG10 += q.NDCG10
	a.Lines10 += float64(q.Lines10)
	a.Latency += q.Latency
	if q.InWindow != nil {
		a.InWindowN++
		a.InWindow = addTo(a.InWindow, *q.InWindow)
	}
	if q.CurrentFirst != nil {
		a.CurrentFirstN++
		v := 0.0
		if *q.CurrentFirst {
			v = 1
		}
		a.CurrentFirst = addTo(a.CurrentFirst, v)
	}
}

// addTo returns a new pointer to *sum + v (sum nil counts as 0).
func addTo(sum *float64, v float64) *float64 {
	if sum != nil {
		v += *sum
	}
	return &v
}

// meanOf returns a new pointer to *sum / n, or nil.
func meanOf(sum *float64, n int) *float64 {
	if sum == nil || n == 0 {
		return nil
	}
	v := *sum / float64(n)
	return &v
}

// mean turns sums into means.
func (a Aggregate) mean() Aggregate {
	if a.N == 0 {
		return a
	}
	n := float64(a.N)
	a.R5 /= n
	a.R10 /= n
	a.MRR /= n
	a.NDCG10 /= n
	a.Lines10 /= n
	a.Latency /= time.Duration(a.N)
	a.InWindow = meanOf(a.InWindow, a.InWindowN)
	a.CurrentFirst = meanOf(a.CurrentFirst, a.CurrentFirstN)
	return a
}

// Failures returns the scored queries with no hit in the top k, in order.
func (r *Report) Failures(k int) []QueryResult {
	var out []QueryResult
	for _, q := range r.Queries {
		if q.Scored && (q.FirstHit == 0 || q.FirstHit > k) {
			out = append(out, q)
		}
	}
	return out
}

// rows are the per-category aggregates followed by the overall one.
func (r *Report) rows() []Aggregate {
	return append(append([]Aggregate(nil), r.Categories...), r.Overall)
}

// Column names of the optional metrics.
const (
	// InWindowColumn heads the mean in-window share of the top 10.
	InWindowColumn = "InWin@10"
	// CurrentFirstColumn heads the share of update queries whose valid
	// fact ranks above the superseded one.
	CurrentFirstColumn = "CurFirst"
)

// optional are the optional metrics, in column order.
var optional = []struct {
	name string
	get  func(Aggregate) *float64
}{
	{InWindowColumn, func(a Aggregate) *float64 { return a.InWindow }},
	{CurrentFirstColumn, func(a Aggregate) *float64 { return a.CurrentFirst }},
}

// optionalShown returns the optional metrics that some row of rows has.
func optionalShown(rows ...[]Aggregate) []int {
	var out []int
	for i, m := range optional {
	search:
		for _, rs := range rows {
			for _, a := range rs {
				if m.get(a) != nil {
					out = append(out, i)
					break search
				}
			}
		}
	}
	return out
}

// WriteTable writes the aggregates as an aligned text table: one row per
// category, then overall. When some queries have a window or superseded
// lines, the columns InWin@10 (mean in-window share) and CurFirst (share of
// update queries ranking the valid fact first) follow, with "-" in rows
// that have no such queries.
func (r *Report) WriteTable(w io.Writer) error {
	rows := r.rows()
	width := len("category")
	for _, a := range rows {
		width = max(width, len(a.Category))
	}
	extra := optionalShown(rows)
	var b strings.Builder
	if r.Name != "" {
		fmt.Fprintf(&b, "%s\n", r.Name)
	}
	fmt.Fprintf(&b, "%-*s %4s %6s %6s %6s %8s %9s", width, "category", "n", "R@5", "R@10", "MRR", "NDCG@10", "Lines@10")
	for _, i := range extra {
		fmt.Fprintf(&b, " %9s", optional[i].name)
	}
	b.WriteString("\n")
	for _, a := range rows {
		fmt.Fprintf(&b, "%-*s %4d %6.3f %6.3f %6.3f %8.3f %9.1f", width, a.Category, a.N, a.R5, a.R10, a.MRR, a.NDCG10, a.Lines10)
		for _, i := range extra {
			if v := optional[i].get(a); v != nil {
				fmt.Fprintf(&b, " %9.3f", *v)
			} else {
				fmt.Fprintf(&b, " %9s", "-")
			}
		}
		b.WriteString("\n")
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	return nil
}

// Table returns WriteTable's output as a string.
func (r *Report) Table() string {
	var b strings.Builder
	_ = r.WriteTable(&b) // a strings.Builder does not fail
	return b.String()
}

// WriteJSON writes the report, per-query results included, as indented
// JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write report json: %w", err)
	}
	return nil
}

// WriteComparison writes two reports side by side: per category and
// overall, each metric of a, of b, and the delta a−b (positive: a is higher). Categories present in
// only one report show zeros for the other; n shows "na/nb" if they differ.
// The optional metrics of WriteTable follow when either report has them,
// "-" where a row has none.
func WriteComparison(w io.Writer, a, b *Report) error {
	byCat := func(r *Report) map[string]Aggregate {
		m := map[string]Aggregate{}
		for _, x := range r.rows() {
			m[x.Category] = x
		}
		return m
	}
	am, bm := byCat(a), byCat(b)
	var cats []string
	for c := range am {
		if c != Overall {
			cats = append(cats, c)
		}
	}
	for c := range bm {
		if _, ok := am[c]; !ok && c != Overall {
			cats = append(cats, c)
		}
	}
	sort.Strings(cats)
	cats = append(cats, Overall)

	width := len("category")
	for _, c := range cats {
		width = max(width, len(c))
	}
	nameA, nameB := orDefault(a.Name, "a"), orDefault(b.Name, "b")
	always := func(get func(Aggregate) float64) func(Aggregate) *float64 {
		return func(x Aggregate) *float64 { v := get(x); return &v }
	}
	metrics := []struct {
		name   string
		format string
		get    func(Aggregate) *float64
	}{
		{"R@5", "%.3f", always(func(x Aggregate) float64 { return x.R5 })},
		{"R@10", "%.3f", always(func(x Aggregate) float64 { return x.R10 })},
		{"MRR", "%.3f", always(func(x Aggregate) float64 { return x.MRR })},
		{"NDCG@10", "%.3f", always(func(x Aggregate) float64 { return x.NDCG10 })},
		{"Lines@10", "%.1f", always(func(x Aggregate) float64 { return x.Lines10 })},
	}
	for _, i := range optionalShown(a.rows(), b.rows()) {
		metrics = append(metrics, struct {
			name   string
			format string
			get    func(Aggregate) *float64
		}{optional[i].name, "%.3f", optional[i].get})
	}
	const col = 7
	var out strings.Builder
	fmt.Fprintf(&out, "A = %s, B = %s, Δ = A − B\n", nameA, nameB)
	var head strings.Builder
	fmt.Fprintf(&head, "%-*s %7s", width, "", "")
	for _, m := range metrics {
		fmt.Fprintf(&head, " | %-*s", 3*col+2, m.name)
	}
	out.WriteString(strings.TrimRight(head.String(), " ") + "\n")
	fmt.Fprintf(&out, "%-*s %7s", width, "category", "n")
	for range metrics {
		fmt.Fprintf(&out, " | %*s %*s %*s", col, "A", col, "B", col, "Δ")
	}
	out.WriteString("\n")
	for _, c := range cats {
		x, y := am[c], bm[c]
		n := fmt.Sprint(x.N)
		if x.N != y.N {
			n = fmt.Sprintf("%d/%d", x.N, y.N)
		}
		fmt.Fprintf(&out, "%-*s %7s", width, c, n)
		for _, m := range metrics {
			va, vb := m.get(x), m.get(y)
			sa, sb, sd := "-", "-", "-"
			if va != nil {
				sa = fmt.Sprintf(m.format, *va)
			}
			if vb != nil {
				sb = fmt.Sprintf(m.format, *vb)
			}
			if va != nil && vb != nil {
				sd = fmt.Sprintf("%+"+m.format[1:], *va-*vb)
			}
			fmt.Fprintf(&out, " | %*s %*s %*s", col, sa, col, sb, col, sd)
		}
		out.WriteString("\n")
	}
	if _, err := io.WriteString(w, out.String()); err != nil {
		return fmt.Errorf("write comparison: %w", err)
	}
	return nil
}

// Comparison returns WriteComparison's output as a string.
func Comparison(a, b *Report) string {
	var s strings.Builder
	_ = WriteComparison(&s, a, b) // a strings.Builder does not fail
	return s.String()
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
