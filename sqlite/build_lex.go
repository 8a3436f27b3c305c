package sqlite

import (
	"bytes"
	"errors"

	"memoria/bm25"
)

// A build tokenizes every item for the full-text table (build_fts.go).
// The same postings, with the items' fields the writer has in hand, are
// the in-memory ranking state a long-lived process loads from the index
// (loadLexical) and the postings snapshot is written from: a build keeps
// them, the rebuilt Index ranks in memory at once, and the snapshot is
// written without reading and tokenizing every item again.

// lexCollect gathers a build's in-memory ranking state.
type lexCollect struct {
	state lexState
	files map[string]lexFile
	path  string      // the file whose items are being added
	key   string      // the snapshot key: identity and build time
	fts   *ftsBuilder // its postings
}

// builtLexical is the in-memory ranking state a build made, and the key
// of the snapshot it is written as.
type builtLexical struct {
	state lexState
	key   string
}

func newLexCollect() *lexCollect {
	return &lexCollect{
		state: lexState{fields: &fieldTable{}, byEntity: map[string][]int64{}},
		files: map[string]lexFile{},
	}
}

// item records an item of the file being added, as loadLexical reads it.
func (c *lexCollect) item(id int64, f memoryFields, factID, conf any, endLine int, section, content, alt string) {
	t := &itemText{endLine: endLine, section: section, content: content, alt: alt}
	if s, ok := factID.(string); ok {
		t.factID = s
	}
	if v, ok := conf.(float64); ok {
		t.confidence, t.hasConfidence = v, true
	}
	f.text = t
	c.state.add(lexRow{id: id, fields: f, path: c.path})
	lf := c.files[c.path]
	lf.ids = append(lf.ids, id)
	c.files[c.path] = lf
}

// finish opens the postings segment the full-text builder made.
func (c *lexCollect) finish() (*builtLexical, error) {
	if c.fts == nil {
		return nil, errors.New("the build ended before its postings were made")
	}
	<-c.fts.done
	if c.fts.out.err != nil {
		return nil, c.fts.out.err
	}
	eng, err := bm25.OpenSegment(c.fts.seg, lexWeights...)
	if err != nil {
		return nil, err
	}
	c.state.eng, c.state.seg = eng, c.fts.seg
	c.state.files = byPathOf(c.files)
	return &builtLexical{state: c.state, key: c.key}, nil
}

// segment writes a builder's postings as a segment.
func segment(b *bm25.Builder) ([]byte, error) {
	var buf bytes.Buffer
	if err := b.Segment(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
