package memoria

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"memoria/forget"
	"memoria/ingest"
	"memoria/markdown"
	"memoria/memory"
	"memoria/query"
	"memoria/reflect"
	"memoria/safewrite"
	"memoria/workspace"
)

// forgetSource checks a citation given to Forget: a line range (a whole
// file is not forgotten by its name alone), of a memory file of the
// workspace, every line of which exists. It returns the citation of the
// file's real path (a symlink inside the workspace resolved).
func (w *Workspace) forgetSource(ref string) (memory.Source, error) {
	src, err := memory.ParseSource(ref)
	if err != nil {
		return src, invalidError{fmt.Errorf("%w: %w", workspace.ErrBadSource, err)}
	}
	if src.Start == 0 {
		return src, invalidError{fmt.Errorf("%s: give the lines to forget (%s#L3 or %s#L3-L4); a whole file is not forgotten by its name", ref, src.Path, src.Path)}
	}
	l, err := workspace.ReadLines(w.dir, ref)
	switch {
	case errors.Is(err, workspace.ErrBadSource) || errors.Is(err, workspace.ErrNotMemoryFile):
		return src, invalidError{fmt.Errorf("forget %s: %w", ref, err)}
	case err != nil:
		return src, fmt.Errorf("forget %s: %w", ref, err)
	case l.Clipped:
		return src, fmt.Errorf("forget %s: %w: the file has %d lines", ref, workspace.ErrNoLines, l.FileLines)
	}
	rel, err := w.realRel(src.Path)
	if err != nil {
		return src, invalidError{fmt.Errorf("forget %s: %w", ref, err)}
	}
	src.Path = rel
	return src, nil
}

// realRel is the workspace-relative path of the file rel really is (a
// symlink inside the workspace resolved), which must be a memory file.
func (w *Workspace) realRel(rel string) (string, error) {
	p, err := workspace.Path(w.dir, rel)
	if err != nil {
		return "", err
	}
	root, err := filepath.EvalSymlinks(w.dir)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	r, err := filepath.Rel(root, real)
	if err != nil || !workspace.Within(root, real) {
		return "", fmt.Errorf("%s: %w", rel, workspace.ErrNotMemoryFile)
	}
	r = filepath.ToSlash(r)
	if _, _, ok := memory.ClassifyPath(r); !ok {
		return "", fmt.Errorf("%s: %w", rel, workspace.ErrNotMemoryFile)
	}
	return r, nil
}

// forgetFile is one file Forget reads, as it was under the lock.
type forgetFile struct {
	rel     string
	data    []byte
	lines   []string // as the parser reads them (markdown.Lines)
	review  bool     // a review queue, not a memory file
	managed []bool   // lines inside reflect's managed block
	edited  []bool   // lines inside a block reflect kept as a hand edit
}

// generated reports whether line i (0-based) is text Memoria made from
// other memory, which goes without a tombstone when it copies forgotten
// text: a review queue's, a managed block's or one reflect kept when it
// had been edited (which is indexed), a bookkeeping sub-item.
func (f *forgetFile) generated(i int) bool {
	return f.review || f.managed[i] || f.edited[i] || forget.IsBookkeeping(f.lines[i])
}

// picked is why a line goes.
type picked struct {
	why   string
	trace bool // leave a tombstone where it was
}

// forgetSelection is the lines Forget removes, by file.
type forgetSelection struct {
	files   map[string]*forgetFile
	order   []string          // the files, in the workspace's order
	alias   map[string]string // a listed path → the file it really is
	picked  map[string]map[int]picked
	gone    forget.Set // the record as it was
	passage int        // the index's passage lines
	names   *query.NameTable
}

// selectForget reads every memory file and review queue under the lock
// and picks the lines picks name.
func (w *Workspace) selectForget(ctx context.Context, k *safewrite.Locked, p forgetPicks) (*forgetSelection, error) {
	sel, err := w.readForget(k)
	if err != nil {
		return nil, err
	}
	for _, s := range p.sources {
		f := sel.files[s.Path]
		if f == nil || s.End > len(f.lines) {
			return nil, fmt.Errorf("forget %s: %w (the file changed meanwhile)", s, workspace.ErrNoLines)
		}
		sel.addRange(s.Path, s.Start, s.End, "cited", false)
	}
	for i, srcs := range p.results {
		for _, s := range srcs {
			rel := sel.real(s.Path)
			if f := sel.files[rel]; f != nil && s.End <= len(f.lines) {
				sel.addRange(rel, s.Start, s.End, fmt.Sprintf("recall result %d", i+1), true)
			}
		}
	}
	if len(p.slugs) > 0 {
		if sel.names, err = w.names(ctx); err != nil {
			return nil, err
		}
		for _, slug := range p.slugs {
			for _, rel := range sel.order {
				if f := sel.files[rel]; !f.review {
					sel.entity(f, slug)
				}
			}
		}
	}
	return sel, nil
}

// readForget reads the workspace's memory files (each once: a symlink to
// another is read as that one) and its review queues.
func (w *Workspace) readForget(k *safewrite.Locked) (*forgetSelection, error) {
	gone, err := forget.Load(w.dir)
	if err != nil {
		return nil, err
	}
	sel := &forgetSelection{files: map[string]*forgetFile{}, alias: map[string]string{}, picked: map[string]map[int]picked{},
		gone: gone, passage: ingest.Options{PassageLines: w.opts.PassageLines}.Passage()}
	listed, _, err := workspace.List(w.dir)
	if err != nil {
		return nil, err
	}
	for _, f := range listed {
		rel := f.Rel
		if f.Symlink {
			if rel, err = w.realRel(f.Rel); err != nil {
				continue // not read by the index either
			}
			sel.alias[f.Rel] = rel
		}
		if err := sel.read(k, rel, false); err != nil {
			return nil, err
		}
	}
	for _, rel := range reviewQueues {
		if err := sel.read(k, rel, true); err != nil {
			return nil, err
		}
	}
	return sel, nil
}

// read reads one file into the selection, once.
func (s *forgetSelection) read(k *safewrite.Locked, rel string, review bool) error {
	if _, ok := s.files[rel]; ok {
		return nil
	}
	data, exists, err := k.ReadFile(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist) || err == nil && !exists:
		return nil
	case errors.Is(err, workspace.ErrTooLarge) || err == nil && markdown.IsBinary(data):
		return nil // not indexed either
	case err != nil:
		return err
	}
	lines := markdown.Lines(data)
	if len(lines) != len(forget.RawLines(data)) {
		return fmt.Errorf("%s: its lines cannot be told apart safely (mixed line endings); forget edits nothing", rel)
	}
	s.files[rel] = &forgetFile{rel: rel, data: data, lines: lines, review: review,
		managed: forget.ManagedBlocks(lines), edited: forget.Blocks(lines, reflect.EditedBegin, reflect.EditedEnd)}
	s.order = append(s.order, rel)
	return nil
}

// real is the file a listed or cited path really is.
func (s *forgetSelection) real(rel string) string {
	rel = path.Clean(rel)
	if r, ok := s.alias[rel]; ok {
		return r
	}
	return rel
}

func (s *forgetSelection) empty() bool { return len(s.picked) == 0 }

// add picks line n (1-based) of rel, unless it is picked already.
func (s *forgetSelection) add(rel string, n int, why string) {
	f := s.files[rel]
	if f == nil || n < 1 || n > len(f.lines) {
		return
	}
	m := s.picked[rel]
	if m == nil {
		m = map[int]picked{}
		s.picked[rel] = m
	}
	if _, ok := m[n]; !ok {
		m[n] = picked{why: why, trace: !f.generated(n - 1)}
	}
}

// addRange picks lines start to end of rel; with items, a list item among
// them takes its sub-items along (forget.Extent), so that no evidence of
// a removed fact is left hanging under the fact before it.
func (s *forgetSelection) addRange(rel string, start, end int, why string, items bool) {
	f := s.files[rel]
	if f == nil {
		return
	}
	for n := start; n <= end && n <= len(f.lines); n++ {
		s.add(rel, n, why)
		if !items {
			continue
		}
		for m := n + 1; m <= forget.Extent(f.lines, n-1)+1; m++ {
			s.add(rel, m, fmt.Sprintf("part of the item at line %d", n))
		}
	}
}

// entity picks the lines of f that name the entity slug: the items the
// parser links to it (its @mentions, its page's lines), and the lines in
// which recall would find its name, each with the rest of its item.
func (s *forgetSelection) entity(f *forgetFile, slug string) {
	why := "names " + slug
	key := memory.EntityKey(slug)
	doc, err := markdown.ParseWith(f.rel, forget.Mask(f.data, s.gone), markdown.Options{MaxPassageLines: s.passage})
	var items []memory.Source
	if err == nil {
		for _, fc := range doc.Facts {
			items = s.entityItem(f.rel, fc.Source, fc.Entities, key, why, items)
		}
		for _, p := range doc.Passages {
			items = s.entityItem(f.rel, p.Source, p.Entities, key, why, items)
		}
	}
	mention := "@" + strings.ToLower(slug)
	for i, line := range f.lines {
		if strings.TrimSpace(line) == "" || forget.IsTombstone(line) || strings.HasPrefix(strings.TrimSpace(line), "<!-- memoria:") {
			continue
		}
		if !strings.Contains(strings.ToLower(line), mention) && !namesEntity(s.names, line, key) {
			continue
		}
		n := i + 1
		start, end := n, n
		for _, it := range items {
			if it.Start <= n && n <= it.End {
				start, end = it.Start, it.End
			}
		}
		s.addRange(f.rel, start, end, why, true)
	}
}

// entityItem picks an item linked to the entity key, and returns items
// with its source added (every item, to find a line's item by).
func (s *forgetSelection) entityItem(rel string, src memory.Source, entities []string, key, why string, items []memory.Source) []memory.Source {
	if slices.ContainsFunc(entities, func(e string) bool { return memory.EntityKey(e) == key }) {
		s.addRange(rel, src.Start, src.End, why, true)
	}
	return append(items, src)
}

// namesEntity reports whether recall finds the entity key's name in line.
func namesEntity(t *query.NameTable, line, key string) bool {
	for _, m := range t.MatchEntities(line) {
		if memory.EntityKey(m.Slug) == key {
			return true
		}
	}
	return false
}

// copies picks the other places the picked lines' text is written: in
// memory files, a line of the same text (forget.Key) with its item; in
// text Memoria generated (reflect's blocks, bookkeeping, review queues), a
// line that cites a picked line or holds its text.
func (s *forgetSelection) copies() {
	keys := map[string]string{}
	type said struct{ text, at string }
	var texts []said
	for _, rel := range s.order {
		for _, n := range sortedLines(s.picked[rel]) {
			line := s.files[rel].lines[n-1]
			if k, ok := forget.Key(line); ok {
				at := memory.Source{Path: rel, Start: n}.String()
				if _, seen := keys[k]; !seen {
					keys[k] = at
					c, _ := forget.Content(line)
					texts = append(texts, said{c, at})
				}
			}
		}
	}
	s.factCopies()
	for _, rel := range s.order {
		f := s.files[rel]
		for i, line := range f.lines {
			if _, ok := s.picked[rel][i+1]; ok || strings.TrimSpace(line) == "" {
				continue
			}
			if !f.generated(i) {
				if k, ok := forget.Key(line); ok && keys[k] != "" {
					s.addRange(rel, i+1, i+1, "copy of "+keys[k], true)
				}
				continue
			}
			if c := s.citesPicked(line); c != "" {
				s.add(rel, i+1, "cites "+c)
				continue
			}
			folded := forget.Fold(line)
			for _, t := range texts {
				if strings.Contains(folded, t.text) {
					s.add(rel, i+1, "copy of "+t.at)
					break
				}
			}
		}
	}
}

// factCopies picks the typed facts that say what a fact every line of
// which is picked says, wrapped otherwise (a fact's text is its lines
// joined; white space and case are folded), with their items: a copy in
// bank/ of a log's fact of two lines is no line-for-line copy.
func (s *forgetSelection) factCopies() {
	docs := map[string]*memory.Document{}
	parse := func(f *forgetFile) *memory.Document {
		if d, ok := docs[f.rel]; ok {
			return d
		}
		d, _ := markdown.ParseWith(f.rel, forget.Mask(f.data, s.gone), markdown.Options{MaxPassageLines: s.passage})
		docs[f.rel] = d
		return d
	}
	said := map[string]string{}
	for _, rel := range s.order {
		if f := s.files[rel]; !f.review && len(s.picked[rel]) > 0 {
			for _, fc := range factsOf(parse(f)) {
				if s.allPicked(fc.Source) && fc.Source.End > fc.Source.Start {
					said[forget.Fold(fc.Text)] = fc.Source.String()
				}
			}
		}
	}
	if len(said) == 0 {
		return
	}
	for _, rel := range s.order {
		if f := s.files[rel]; !f.review {
			for _, fc := range factsOf(parse(f)) {
				if at, ok := said[forget.Fold(fc.Text)]; ok && !s.allPicked(fc.Source) {
					s.addRange(rel, fc.Source.Start, fc.Source.End, "copy of "+at, true)
				}
			}
		}
	}
}

func factsOf(d *memory.Document) []memory.Fact {
	if d == nil {
		return nil
	}
	return d.Facts
}

// allPicked reports whether every line of src is picked.
func (s *forgetSelection) allPicked(src memory.Source) bool {
	for n := src.Start; n <= src.End; n++ {
		if _, ok := s.picked[src.Path][n]; !ok {
			return false
		}
	}
	return true
}

// citesPicked returns the first citation in line of a picked line, or "".
func (s *forgetSelection) citesPicked(line string) string {
	for _, c := range forget.Cites(line) {
		m := s.picked[s.real(c.Path)]
		for n := c.Start; n <= c.End && m != nil; n++ {
			if _, ok := m[n]; ok {
				return c.String()
			}
		}
	}
	return ""
}

func sortedLines(m map[int]picked) []int {
	out := make([]int, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// forgetPlan is what Forget writes.
type forgetPlan struct {
	order    []string          // files changed, in order
	data     map[string][]byte // their new content
	removed  map[string]bool   // files deleted instead
	entries  []forget.Entry    // new entries of the record
	texts    []string          // hashes of the texts no longer in the Markdown
	report   []ForgetFile
	lines    int
	recorded int
}

// plan computes every changed file, the record's new entries and the
// texts whose vectors go.
func (s *forgetSelection) plan(tombstone, day, reason string) forgetPlan {
	p := forgetPlan{data: map[string][]byte{}, removed: map[string]bool{}, report: []ForgetFile{}}
	after := forget.Set{}
	for k := range s.gone {
		after[k] = struct{}{}
	}
	for _, rel := range s.order {
		m := s.picked[rel]
		if len(m) == 0 {
			continue
		}
		f := s.files[rel]
		rf := ForgetFile{Path: rel, Removed: s.wholePage(f)}
		p.removed[rel] = rf.Removed
		for _, n := range sortedLines(m) {
			// A line Memoria generated is a copy: the text it copies is
			// recorded from where it was written.
			k, ok := forget.Key(f.lines[n-1])
			ok = ok && m[n].trace
			rf.Lines = append(rf.Lines, ForgetLine{Line: n, Text: f.lines[n-1], Why: m[n].why, Recorded: ok})
			if !ok {
				continue
			}
			if _, had := after[k]; !had {
				after[k] = struct{}{}
				p.recorded++
				p.entries = append(p.entries, forget.Entry{Day: day, Key: k, Source: memory.Source{Path: rel, Start: n}, Reason: reason})
			}
		}
		p.report = append(p.report, rf)
		p.lines += len(rf.Lines)
		p.order = append(p.order, rel)
	}
	seen := map[string]bool{}
	for _, rel := range p.order {
		f := s.files[rel]
		drop, trace := map[int]bool{}, map[int]bool{}
		inBlock := false
		for n, pk := range s.picked[rel] {
			drop[n], trace[n] = true, pk.trace
			inBlock = inBlock || f.managed[n-1]
		}
		switch {
		case p.removed[rel]:
			p.texts = append(p.texts, s.textsGone(f, nil, after, seen)...)
		case f.review:
			p.data[rel] = cutReview(rel, f.data, drop)
		default:
			out := forget.Cut(f.data, drop, trace, tombstone)
			if inBlock {
				out = reflect.Reseal(out)
			}
			p.data[rel] = out
			p.texts = append(p.texts, s.textsGone(f, out, after, seen)...)
		}
	}
	return p
}

// wholePage reports whether f is an entity page every line of which goes
// (its blank lines aside): the file goes too, since its name names the
// entity, which would otherwise stay known.
func (s *forgetSelection) wholePage(f *forgetFile) bool {
	if kind, _, _ := memory.ClassifyPath(f.rel); kind != memory.FileEntity || f.review {
		return false
	}
	for i, l := range f.lines {
		if _, ok := s.picked[f.rel][i+1]; !ok && strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}

// textsGone are the hashes of the item texts the index held of f that its
// new content no longer has: the texts whose vectors go.
func (s *forgetSelection) textsGone(f *forgetFile, out []byte, after forget.Set, seen map[string]bool) []string {
	texts := func(data []byte) map[string]bool {
		m := map[string]bool{}
		doc, err := markdown.ParseWith(f.rel, data, markdown.Options{MaxPassageLines: s.passage})
		if err != nil {
			return m
		}
		for _, fc := range doc.Facts {
			m[ingest.TextHash(fc.Text)] = true
		}
		for _, p := range doc.Passages {
			m[ingest.TextHash(p.Text)] = true
		}
		return m
	}
	before, now := texts(forget.Mask(f.data, s.gone)), texts(forget.Mask(out, after))
	var gone []string
	for h := range before {
		if !now[h] && !seen[h] {
			seen[h] = true
			gone = append(gone, h)
		}
	}
	slices.Sort(gone)
	return gone
}
