package reflect

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"memoria/markdown"
	"memoria/memory"
)

// OpinionsPath is the workspace-relative path of the belief store.
const OpinionsPath = "bank/opinions.md"

// The sub-bullet keys of an opinion in bank/opinions.md.
const (
	KeyLastUpdated = "last_updated"
	KeySupports    = "supports"
	KeyContradicts = "contradicts"
	KeySuperseded  = "superseded"
)

// OpinionsFile is bank/opinions.md as reflect reads it: a sequence of
// opinions (a top-level "- O(c=…) @Entity: statement" bullet and its
// indented sub-bullets) and the raw lines between them. Every line is kept
// as read, so that Bytes of an unchanged file returns exactly its input
// and hand edits (comments, reordered or unknown sub-bullets, prose
// between opinions) survive any change reflect makes elsewhere.
type OpinionsFile struct {
	eol    string  // line ending of new lines: "\n" or "\r\n"
	final  bool    // the input ended with a line ending (or was empty)
	blocks []block // in file order
}

type block struct {
	raw []string // raw lines outside any opinion (no line endings)
	op  *Opinion
}

// Opinion is one belief of bank/opinions.md.
type Opinion struct {
	Line          int      // 1-based line of the bullet in the file it was read from (0: new)
	Statement     string   // the statement, continuation lines joined by "\n"
	Entities      []string // entity slugs as written
	Confidence    float64  // meaningful only when HasConfidence
	HasConfidence bool
	Items         []Item // the sub-bullets, in file order

	head []string // raw lines of the bullet and its continuation; nil when re-rendered
}

// Item is one sub-bullet of an opinion: "  - key: value", with its
// indented continuation lines.
type Item struct {
	Key      string    // "last_updated", "supports", "contradicts", "superseded", or another word a person used; "" for a line that is not "- key: value"
	Value    string    // the text after "key:", continuation lines joined by "\n"
	Evidence *Evidence // for supports and contradicts
	raw      []string  // the lines as read; nil for an item reflect wrote or changed
}

// Evidence is one supporting or contradicting citation:
//
//	f_441b24b9fd72 memory/2025-11-27.md#L97 (strong; c 0.8->0.71)
//
// The fact ID, the source and the parenthesised note are each optional,
// so that hand-written "memory/2025-10-09.md#L31" lines read as evidence
// too. The note records what the evidence did to the confidence; "strong"
// in it marks a strong contradiction, which the update rule counts.
type Evidence struct {
	FactID string
	Source memory.Source // zero when not given
	Note   string        // without the parentheses
}

// Strong reports whether the evidence was a strong contradiction.
func (e Evidence) Strong() bool { return strings.Contains(e.Note, "strong") }

// String formats the evidence as written after "supports:".
func (e Evidence) String() string {
	var parts []string
	if e.FactID != "" {
		parts = append(parts, e.FactID)
	}
	if e.Source.Path != "" {
		parts = append(parts, e.Source.String())
	}
	if e.Note != "" {
		parts = append(parts, "("+e.Note+")")
	}
	return strings.Join(parts, " ")
}

var factIDRe = lazyRegexp(`^f_[0-9a-f]{12}$`)

// ParseEvidence reads an evidence value; it reports false when the value
// holds neither a fact ID nor a source.
func ParseEvidence(v string) (Evidence, bool) {
	var e Evidence
	v = strings.TrimSpace(v)
	if i := strings.IndexByte(v, '('); i >= 0 && strings.HasSuffix(v, ")") {
		e.Note = strings.TrimSpace(v[i+1 : len(v)-1])
		v = strings.TrimSpace(v[:i])
	}
	for _, f := range strings.Fields(v) {
		switch {
		case e.FactID == "" && factIDRe().MatchString(f):
			e.FactID = f
		case e.Source.Path == "" && strings.Contains(f, ".md"):
			if s, err := memory.ParseSource(strings.TrimRight(f, ",;")); err == nil {
				e.Source = s
			}
		}
	}
	return e, e.FactID != "" || e.Source.Path != ""
}

// Evidence returns the opinion's supporting or contradicting evidence in
// file order, with whether each supports.
func (o *Opinion) Evidence() (ev []Evidence, supports []bool) {
	for _, it := range o.Items {
		if it.Evidence != nil {
			ev = append(ev, *it.Evidence)
			supports = append(supports, it.Key == KeySupports)
		}
	}
	return ev, supports
}

// confidence is the opinion's confidence, DefaultConfidence when it states
// none.
func (o *Opinion) confidence() float64 {
	if !o.HasConfidence {
		return DefaultConfidence
	}
	return o.Confidence
}

// LastUpdated returns the value of the last_updated sub-bullet, or "".
func (o *Opinion) LastUpdated() string {
	for _, it := range o.Items {
		if it.Key == KeyLastUpdated {
			return strings.TrimSpace(it.Value)
		}
	}
	return ""
}

// ParseOpinions reads bank/opinions.md. It fails only for binary content.
func ParseOpinions(data []byte) (*OpinionsFile, error) {
	doc, err := markdown.Parse(OpinionsPath, data)
	if err != nil {
		return nil, fmt.Errorf("reflect: %w", err)
	}
	heads := map[int]memory.Fact{}
	for _, f := range doc.Facts {
		if f.Kind == memory.KindOpinion {
			heads[f.Source.Start] = f
		}
	}
	f := &OpinionsFile{eol: "\n", final: len(data) == 0 || data[len(data)-1] == '\n'}
	s := string(data)
	if strings.Contains(s, "\r\n") {
		f.eol = "\r\n"
	}
	lines := strings.Split(s, "\n")
	if f.final {
		lines = lines[:len(lines)-1]
	}
	var raw []string
	flushRaw := func() {
		if raw != nil {
			f.blocks = append(f.blocks, block{raw: raw})
			raw = nil
		}
	}
	for i := 0; i < len(lines); {
		fact, ok := heads[i+1]
		if !ok {
			raw = append(raw, lines[i])
			i++
			continue
		}
		flushRaw()
		end := max(fact.Source.End, fact.Source.Start)
		op := &Opinion{Line: i + 1, Statement: fact.Text, Entities: fact.Entities,
			Confidence: fact.Confidence, HasConfidence: fact.HasConfidence,
			head: append([]string(nil), lines[i:end]...)}
		i = end
		// Sub-bullets: the indented lines that follow, up to a blank or
		// unindented line.
		for i < len(lines) && isIndented(lines[i]) {
			start := i
			ind := indent(lines[i])
			i++
			for i < len(lines) && isIndented(lines[i]) && indent(lines[i]) > ind {
				i++
			}
			op.Items = append(op.Items, parseItem(lines[start:i]))
		}
		f.blocks = append(f.blocks, block{op: op})
	}
	flushRaw()
	return f, nil
}

func isIndented(l string) bool {
	t := strings.TrimRight(l, " \t\r")
	return t != "" && (l[0] == ' ' || l[0] == '\t')
}

func indent(l string) int {
	n := 0
	for _, r := range l {
		switch r {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

var itemRe = lazyRegexp(`^[ \t]+[-*+][ \t]+([A-Za-z_][A-Za-z0-9_ -]*?)[ \t]*:[ \t]*(.*)$`)

func parseItem(lines []string) Item {
	it := Item{raw: append([]string(nil), lines...)}
	m := itemRe().FindStringSubmatch(strings.TrimRight(lines[0], " \t\r"))
	if m == nil {
		return it
	}
	it.Key = strings.ToLower(strings.TrimSpace(m[1]))
	vals := []string{strings.TrimSpace(m[2])}
	for _, l := range lines[1:] {
		vals = append(vals, strings.TrimSpace(l))
	}
	it.Value = strings.Join(vals, "\n")
	if it.Key == KeySupports || it.Key == KeyContradicts {
		if e, ok := ParseEvidence(strings.Join(vals, " ")); ok {
			it.Evidence = &e
		}
	}
	return it
}

// Opinions returns the opinions in file order.
func (f *OpinionsFile) Opinions() []*Opinion {
	var ops []*Opinion
	for _, b := range f.blocks {
		if b.op != nil {
			ops = append(ops, b.op)
		}
	}
	return ops
}

// opinionsHeader starts a bank/opinions.md that reflect creates.
var opinionsHeader = []string{
	"# Opinions",
	"",
	"Beliefs with confidence and the evidence behind them, kept by `memoria reflect` (see",
	"docs/reflect.md). One top-level bullet per opinion; the indented sub-bullets are the",
	"bookkeeping. Hand edits welcome.",
}

// Add appends a new opinion at the end of the file, after a blank line;
// an empty file gets a short header first.
func (f *OpinionsFile) Add(o *Opinion) {
	if len(f.blocks) == 0 {
		f.blocks = append(f.blocks, block{raw: append([]string(nil), opinionsHeader...)})
	}
	if n := len(f.blocks); n > 0 {
		if b := f.blocks[n-1]; b.raw == nil || strings.TrimSpace(b.raw[len(b.raw)-1]) != "" {
			f.blocks = append(f.blocks, block{raw: []string{""}})
		}
	}
	f.blocks = append(f.blocks, block{op: o})
	f.final = true
}

// Bytes renders the file: unchanged lines exactly as read, changed
// opinions with their edits.
func (f *OpinionsFile) Bytes() []byte {
	var lines []string
	for _, bl := range f.blocks {
		if bl.op == nil {
			lines = append(lines, bl.raw...)
		} else {
			lines = append(lines, bl.op.lines(f.eol)...)
		}
	}
	s := strings.Join(lines, "\n") // a CRLF line keeps its "\r"
	if f.final && len(lines) > 0 {
		s += "\n"
	}
	return []byte(s)
}

// lines renders an opinion; eol is only used to end new lines consistently
// ("\r" is added for CRLF files, since lines are joined with "\n").
func (o *Opinion) lines(eol string) []string {
	cr := ""
	if eol == "\r\n" {
		cr = "\r"
	}
	var out []string
	if o.head != nil {
		out = append(out, o.head...)
	} else {
		out = append(out, renderHead(o, cr)...)
	}
	for _, it := range o.Items {
		if it.raw != nil {
			out = append(out, it.raw...)
			continue
		}
		vals := strings.Split(it.Value, "\n")
		out = append(out, "  - "+it.Key+": "+vals[0]+cr)
		for _, v := range vals[1:] {
			out = append(out, "    "+v+cr)
		}
	}
	return out
}

// FormatConfidence writes a confidence with at most two decimals, as in
// the example file ("0.95", "0.7").
func FormatConfidence(c float64) string {
	return strconv.FormatFloat(round2(c), 'f', -1, 64)
}

func round2(c float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(c, 'f', 2, 64), 64)
	return v
}

// Head is the opinion's bullet as reflect writes it:
// "O(c=0.8) @Peter @warelay: statement".
func (o *Opinion) Head() string {
	c := ""
	if o.HasConfidence {
		c = "(c=" + FormatConfidence(o.Confidence) + ")"
	}
	return "O" + c + mentions(o.Entities) + ": " + o.Statement
}

func renderHead(o *Opinion, cr string) []string {
	ls := strings.Split(o.Head(), "\n")
	out := []string{"- " + ls[0] + cr}
	for _, l := range ls[1:] {
		out = append(out, "  "+l+cr)
	}
	return out
}

var confRe = lazyRegexp(`^([ \t]*[-*+][ \t]+O)([ \t]*\([ \t]*c[ \t]*=[^)]*\))?`)

// lazyRegexp returns expr compiled on first call: most commands never read
// an opinion, and compiling at start-up would cost every one of them.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// setConfidence changes the opinion's confidence, editing only the
// "(c=…)" of its first line when the head is kept as read.
func (o *Opinion) setConfidence(c float64) {
	o.Confidence, o.HasConfidence = round2(c), true
	if o.head == nil {
		return
	}
	l := o.head[0]
	m := confRe().FindStringSubmatchIndex(l)
	if m == nil {
		o.head = nil
		return
	}
	o.head[0] = l[:m[3]] + "(c=" + FormatConfidence(o.Confidence) + ")" + l[m[1]:]
}

// setItem sets the value of the first sub-bullet with key, or adds one
// after the existing ones of that key (at the front for last_updated).
func (o *Opinion) setItem(key, value string) {
	for i := range o.Items {
		if o.Items[i].Key == key {
			if o.Items[i].Value == value {
				return
			}
			o.Items[i] = Item{Key: key, Value: value}
			return
		}
	}
	o.Items = append([]Item{{Key: key, Value: value}}, o.Items...)
}

// addEvidence appends an evidence sub-bullet after the last evidence one
// (or at the end).
func (o *Opinion) addEvidence(supports bool, e Evidence) {
	key := KeyContradicts
	if supports {
		key = KeySupports
	}
	it := Item{Key: key, Value: e.String(), Evidence: &e}
	at := len(o.Items)
	for i := len(o.Items) - 1; i >= 0; i-- {
		if o.Items[i].Evidence != nil {
			at = i + 1
			break
		}
	}
	o.Items = append(o.Items[:at], append([]Item{it}, o.Items[at:]...)...)
}
