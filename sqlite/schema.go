package sqlite

import (
	"crypto/sha256"
	"fmt"

	"memoria/markdown"
)

// SchemaVersion changes whenever the tables or the way Markdown is cut into
// items change; an index of another version is rebuilt.
const SchemaVersion = 1

// applicationID marks a SQLite file as Memoria's ("MEMO"), so a foreign
// database at the index path is recognised and replaced, not misread.
const applicationID = 0x4d454d4f

// identity is stored in meta; any difference forces a rebuild.
// It covers the schema text and the full-text fill, so that changing
// either during development also rebuilds existing indexes.
func identity(o Options) string {
	sum := sha256.Sum256([]byte(schema + indexes + ftsInsert + ftsWindow))
	return fmt.Sprintf("schema=%d/%x parser=%d passage_lines=%d alt=%d", SchemaVersion, sum[:4], markdown.Version, o.passageLines(), altVersion)
}

// indexes are the secondary indexes. Each serves a query (EXPLAIN QUERY
// PLAN): items_file the deletion of a file's items and Nearby,
// items_written and items_event the date filter (a MULTI-INDEX OR),
// items_day the listing by day, items_text_hash the vector lookups; no
// query looks items up by fact_id.
const indexes = orderedIndexes + laterIndexes

// orderedIndexes are created before a build inserts the items. It writes
// them in path order, which is file-row order and, for the daily logs,
// date order, so these B-trees grow at their right-hand edge as the rows
// come: the work is spread over the insert, which shares the CPUs with
// the tokenizing, instead of four sorts of every item after it (a 10-year
// build ended 0.12-0.2 s sooner).
const orderedIndexes = `
CREATE INDEX items_file ON items(file_id, start_line);
CREATE INDEX items_written ON items(written);
CREATE INDEX items_event ON items(event_start, event_end) WHERE event_start != '';
CREATE INDEX items_day ON items(coalesce(nullif(event_start, ''), written));`

// laterIndexes are created once the tables are full: their keys come in
// no order (text hashes), and building a B-tree from sorted data costs
// much less than inserting into it at random.
const laterIndexes = `
CREATE INDEX items_text_hash ON items(text_hash);
CREATE INDEX item_entities_item ON item_entities(item_id);
CREATE INDEX entity_names_key ON entity_names(key);
CREATE INDEX entity_names_file ON entity_names(file_id);
`

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
  kind TEXT NOT NULL,
  fact_id TEXT,
  confidence REAL,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  written TEXT NOT NULL DEFAULT '',
  event_start TEXT NOT NULL DEFAULT '',
  event_end TEXT NOT NULL DEFAULT '',
  section TEXT NOT NULL DEFAULT '',
  entities TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL,
  text_hash TEXT NOT NULL,
  alt TEXT NOT NULL DEFAULT ''
);
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
  content, section, entities, context,
  content='', contentless_delete=1,
  tokenize='porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE items_vocab USING fts5vocab(items_fts, row);
`
