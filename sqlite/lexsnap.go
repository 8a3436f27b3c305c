package sqlite

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strings"

	"memoria/bm25"
	"memoria/flock"
	"memoria/internal/mmapfile"
	"memoria/safewrite"
)

// The postings snapshot (index.sqlite.lex) is the in-memory ranking state
// written to a file that a process maps and uses in place: a one-shot
// `memoria recall` then ranks as the long-lived server does, without
// FTS5's per-row docsize lookups and without tokenizing anything, and a
// server starts warm. It is derived from the index like the index is from
// the Markdown: keyed to one build of the index, and files changed since
// it was written are masked out of it and reloaded from the index
// (refreshLexical), so its answers are always the index's.
//
// Layout: the magic, then length-prefixed (uvarint) blocks:
//
//	key       the index's identity and build time
//	kinds     the item kinds, a uvarint count then length-prefixed names
//	files     a uvarint count, then per file: row id, path, content hash,
//	          and its items' record numbers as uvarint deltas
//	records   one fixed-size record per item, by id ascending (recSize)
//	strings   the items' entity lists, fact ids, sections and contents,
//	          addressed by the records
//	entities  a uvarint count, then per entity key: the key and its
//	          items' ids as uvarint deltas (length-prefixed)
//	postings  the rest of the file: a bm25 segment
const lexSnapMagic = "MEMOLEX1"

// Record layout: id i64, file row i64, start line u32, kind u8, written,
// event start and event end as 10-byte dates (zeros when empty), the
// entity list's offset and length in the strings block (u32 each), flags
// (1: has a confidence), end line u32, confidence f64, then offset and
// length (u32 each) of the fact id, the section, the content and the alt
// text (items.alt: what the full-text row of a deleted item is made from
// again, to keep document counts exact).
const (
	recID, recFile, recLine, recKind = 0, 8, 16, 20
	recWritten, recEvStart, recEvEnd = 21, 31, 41
	recEntOff, recFlags, recEndLine  = 51, 59, 60
	recConf, recFact, recSection     = 64, 72, 80
	recContent, recAlt               = 88, 96
	recSize                          = 104
)

// lexSnapshot is an opened snapshot file.
type lexSnapshot struct {
	unmap    func()
	kinds    []string
	records  []byte
	n        int
	dates    map[[10]byte]string // see date; like all of the state, used under lexical.mu
	strs     []byte
	entities map[string][]byte // entity key → its items' ids as uvarint deltas
}

// maxSnapshotDirty is how many items a one-shot process reloads over a
// snapshot before it gives the query to FTS5 instead: past that, the
// reload costs more than FTS5's ranking.
var maxSnapshotDirty = 5000

func (s *lexSnapshot) rec(i int) []byte { return s.records[i*recSize : (i+1)*recSize] }

func (s *lexSnapshot) idAt(i int) int64 {
	return int64(binary.LittleEndian.Uint64(s.records[i*recSize+recID:]))
}

// find returns the record index of an item id. Ids are dense (a build
// numbers items from 1), so the guess id - first is most often right.
func (s *lexSnapshot) find(id int64) (int, bool) {
	if s.n == 0 {
		return 0, false
	}
	if g := id - s.idAt(0); g >= 0 && g < int64(s.n) && s.idAt(int(g)) == id {
		return int(g), true
	}
	i := sort.Search(s.n, func(i int) bool { return s.idAt(i) >= id })
	return i, i < s.n && s.idAt(i) == id
}

// date reads a 10-byte date, each distinct one made a string once.
func (s *lexSnapshot) date(b []byte) string {
	if b[0] == 0 {
		return ""
	}
	k := [10]byte(b[:10])
	if d, ok := s.dates[k]; ok {
		return d
	}
	d := string(k[:])
	if s.dates == nil {
		s.dates = map[[10]byte]string{}
	}
	s.dates[k] = d
	return d
}

// fields decodes the record of item id, without its entities (full has
// them): filters and orderings do not need them.
func (s *lexSnapshot) fields(id int64) (memoryFields, bool) {
	i, ok := s.find(id)
	if !ok {
		return memoryFields{}, false
	}
	r := s.rec(i)
	le := binary.LittleEndian
	f := memoryFields{present: true}
	if k := int(r[recKind]); k < len(s.kinds) {
		f.kind = s.kinds[k]
	}
	f.fileID = int64(le.Uint64(r[recFile:]))
	f.startLine = int(le.Uint32(r[recLine:]))
	f.written, f.evStart, f.evEnd = s.date(r[recWritten:]), s.date(r[recEvStart:]), s.date(r[recEvEnd:])
	return f, true
}

// str reads the string whose offset and length stand at r[at:].
func (s *lexSnapshot) str(r []byte, at int) string {
	off, n := uint64(binary.LittleEndian.Uint32(r[at:])), uint64(binary.LittleEndian.Uint32(r[at+4:]))
	if off+n > uint64(len(s.strs)) {
		return ""
	}
	return string(s.strs[off : off+n])
}

// full is fields with the item's text.
func (s *lexSnapshot) full(id int64) (memoryFields, bool) {
	f, ok := s.fields(id)
	if !ok {
		return f, false
	}
	i, _ := s.find(id)
	r := s.rec(i)
	le := binary.LittleEndian
	f.entities = s.str(r, recEntOff)
	f.text = &itemText{
		factID:        s.str(r, recFact),
		confidence:    math.Float64frombits(le.Uint64(r[recConf:])),
		hasConfidence: r[recFlags]&1 != 0,
		endLine:       int(le.Uint32(r[recEndLine:])),
		section:       s.str(r, recSection),
		content:       s.str(r, recContent),
		alt:           s.str(r, recAlt),
	}
	return f, true
}

// entityIDs lists the items linked to an entity key.
func (s *lexSnapshot) entityIDs(key string) []int64 {
	b := s.entities[key]
	var out []int64
	var id int64
	for len(b) > 0 {
		d, n := binary.Uvarint(b)
		if n <= 0 {
			break
		}
		b = b[n:]
		id += int64(d)
		out = append(out, id)
	}
	return out
}

// itemsOf decodes a file's list of records (uvarint deltas of record
// numbers) into item ids.
func (s *lexSnapshot) itemsOf(list []byte) []int64 {
	var out []int64
	i := uint64(0)
	for len(list) > 0 {
		d, n := binary.Uvarint(list)
		if n <= 0 {
			break
		}
		list = list[n:]
		i += d
		if i >= uint64(s.n) {
			break
		}
		out = append(out, s.idAt(int(i)))
	}
	return out
}

func (ix *Index) lexSnapFile() string { return ix.path + ".lex" }

// lexSnapKey names the build of the index a snapshot belongs to.
func (ix *Index) lexSnapKey(ctx context.Context) (string, error) {
	built, err := ix.metaValue(ctx, "built")
	if err != nil {
		return "", err
	}
	return identity(ix.opts) + "\x00" + built, nil
}

// snapReader reads the length-prefixed blocks of a snapshot.
type snapReader struct {
	b   []byte
	err error
}

func (r *snapReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errors.New("truncated")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *snapReader) bytes() []byte {
	n := r.uvarint()
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.err = errors.New("truncated")
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

// openLexSnapshot maps the snapshot file and returns the state it holds,
// not yet compared with the index (checked is false). ok is false when
// there is no usable snapshot for this build of the index.
func (ix *Index) openLexSnapshot(ctx context.Context) (l lexState, ok bool, err error) {
	key, err := ix.lexSnapKey(ctx)
	if err != nil {
		return l, false, err
	}
	f, err := os.Open(ix.lexSnapFile())
	if err != nil {
		return l, false, nil // none yet
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return l, false, nil
	}
	data, unmap, err := mmapfile.Map(f, st.Size(), mmapfile.ReadOnly)
	if err != nil {
		return l, false, nil
	}
	snap, eng, files, err := decodeLexSnapshot(data, key)
	if err != nil {
		unmap()
		if !errors.Is(err, errSnapshotKey) {
			ix.opts.warn("%s: ignored (%v); it will be written again", ix.lexSnapFile(), err)
		}
		return l, false, nil
	}
	snap.unmap = unmap
	l.eng, l.snap, l.files = eng, snap, files
	l.fields = &fieldTable{base: snap}
	l.byEntity = map[string][]int64{}
	if l.pages, err = entityPages(ctx, ix.db); err != nil {
		l.release()
		return lexState{}, false, err
	}
	l.state = lexReady
	return l, true, nil
}

var errSnapshotKey = errors.New("written for another build of the index")

func decodeLexSnapshot(data []byte, key string) (*lexSnapshot, *bm25.Index, fileList, error) {
	if len(data) < len(lexSnapMagic) || string(data[:len(lexSnapMagic)]) != lexSnapMagic {
		return nil, nil, fileList{}, errors.New("not a postings snapshot")
	}
	r := &snapReader{b: data[len(lexSnapMagic):]}
	if string(r.bytes()) != key {
		return nil, nil, fileList{}, errSnapshotKey
	}
	s := &lexSnapshot{entities: map[string][]byte{}}
	kinds := &snapReader{b: r.bytes()}
	for n := kinds.uvarint(); n > 0 && kinds.err == nil; n-- {
		s.kinds = append(s.kinds, string(kinds.bytes()))
	}
	// The paths and hashes are cut from one string: one allocation, not
	// two per file.
	block := r.bytes()
	text := string(block)
	fr := &snapReader{b: block}
	at := func(b []byte) string {
		off := len(block) - len(fr.b) - len(b)
		return text[off : off+len(b)]
	}
	count := fr.uvarint()
	var files fileList
	files.paths = make([]string, 0, min(count, 1<<20))
	files.vals = make([]lexFile, 0, min(count, 1<<20))
	for ; count > 0 && fr.err == nil; count-- {
		id := int64(fr.uvarint())
		path := at(fr.bytes())
		hash := at(fr.bytes())
		if n := len(files.paths); n > 0 && files.paths[n-1] >= path {
			return nil, nil, files, errors.New("files out of order")
		}
		files.paths = append(files.paths, path)
		files.vals = append(files.vals, lexFile{fileID: id, hash: hash, inSnapshot: true, snapItems: fr.bytes()})
	}
	s.records = r.bytes()
	s.strs = r.bytes()
	er := &snapReader{b: r.bytes()}
	for n := er.uvarint(); n > 0 && er.err == nil; n-- {
		k := string(er.bytes())
		s.entities[k] = er.bytes()
	}
	for _, e := range []error{r.err, kinds.err, fr.err, er.err} {
		if e != nil {
			return nil, nil, fileList{}, e
		}
	}
	if len(s.records)%recSize != 0 {
		return nil, nil, fileList{}, errors.New("records block of a wrong size")
	}
	s.n = len(s.records) / recSize
	eng, err := bm25.OpenSegment(r.b, lexWeights...)
	if err != nil {
		return nil, nil, fileList{}, err
	}
	if eng.Len() != s.n {
		return nil, nil, fileList{}, fmt.Errorf("%d records for %d documents", s.n, eng.Len())
	}
	return s, eng, files, nil
}

// writeLexSnapshot writes the state l (loaded and current for the index
// build key) to the snapshot file, atomically.
func (ix *Index) writeLexSnapshot(key string, l *lexState) error {
	p, err := prepareLexSnapshot(ix.lexSnapFile(), key, l)
	if err != nil {
		return err
	}
	return p.Commit()
}

// prepareLexSnapshot writes the snapshot of state l, keyed key, to a
// synced temporary file beside path, to be put in place by Commit.
func prepareLexSnapshot(path, key string, l *lexState) (*safewrite.Prepared, error) {
	// Every item of every file, by id. The records and the strings they
	// point into are streamed to the file rather than built in memory: a
	// build writes the snapshot at its peak of memory.
	var ids []int64
	paths := l.files.paths
	for _, p := range paths {
		ids = append(ids, l.fileIDs(p)...)
	}
	slices.Sort(ids)
	if l.eng.Len() != len(ids) {
		return nil, fmt.Errorf("%d items for %d documents", len(ids), l.eng.Len())
	}
	fieldsOf := func(id int64) (memoryFields, *itemText) {
		f, _ := l.fields.full(id)
		return f, f.text
	}
	kindIndex := map[string]int{}
	var kindNames []string
	byEntity := map[string][]int64{}
	textLen := uint64(0)
	for i, id := range ids {
		if i > 0 && ids[i-1] == id {
			return nil, fmt.Errorf("item %d listed twice", id)
		}
		f, t := fieldsOf(id)
		if t == nil {
			return nil, fmt.Errorf("item %d has no fields", id)
		}
		if _, ok := kindIndex[f.kind]; !ok {
			kindIndex[f.kind] = len(kindNames)
			kindNames = append(kindNames, f.kind)
		}
		for _, day := range [...]string{f.written, f.evStart, f.evEnd} {
			if len(day) != 0 && len(day) != 10 {
				return nil, fmt.Errorf("item %d: date %q", id, day)
			}
		}
		textLen += uint64(len(f.entities) + len(t.factID) + len(t.section) + len(t.content) + len(t.alt))
		for _, e := range strings.Fields(f.entities) {
			k := strings.ToLower(e)
			if list := byEntity[k]; len(list) == 0 || list[len(list)-1] != id {
				byEntity[k] = append(list, id)
			}
		}
	}
	if textLen > math.MaxUint32 {
		return nil, errors.New("over 4 GiB of item text")
	}
	if len(kindNames) > 255 {
		return nil, errors.New("too many item kinds")
	}
	var files, list []byte
	files = binary.AppendUvarint(files, uint64(len(paths)))
	for _, p := range paths {
		lf, _ := l.files.get(p)
		files = binary.AppendUvarint(files, uint64(lf.fileID))
		files = appendBytes(files, p)
		files = appendBytes(files, lf.hash)
		recs := make([]uint64, 0, len(lf.ids))
		for _, id := range l.fileIDs(p) {
			r, _ := slices.BinarySearch(ids, id)
			recs = append(recs, uint64(r))
		}
		slices.Sort(recs)
		list = list[:0]
		prev := uint64(0)
		for _, r := range recs {
			list = binary.AppendUvarint(list, r-prev)
			prev = r
		}
		files = appendBytes(files, string(list))
	}
	var kinds []byte
	kinds = binary.AppendUvarint(kinds, uint64(len(kindNames)))
	for _, k := range kindNames {
		kinds = appendBytes(kinds, k)
	}
	var ents []byte
	keys := make([]string, 0, len(byEntity))
	for k := range byEntity {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	ents = binary.AppendUvarint(ents, uint64(len(keys)))
	for _, k := range keys {
		ents = appendBytes(ents, k)
		var list []byte
		prev := int64(0)
		for _, id := range byEntity[k] {
			list = binary.AppendUvarint(list, uint64(id-prev))
			prev = id
		}
		ents = appendBytes(ents, string(list))
	}
	return safewrite.PrepareFile(path, 0o644, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		bw.WriteString(lexSnapMagic)
		block := func(b []byte) {
			bw.Write(binary.AppendUvarint(nil, uint64(len(b))))
			bw.Write(b)
		}
		block([]byte(key))
		block(kinds)
		block(files)
		// The records, then the strings they point into, in id order.
		le := binary.LittleEndian
		bw.Write(binary.AppendUvarint(nil, uint64(len(ids)*recSize)))
		off := uint32(0)
		for _, id := range ids {
			f, t := fieldsOf(id)
			var r [recSize]byte
			le.PutUint64(r[recID:], uint64(id))
			le.PutUint64(r[recFile:], uint64(f.fileID))
			le.PutUint32(r[recLine:], uint32(f.startLine))
			r[recKind] = byte(kindIndex[f.kind])
			copy(r[recWritten:recWritten+10], f.written)
			copy(r[recEvStart:recEvStart+10], f.evStart)
			copy(r[recEvEnd:recEvEnd+10], f.evEnd)
			for _, s := range [...]struct {
				at int
				v  string
			}{{recEntOff, f.entities}, {recFact, t.factID}, {recSection, t.section}, {recContent, t.content}, {recAlt, t.alt}} {
				le.PutUint32(r[s.at:], off)
				le.PutUint32(r[s.at+4:], uint32(len(s.v)))
				off += uint32(len(s.v))
			}
			if t.hasConfidence {
				r[recFlags] |= 1
			}
			le.PutUint32(r[recEndLine:], uint32(t.endLine))
			le.PutUint64(r[recConf:], math.Float64bits(t.confidence))
			bw.Write(r[:])
		}
		bw.Write(binary.AppendUvarint(nil, textLen))
		for _, id := range ids {
			f, t := fieldsOf(id)
			for _, v := range [...]string{f.entities, t.factID, t.section, t.content, t.alt} {
				bw.WriteString(v)
			}
		}
		block(ents)
		if err := bw.Flush(); err != nil {
			return err
		}
		if l.seg != nil && l.dirty == 0 && l.eng.Dead() == 0 {
			_, err := w.Write(l.seg) // as loaded, nothing changed since
			return err
		}
		return l.eng.WriteSegment(w)
	})
}

func appendBytes(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// PostingsBehind reports whether a postings snapshot for the index as it
// stands would spare one-shot processes work: this process ranked without
// one (none, or too far behind), or reloaded more than a few files over it.
func (ix *Index) PostingsBehind() bool {
	ix.lex.mu.Lock()
	defer ix.lex.mu.Unlock()
	if !ix.lex.snapTried {
		return false // never looked: nothing learnt
	}
	return ix.lex.state != lexReady || ix.lex.snap == nil || ix.lex.dirty > PostingsSlack
}

// PostingsSlack is how many items reloaded over a snapshot make
// PostingsBehind ask for a new one, and `memoria index` write one: a day's
// log is a few dozen, and rewriting the snapshot costs about as much CPU
// as a second of recalls.
const PostingsSlack = 500

// WritePostings writes the postings snapshot (index.sqlite.lex) for the
// index as it stands, so that one-shot processes rank in memory. Over a
// snapshot that is only a little behind, it is the snapshot with the
// changed files replaced; otherwise every item is read and tokenized. It
// reports whether it wrote: a snapshot behind the index by at most slack
// items (0: a current one) is left alone.
func (ix *Index) WritePostings(ctx context.Context, slack int) (bool, error) {
	// One writer at a time; another process writing it now does the job.
	lock, err := flock.Exclusive(ix.lexSnapFile()+".lock", 0)
	if errors.Is(err, flock.ErrTimeout) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer lock.Unlock()
	ix.lex.mu.Lock()
	defer ix.lex.mu.Unlock()
	if ix.lex.state == lexNone {
		ix.lex.snapTried = true
		ix.installSnapshotLocked(ctx)
	}
	if ix.lex.state == lexReady {
		if err := ix.refreshLexical(ctx, &ix.lex, -1); err != nil {
			return false, ix.wrapErr(err)
		}
		if (ix.lex.snap != nil || ix.lex.saved) && ix.lex.dirty <= slack {
			return false, nil
		}
	}
	key, err := ix.lexSnapKey(ctx)
	if err != nil {
		return false, ix.wrapErr(err)
	}
	l := &ix.lex.lexState
	if l.state != lexReady || l.eng.Dead() > l.eng.Len()/4 {
		// Far behind, or none: everything afresh.
		fresh, built, err := loadLexical(ctx, ix.path)
		if err != nil {
			return false, ix.wrapErr(err)
		}
		key = identity(ix.opts) + "\x00" + built
		defer fresh.release()
		l = &fresh
	}
	if err := ix.writeLexSnapshot(key, l); err != nil {
		return false, fmt.Errorf("postings %s: %w", ix.lexSnapFile(), err)
	}
	return true, nil
}
