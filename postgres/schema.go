package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// migrations are the schema's versions, applied in order, each in its own
// transaction under an advisory lock, so that servers starting together
// against a new database migrate it once. The version reached is kept in
// memoria_schema; a database of a later version than this code knows is
// refused rather than misread. A migration is never edited once released;
// a change is a new one.
var migrations = []string{
	// 1: the tables. Every row belongs to a workspace (ws), and every
	// query names it: many workspaces share one database. Items are
	// partitioned by workspace (one partition each, made when the
	// workspace is registered), so that a workspace's search reads only
	// its own full-text index and its rebuild only its own rows. The
	// full-text index takes new rows into a pending list that a later
	// insert merges: 512 kB of it at most (PostgreSQL's default is 4 MB,
	// a merge of a second inside a one-line retain).
	`
CREATE TABLE memoria_workspaces(
  id bigserial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  identity text NOT NULL DEFAULT '',     -- how its rows were made (ingest, parser, passage lines)
  generation bigint NOT NULL DEFAULT 0,  -- bumped by every sync that changes it
  items bigint NOT NULL DEFAULT 0,       -- items in the workspace, kept by the writer
  built timestamptz,
  synced timestamptz,
  vector_model text NOT NULL DEFAULT '',
  vector_generation bigint NOT NULL DEFAULT 0
);
CREATE TABLE memoria_files(
  ws bigint NOT NULL REFERENCES memoria_workspaces(id) ON DELETE CASCADE,
  id bigserial,
  path text NOT NULL,
  kind text NOT NULL,
  day text NOT NULL DEFAULT '',
  size bigint NOT NULL,
  mtime bigint NOT NULL,
  hash text NOT NULL,
  lines int NOT NULL,
  status text NOT NULL DEFAULT '',
  PRIMARY KEY (ws, id),
  UNIQUE (ws, path)
);
CREATE TABLE memoria_items(
  ws bigint NOT NULL,
  id bigserial,
  file_id bigint NOT NULL,
  kind text NOT NULL,
  fact_id text,
  confidence double precision,
  start_line int NOT NULL,
  end_line int NOT NULL,
  day text NOT NULL DEFAULT '',
  event_end text NOT NULL DEFAULT '',
  section text NOT NULL DEFAULT '',
  entities text NOT NULL DEFAULT '',
  content text NOT NULL,
  text_id bigint NOT NULL,
  tsv tsvector NOT NULL,
  PRIMARY KEY (ws, id)
) PARTITION BY LIST (ws);
CREATE INDEX memoria_items_tsv ON memoria_items USING gin (tsv) WITH (gin_pending_list_limit = 512);
CREATE INDEX memoria_items_file ON memoria_items (ws, file_id, start_line);
CREATE INDEX memoria_items_day ON memoria_items (ws, day);
CREATE INDEX memoria_items_text ON memoria_items (ws, text_id);
CREATE TABLE memoria_item_entities(
  ws bigint NOT NULL,
  slug_key text NOT NULL,
  item_id bigint NOT NULL,
  PRIMARY KEY (ws, slug_key, item_id)
);
CREATE INDEX memoria_item_entities_item ON memoria_item_entities (ws, item_id);
CREATE TABLE memoria_entity_pages(
  ws bigint NOT NULL,
  file_id bigint NOT NULL,
  slug text NOT NULL,
  name text NOT NULL,
  aliases text NOT NULL DEFAULT '',
  PRIMARY KEY (ws, file_id)
);
CREATE TABLE memoria_entity_names(
  ws bigint NOT NULL,
  key text NOT NULL,
  slug text NOT NULL,
  file_id bigint NOT NULL,
  n int NOT NULL  -- its place on the page: slug, name, then the aliases
);
CREATE INDEX memoria_entity_names_key ON memoria_entity_names (ws, key);
CREATE TABLE memoria_vectors(
  ws bigint NOT NULL,
  text_id bigint NOT NULL,
  vec bytea NOT NULL,  -- vector.Encode: a float32 scale and int8 components
  PRIMARY KEY (ws, text_id)
);
`,
	// 2: the text search configuration: PostgreSQL's parser and its
	// English Snowball stemmer, without a stop-word list (recall decides
	// which words matter; a phrase such as "to be or not" must stay
	// searchable), after unaccent (FTS5's remove_diacritics). Other
	// scripts get what package lang adds to the rows (CJK bigrams, folds),
	// which the parser takes as words. memoria_words turns punctuation
	// into spaces before the parser sees the text (rows and queries
	// alike): the parser keeps "scripts/deploy.sh" or "a@b.com" whole, as
	// one token that the word "deploy" does not find, where people (and
	// SQLite's unicode61) take the words apart.
	`
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE FUNCTION memoria_words(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT regexp_replace(t, '[[:punct:]]+', ' ', 'g') $$;
CREATE TEXT SEARCH DICTIONARY memoria_stem (TEMPLATE = snowball, Language = english);
CREATE TEXT SEARCH CONFIGURATION memoria (COPY = pg_catalog.simple);
ALTER TEXT SEARCH CONFIGURATION memoria
  ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart
  WITH unaccent, memoria_stem;
`,
	// 3: row-level security. Every table holding a workspace's text
	// admits only the workspaces named in the transaction's setting
	// memoria.workspaces (a comma-separated list of ids), which the store
	// sets in every transaction it runs: a query that forgets its own
	// "ws =" condition, or a crafted one, still sees nothing of another
	// workspace. FORCE applies it to the tables' owner too; only a
	// superuser (which a deployment should not connect as) bypasses it.
	`
CREATE FUNCTION memoria_allowed() RETURNS bigint[] LANGUAGE sql STABLE AS
$$ SELECT coalesce(string_to_array(nullif(current_setting('memoria.workspaces', true), ''), ',')::bigint[], '{}') $$;
ALTER TABLE memoria_files ENABLE ROW LEVEL SECURITY;
ALTER TABLE memoria_files FORCE ROW LEVEL SECURITY;
CREATE POLICY memoria_ws ON memoria_files USING (ws = ANY (memoria_allowed()));
ALTER TABLE memoria_items ENABLE ROW LEVEL SECURITY;
ALTER TABLE memoria_items FORCE ROW LEVEL SECURITY;
CREATE POLICY memoria_ws ON memoria_items USING (ws = ANY (memoria_allowed()));
ALTER TABLE memoria_item_entities ENABLE ROW LEVEL SECURITY;
ALTER TABLE memoria_item_entities FORCE ROW LEVEL SECURITY;
CREATE POLICY memoria_ws ON memoria_item_entities USING (ws = ANY (memoria_allowed()));
ALTER TABLE memoria_entity_pages ENABLE ROW LEVEL SECURITY;
ALTER TABLE memoria_entity_pages FORCE ROW LEVEL SECURITY;
CREATE POLICY memoria_ws ON memoria_entity_pages USING (ws = ANY (memoria_allowed()));
ALTER TABLE memoria_entity_names ENABLE ROW LEVEL SECURITY;
ALTER TABLE memoria_entity_names FORCE ROW LEVEL SECURITY;
CREATE POLICY memoria_ws ON memoria_entity_names USING (ws = ANY (memoria_allowed()));
ALTER TABLE memoria_vectors ENABLE ROW LEVEL SECURITY;
ALTER TABLE memoria_vectors FORCE ROW LEVEL SECURITY;
CREATE POLICY memoria_ws ON memoria_vectors USING (ws = ANY (memoria_allowed()));
`,
	// 4: lengths, for Search's bm25: each item's length in tokens (the
	// positions of its full-text vector, every column's, as FTS5 counts a
	// row's size) and each workspace's total, kept by the writer as it
	// keeps the item count. Rows written before have none (0): the schema
	// version is part of a workspace's identity, so each is rebuilt when
	// it is next opened with its files.
	`
ALTER TABLE memoria_items ADD COLUMN tokens int NOT NULL DEFAULT 0;
ALTER TABLE memoria_workspaces ADD COLUMN tokens bigint NOT NULL DEFAULT 0;
`,
	// 5: each item's row hash (rowHash: everything its columns and its
	// full-text vector are made of), so that a sync of a changed file
	// rewrites only the items that changed (writer.updateFile) and leaves
	// the others, ids and all. Rows written before have none, and match
	// nothing: their files are rewritten whole once, as before.
	`
ALTER TABLE memoria_items ADD COLUMN row_hash text NOT NULL DEFAULT '';
`,
	// 6: the items with an event, by the event's last day, so that a date
	// filter (where) finds its items by index: the files of its days by
	// their ids, the events that reach into it by this index. Without it,
	// the filter's OR read every item of the workspace. An index only: the
	// rows stay as they are (rowSchema).
	`
CREATE INDEX memoria_items_event ON memoria_items (ws, event_end, day) WHERE event_end != '';
`,
	// 7: each policy reads the allowed workspaces once a statement
	// (wsPolicy) instead of once a row. The rows stay as they are.
	`
DO $$
DECLARE t regclass;
BEGIN
  FOR t IN SELECT polrelid::regclass FROM pg_policy WHERE polname = 'memoria_ws' LOOP
    EXECUTE format('ALTER POLICY memoria_ws ON %s USING (` + wsPolicy + `)', t);
  END LOOP;
END $$;
`,
	// 8: each item's status, the mark of an entry of OpenClaw's user
	// model (USER.md): '', 'active' or 'superseded'. Rows written before
	// have none: the workspaces are rebuilt (rowSchema).
	`
ALTER TABLE memoria_items ADD COLUMN status text NOT NULL DEFAULT '';
`,
}

// wsPolicy is the condition of every table's row-level security policy
// (memoria_ws, migrations 3 and 7; each workspace's partition of the
// items has it too: DB.register). The allowed list is a subquery, which
// PostgreSQL runs once for the statement (an InitPlan); called bare,
// memoria_allowed() was evaluated again for every row read, parsing the
// setting into an array each time: a fifth of a search that ranks 3,400
// rows (docs/team.md).
const wsPolicy = "ws = ANY ((SELECT memoria_allowed())::bigint[])"

// SchemaVersion is the schema version this code writes.
var SchemaVersion = len(migrations)

// migrateLock keys the advisory lock migrations take.
const migrateLock = 0x4d454d4f // "MEMO"

// migrate brings the database's schema to SchemaVersion. A database at
// that version already costs one query and takes no lock.
func migrate(ctx context.Context, conn *pgx.Conn) error {
	return migrateTo(ctx, conn, SchemaVersion)
}

// migrateTo brings the database's schema to version target (the tests
// make a database as an older memoria left it).
func migrateTo(ctx context.Context, conn *pgx.Conn, target int) error {
	var current int
	if err := conn.QueryRow(ctx, `SELECT CASE WHEN to_regclass('memoria_schema') IS NULL THEN 0 ELSE (SELECT coalesce(max(version), 0) FROM memoria_schema) END`).Scan(&current); err == nil && current == target {
		return nil
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrateLock); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS memoria_schema(version int NOT NULL)`); err != nil {
		return err
	}
	var version int
	switch err := tx.QueryRow(ctx, `SELECT version FROM memoria_schema`).Scan(&version); {
	case errors.Is(err, pgx.ErrNoRows):
		if _, err := tx.Exec(ctx, `INSERT INTO memoria_schema VALUES (0)`); err != nil {
			return err
		}
	case err != nil:
		return err
	}
	if version > SchemaVersion {
		return fmt.Errorf("the database has schema version %d; this memoria knows up to %d (upgrade memoria)", version, SchemaVersion)
	}
	for v := version; v < target; v++ {
		if _, err := tx.Exec(ctx, migrations[v]); err != nil {
			return fmt.Errorf("schema version %d: %w", v+1, err)
		}
		if _, err := tx.Exec(ctx, `UPDATE memoria_schema SET version = $1`, v+1); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}

// isRetryable reports whether an error is the connection's or the
// server's going away (a restart, a failover, a network cut) or a
// transaction the server gave up on, after which the same transaction may
// succeed on a new connection. Every transaction of this package is safe
// to run again: a read, or a sync that works out its changes afresh.
func isRetryable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code[:2] {
		case "08", "57": // connection exception; admin shutdown, crash recovery, cannot connect now
			return true
		}
		return pe.Code == "40001" || pe.Code == "40P01" // serialization failure, deadlock
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return pgconn.SafeToRetry(err) || errors.As(err, &ce) || errors.As(err, &ne) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNREFUSED) || strings.Contains(err.Error(), "conn closed")
}
