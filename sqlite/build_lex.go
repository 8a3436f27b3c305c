package sqlite

import (
	"bytes"
	"errors"

	"memoria/bm25"
	"memoria/safewrite"
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
	// The snapshot, written beside its place while the build goes on
	// (startSnapshot) and put there once the index is (installBuilt).
	snapDone chan struct{}
	snapshot *safewrite.Prepared // nil when it could not be written then
	readyErr error               // why the state could not be completed
}

// builtLexical is the in-memory ranking state a build made, the key of
// the snapshot it is written as, and that snapshot if it is written.
type builtLexical struct {
	state    lexState
	key      string
	snapshot *safewrite.Prepared
}

// discard removes a written snapshot that will not be put in place.
func (b *builtLexical) discard() {
	if b != nil {
		b.snapshot.Discard()
		b.snapshot = nil
	}
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

// ready waits for the postings segment the full-text builder makes and
// completes the state with it: all of it but the entity pages, which the
// snapshot does not hold.
func (c *lexCollect) ready() error {
	if c.fts == nil {
		return errors.New("the build ended before its postings were made")
	}
	<-c.fts.segDone
	if c.fts.segErr != nil {
		return c.fts.segErr
	}
	eng, err := bm25.OpenSegment(c.fts.seg, lexWeights...)
	if err != nil {
		return err
	}
	c.state.eng, c.state.seg = eng, c.fts.seg
	c.state.files = byPathOf(c.files)
	return nil
}

// startSnapshot writes the postings snapshot to a temporary file beside
// path on a goroutine, as soon as the segment is made: it no longer waits
// for the full-text pages and the commit (65-85 ms of a 10-year build).
// The snapshot's key names the build, so a reader can never take it for
// the index it replaces, even if it were in place too early.
func (c *lexCollect) startSnapshot(path string) {
	c.snapDone = make(chan struct{})
	go func() {
		defer close(c.snapDone)
		if c.readyErr = c.ready(); c.readyErr == nil {
			// One that cannot be written now, installBuilt writes again
			// and reports.
			c.snapshot, _ = prepareLexSnapshot(path, c.key, &c.state)
		}
	}()
}

// abandon waits for a snapshot being written and removes it.
func (c *lexCollect) abandon() {
	if c != nil && c.snapDone != nil {
		<-c.snapDone
		c.snapshot.Discard()
		c.snapshot = nil
	}
}

// finish returns the state, once the build is done. A snapshot that could
// not be written early is not an error here: installBuilt writes it then.
func (c *lexCollect) finish() (*builtLexical, error) {
	if c.snapDone == nil {
		c.readyErr = c.ready()
	} else {
		<-c.snapDone
	}
	if c.readyErr != nil {
		return nil, c.readyErr
	}
	return &builtLexical{state: c.state, key: c.key, snapshot: c.snapshot}, nil
}

// segment writes a builder's postings as a segment.
func segment(b *bm25.Builder) ([]byte, error) {
	var buf bytes.Buffer
	if err := b.Segment(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
