package memory

import (
	"context"
	"errors"
	"math"
	"time"
)

// Store is the derived index of one workspace's Markdown, as recall,
// reflect and the library use it. The index is never the truth: Sync
// brings it up to date with the Markdown and Rebuild makes it afresh. The
// embedded implementation is package sqlite; a server database can be
// another. Nothing in it names a storage engine: terms are words as a
// person typed them, filters are days, kinds and entities, and every item
// cites its file and lines. Implementations are safe for concurrent use.
type Store interface {
	// Sync brings the index up to date with the workspace: only files
	// whose content changed are read again; deleted files leave it.
	Sync(ctx context.Context) (Stats, error)
	// Rebuild builds the index afresh from the Markdown. Readers go on
	// with the old index until the new one is in place; if it fails, the
	// index is as it was.
	Rebuild(ctx context.Context) (Stats, error)
	// Status reports what the index holds and whether it is fresh,
	// without updating it.
	Status(ctx context.Context) (Status, error)
	// Close releases the index.
	Close() error

	// Search finds the items that contain any of the terms (words or
	// phrases; no query syntax) and returns the best limit by relevance
	// (bm25 or the engine's equivalent; higher is better) among those
	// the filter admits. It scores at most f.ScoredRows() rows, the
	// newest when more match. A term of several words is a phrase: it
	// matches where its words are adjacent and in order, as the index
	// cuts text into terms, and bm25 weighs it by the rows that hold
	// the phrase (recall's quoted phrases).
	Search(ctx context.Context, terms []string, f Filter, limit int) ([]Hit, error)
	// Items lists items matching a filter without full-text search,
	// ordered by day (newest first when newest is set), file and line.
	Items(ctx context.Context, f Filter, newest bool, limit int) ([]Item, error)
	// Nearby returns, by an item's row id, the passages in the same file
	// and section that lie within n lines of it (before its first line or
	// after its last), in line order: what recall may widen a result
	// with. It answers for items[0], and for the others where that costs
	// little more (one round trip to a server for all); an item it did
	// not answer for has no key in the map. Recall passes the result it
	// widens now and the next ones it may widen.
	Nearby(ctx context.Context, items []Item, n int) (map[int64][]Item, error)
	// TermStats cuts query words into the index's terms and counts the
	// items containing each, and returns how many items there are, so
	// that recall can plan a query before running it.
	TermStats(ctx context.Context, words []string) ([]TermStat, int, error)
	// EntityItems lists what the index holds about entities (slugs, any
	// case): their pages' lines first, then the typed facts linked to
	// them, newest first.
	EntityItems(ctx context.Context, slugs []string, f Filter, limit int) ([]EntityItem, error)
	// NearestItems returns the items whose text embeds nearest q (a unit
	// vector of the stored vectors' model), best first; none without
	// vectors.
	NearestItems(ctx context.Context, q []float32, f Filter, limit int) ([]Hit, error)

	// EntityNames lists every name an entity is known under. While the
	// list is unchanged, calls return the same slice (not to be changed).
	EntityNames(ctx context.Context) ([]KnownName, error)
	// ResolveEntity maps a name, alias or slug (any case) to the
	// entity's slug.
	ResolveEntity(ctx context.Context, name string) (slug string, ok bool, err error)
	// EntityPageOf returns the page of the entity with this slug (any
	// case), or ok false when it has none.
	EntityPageOf(ctx context.Context, slug string) (EntityPage, bool, error)
	// Verify checks the index's own consistency, reading all of it (slow
	// on a large index); the error wraps ErrCorrupt when it is damaged.
	Verify(ctx context.Context) error
	// EntityList lists every entity mentioned in an item or with a page,
	// most mentioned first.
	EntityList(ctx context.Context) ([]EntitySummary, error)

	// EmbedPending gives a vector to every item text that has none (or
	// one from another model), a batch at a time, so that an interrupted
	// run resumes where it stopped.
	EmbedPending(ctx context.Context, e Embedder, o EmbedOptions) (EmbedStats, error)
	// VectorLag counts the items indexed since the last complete
	// embedding: what semantic recall may not see yet.
	VectorLag(ctx context.Context) (int, error)
	// VectorModel names the model of the stored vectors ("" if none).
	VectorModel(ctx context.Context) (string, error)
}

// ErrCorrupt is wrapped by a Store's errors when the index is damaged (a
// disk error, a truncated file): it is derived, so the remedy is Rebuild.
var ErrCorrupt = errors.New("the index is damaged")

// MaxScoredRows bounds the rows one Search scores: a word most items
// contain (a question made of common words only) matches tens of
// thousands, and scoring each costs a read of its size. Past the bound
// the newest matches are scored; recall plans its terms to stay within it.
const MaxScoredRows = 4000

// Embedder turns texts into unit vectors (package embed has the models).
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Identity names the model; vectors of different identities are
	// never compared.
	Identity() string
}

// Item is one indexed fact or passage.
type Item struct {
	RowID      int64 // the index's id of the item: stable until its file changes
	Kind       Kind
	FactID     string   // "" for passages
	Confidence *float64 // nil when unknown
	Source     Source
	Written    time.Time // zero when the file is not a daily log
	Event      *TimeRange
	Section    string
	Entities   []string
	Content    string
	Status     EntryStatus // a USER.md entry's mark: active or superseded ("" for none)
}

// Hit is an item found by a search, with its score (higher is better).
type Hit struct {
	Item
	Score float64
}

// EntityItem is an item linked to an entity, as EntityItems lists it.
type EntityItem struct {
	Item
	// OnPage is true when the item is on the entity's own page
	// (bank/entities/<Slug>.md).
	OnPage bool
}

// Filter narrows a search. The zero Filter matches everything.
type Filter struct {
	// Since and Until bound a window of days (inclusive, zero = open). An
	// item is in the window when the day it was written, or its event time,
	// falls in it; undated items (bank pages, memory.md) are then left out.
	Since, Until time.Time
	Kinds        []Kind   // any of these kinds
	Entities     []string // mentions any of these slugs (case-insensitive)
	// Scored bounds the matches a Search scores, the newest first, below
	// MaxScoredRows (0: MaxScoredRows): a query plan's smaller candidate
	// set.
	Scored int
}

// ScoredRows is the number of matches a Search with this filter scores
// at most: Scored, within MaxScoredRows.
func (f Filter) ScoredRows() int {
	if f.Scored > 0 && f.Scored < MaxScoredRows {
		return f.Scored
	}
	return MaxScoredRows
}

// EntitySummary is one entity as EntityList lists it.
type EntitySummary struct {
	Slug     string    `json:"slug"`           // as written on its page, or as first mentioned
	Name     string    `json:"name"`           // the page's title, or the slug read as words
	Page     string    `json:"page,omitempty"` // the page's path, when it has one
	Items    int       `json:"items"`          // items that mention it
	LastSeen time.Time `json:"last_seen"`      // the newest day of those items (zero if none)
}

// KnownName is a name under which an entity is known: its slug, display
// name or an alias, as a case-folded key (EntityKey).
type KnownName struct {
	Key  string
	Slug string
}

// TermStat is a query word as the index sees it: its term (by the index's
// own tokenizer) and how many items contain it.
type TermStat struct {
	Word string
	Stem string // "" when the word has no indexable token
	Rows int    // items containing it (for a word of several tokens, the rarest)
}

// KeepTermCounts updates the term counts an index keeps across a change of
// its items (TermStat.Rows, as the index computed them): counts taken when
// it held at items, now that it holds items. Counting a common word reads
// much of the index, and a line more or less changes nothing of a plan
// or a weight, so the counts stay while the size moved by at most
// TermCountDrift of it; past that none stay (nil), and counting begins
// again at items. A count below RecountBelow never stays: a word's first
// items change what a recall does with it (a word no item held is not
// searched for, and a fact just retained would not be found by it), and
// counting it again is cheap.
func KeepTermCounts(counts map[string]int, at, items int) (map[string]int, int) {
	if counts == nil || math.Abs(float64(items-at)) > TermCountDrift*float64(at) {
		return nil, items
	}
	for t, n := range counts {
		if n < RecountBelow {
			delete(counts, t)
		}
	}
	return counts, at
}

// TermCountDrift and RecountBelow: see KeepTermCounts.
const (
	TermCountDrift = 0.02
	RecountBelow   = 100
)

// Stats describes one build or sync.
type Stats struct {
	Files     int           // indexable files found in the workspace
	Parsed    int           // files read and parsed
	Unchanged int           // files whose content was already indexed
	Removed   int           // files gone from the workspace, dropped from the index
	Skipped   int           // files not indexable (binary, too large, unreadable)
	Items     int           // facts and passages written
	Warnings  int           // warnings reported
	Duration  time.Duration // wall time

	// What the index holds after a full build, as Status counts it; a
	// sync leaves these unset (Counted false).
	Counted     bool
	FilesByKind map[FileKind]int
	Facts       map[Kind]int
	Passages    int
	Entities    int
}

// Changed reports whether the index content changed.
func (s Stats) Changed() bool { return s.Parsed > 0 || s.Removed > 0 }

// Status summarises what the index holds.
type Status struct {
	Backend     string // the kind of index, e.g. "sqlite"
	Path        string // where it is (a file, a database URL without secrets)
	Bytes       int64  // the index's size on disk
	Built       time.Time
	Files       map[FileKind]int
	Imported    map[string]int    // the files of kind FileImport, by the assistant they came from (ImportSource)
	Skipped     map[string]string // path → why it is not indexed
	Facts       map[Kind]int
	Passages    int
	Entities    int // distinct entities mentioned or with a page
	EntityPages int
	FirstDay    time.Time // earliest daily log (memory/YYYY-MM-DD[-slug].md)
	LastDay     time.Time // latest daily log
	Pending     int       // files changed on disk since the index saw them
	VectorModel string    // the model of the stored vectors ("" if none)
	Texts       int       // distinct item texts
	Embedded    int       // of those, how many have a vector
	// VectorSearch says how semantic recall searches the vectors, where
	// the backend has a choice ("" when it has none to report).
	VectorSearch string
	// Synced is when a sync last changed the index (zero if unknown).
	Synced time.Time
	// Advice says what an administrator should change for the index to
	// work as it should (one line each; none when all is well).
	Advice []string
}

// EmbedStats describes one embedding run.
type EmbedStats struct {
	Model    string
	Embedded int // texts embedded in this run
	Pending  int // texts still without a vector (when stopped early)
	Total    int // distinct texts in the index
}

// EmbedOptions tune EmbedPending.
type EmbedOptions struct {
	Batch    int                   // texts per model call and per transaction; 0 means 64
	Limit    int                   // stop after this many texts; 0 means all
	Progress func(done, total int) // may be nil
}
