package sqlite

import (
	"crypto/sha256"
	"fmt"

	"memoria/ingest"
	"memoria/lang"
	"memoria/markdown"
)

// SchemaVersion changes whenever the tables or the way Markdown is cut into
// items change; an index of another version is rebuilt.
const SchemaVersion = 2

// applicationID marks a SQLite file as Memoria's ("MEMO"), so a foreign
// database at the index path is recognised and replaced, not misread.
const applicationID = 0x4d454d4f

// WriterVersion changes whenever the way this code writes an index
// changes while the schema stays the same (the order rows are written in,
// the full-text configuration): an index written by another writer is
// rebuilt rather than trusted.
const WriterVersion = 4

// identity is stored in meta; any difference forces a rebuild.
// It covers the schema text and the full-text fill, so that changing
// either during development also rebuilds existing indexes.
func identity(o Options) string {
	sum := sha256.Sum256([]byte(schema + indexes + textHashIndex + ftsBuildConfig + ftsSyncConfig + ftsMerge))
	return fmt.Sprintf("schema=%d/%x writer=%d rows=%d parser=%d passage_lines=%d alt=%d/%s", SchemaVersion, sum[:4], WriterVersion, ingest.Version, markdown.Version, o.rows().Passage(), lang.Version, lang.Unicode)
}

// indexes are the secondary indexes, created once a build has written the
// rows: SQLite then builds each B-tree from sorted keys instead of
// inserting at random. Each serves a query (EXPLAIN QUERY PLAN):
// items_file the reading and deletion of a file's items, Nearby and,
// with files_day, the days written; items_event the events in the date
// filter (a MULTI-INDEX OR with the former). No query looks items up by
// fact_id. There is no index of items
// by day (1 MB on ten years): a listing by day has a date filter, or,
// newest first, starts from the day newestDay finds through files_day and
// items_event. Only an oldest-first listing without dates, which neither
// recall nor the timeline asks for, reads every item.
// item_entities is read by its primary key only; a sync deletes a link
// by its slug and item (deleteItemEntities).
const indexes = `
CREATE INDEX files_day ON files(day) WHERE day != '';
CREATE INDEX items_file ON items(file_id);
CREATE INDEX items_event ON items(day, event_end) WHERE event_end != 0;
CREATE INDEX entity_names_key ON entity_names(key);
CREATE INDEX entity_names_file ON entity_names(file_id);
`

// textHashIndex joins vector hits to items. Only an index whose workspace
// has vectors needs it (1.4 MB of 25 on ten years of logs): the first
// embedding creates it (EmbedPending), and so does a build when the
// vector store has a model.
const textHashIndex = `CREATE INDEX IF NOT EXISTS items_text_hash ON items(text_hash)`

// ftsBuildConfig is the full-text table's configuration while a build
// fills it: no merging during the fill and a hash table large enough that
// FTS5 flushes the whole fill as few segments.
const ftsBuildConfig = `
INSERT INTO items_fts(items_fts, rank) VALUES('automerge', 0);
INSERT INTO items_fts(items_fts, rank) VALUES('hashsize', 268435456);
`

// ftsSyncConfig is the configuration a build leaves for the incremental
// updates that follow. FTS5's own merging of segments, in the write that
// adds one, can rewrite the whole index at once (0.3 s on ten years, at
// the 14th update): automerge is off and the crisis merge far off, and
// each update does bounded merge work instead (ftsMerge).
const ftsSyncConfig = `
INSERT INTO items_fts(items_fts) VALUES('optimize');
INSERT INTO items_fts(items_fts, rank) VALUES('hashsize', 1048576);
INSERT INTO items_fts(items_fts, rank) VALUES('automerge', 0);
INSERT INTO items_fts(items_fts, rank) VALUES('crisismerge', 200);
`

// ftsMerge is the merge work each incremental update does: FTS5 merges
// segments until about this many pages are written, and only where a
// level holds several segments. Over 300 updates of one file of the
// 10-year workspace, the slowest took 58 ms (p99 55 ms), where FTS5's
// automerge made updates of 130-300 ms.
const ftsMerge = `INSERT INTO items_fts(items_fts, rank) VALUES('merge', 20)`

// ftsTokenizer is the full-text table's tokenizer; query words are cut by
// the same one (terms.go).
const ftsTokenizer = "porter unicode61 remove_diacritics 2"

const schema = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE files(
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  day TEXT NOT NULL DEFAULT '',
  size INTEGER NOT NULL,
  mtime INTEGER NOT NULL,
  hash TEXT NOT NULL,
  lines INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT ''
);
CREATE TABLE items(
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL,
  kind INTEGER NOT NULL,              -- kindNames: 0 a passage
  fact_id TEXT,
  confidence REAL,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  day INTEGER NOT NULL DEFAULT 0,       -- YYYYMMDD: the event's first day, else the day written (0 if neither)
  event_end INTEGER NOT NULL DEFAULT 0, -- YYYYMMDD: the event's last day; 0 if the item has no event
  section INTEGER NOT NULL DEFAULT 0,   -- sections.id of its heading; 0 for none
  entities TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL,
  text_hash INTEGER NOT NULL,         -- the text's id in the vector store (vector.TextID)
  status INTEGER NOT NULL DEFAULT 0   -- statusNames: a USER.md entry's mark; 0 none
);
CREATE TABLE sections(id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
CREATE TABLE item_entities(
  slug_key TEXT NOT NULL,
  item_id INTEGER NOT NULL,
  PRIMARY KEY(slug_key, item_id)
) WITHOUT ROWID;
CREATE TABLE entity_pages(
  file_id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL,
  name TEXT NOT NULL,
  aliases TEXT NOT NULL DEFAULT ''
);
CREATE TABLE entity_names(
  key TEXT NOT NULL,
  slug TEXT NOT NULL,
  file_id INTEGER NOT NULL
);
CREATE VIRTUAL TABLE items_fts USING fts5(
  context, content, section, entities,
  content='',
  tokenize='` + ftsTokenizer + `'
);
CREATE VIRTUAL TABLE items_vocab USING fts5vocab(items_fts, row);
`
