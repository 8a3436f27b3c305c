package main

import (
	"encoding/json"
	"strings"
	"testing"

	"memoria/internal/pgtest"
	"memoria/internal/testworkspace"
)

// TestSharedIndex runs the commands on an index in PostgreSQL, given by
// --index and by MEMORIA_INDEX_URL: they build, answer, write and report
// as on SQLite, and a database that is not there is one line and exit 1.
func TestSharedIndex(t *testing.T) {
	url := pgtest.NewAppDatabase(t)
	ws := testworkspace.CopyExample(t)
	code, out, errOut := cli(t, "index", "-w", ws, "--index", url, "--no-embed")
	if code != exitOK || !strings.Contains(out, "index built") {
		t.Fatalf("index: %d %q %q", code, out, errOut)
	}
	code, out, errOut = cli(t, "recall", "-w", ws, "--index", url, "--lexical", "--json", "--k", "3", "--now", "2025-12-01T09:00", "what does Peter prefer on WhatsApp?")
	var res []struct{ Source, Content string }
	if code != exitOK || json.Unmarshal([]byte(out), &res) != nil || len(res) == 0 || !strings.Contains(res[0].Content, "WhatsApp") {
		t.Fatalf("recall: %d %q %q", code, out, errOut)
	}
	code, out, errOut = cli(t, "retain", "-w", ws, "--index", url, "--now", "2025-12-01T09:00", "W @Peter: Peter keeps the spare relay key in the red tin.")
	if code != exitOK {
		t.Fatalf("retain: %d %q %q", code, out, errOut)
	}
	// Top 3: SQLite, and PostgreSQL since it ranks by bm25 too, put
	// first a line about "the relay" (an alias of warelay) that says
	// "spare", found by the entity channel as well.
	code, out, _ = cli(t, "recall", "-w", ws, "--index", url, "--lexical", "--json", "--k", "3", "--now", "2025-12-01T09:00", "where is the spare relay key?")
	if code != exitOK || !strings.Contains(out, "red tin") || !strings.Contains(out, "memory/2025-12-01.md#L") {
		t.Errorf("recall after retain: %d %q", code, out)
	}
	code, out, errOut = cli(t, "status", "-w", ws, "--index", url, "--json")
	var st map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &st) != nil || st["backend"] != "postgres" || st["pending"] != 0.0 || strings.Contains(out, "index.sqlite") {
		t.Errorf("status: %d %q %q", code, out, errOut)
	}
	if code, out, errOut = cli(t, "index", "-w", ws, "--index", url, "--rebuild", "--no-embed"); code != exitOK {
		t.Errorf("index --rebuild: %d %q %q", code, out, errOut)
	}
	code, _, errOut = cli(t, "status", "-w", ws, "--index", "postgres://nobody@127.0.0.1:1/none?connect_timeout=1")
	if code != exitError || strings.Count(strings.TrimSpace(errOut), "\n") > 1 || !strings.Contains(errOut, "127.0.0.1:1") {
		t.Errorf("no database there: %d %q", code, errOut)
	}
}
