package openclaw_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// forgetReport is the part of `openclaw memory forget --json` (Memoria's
// forget report) the test reads.
type forgetReport struct {
	DryRun bool `json:"dry_run"`
	Files  []struct {
		Path  string `json:"path"`
		Lines []struct {
			Line int    `json:"line"`
			Text string `json:"text"`
			Why  string `json:"why"`
		} `json:"lines"`
	} `json:"files"`
	Lines     int    `json:"lines"`
	Tombstone string `json:"tombstone"`
	Record    string `json:"record"`
	Recorded  int    `json:"recorded"`
}

// TestOpenClawForget runs `openclaw memory forget` in the real OpenClaw,
// with the plugin installed as a user installs it, on a copy of the
// example workspace embedded for semantic recall: --dry-run --json
// reports the lines that would go and changes no byte; the forget itself
// (its own memoria serve, as every command has) leaves a tombstone and
// the record, and a running Gateway, whose long-lived memoria serve had
// answered with the line, answers memory_search without it from then on,
// as `openclaw memory recall` does; a citation outside the workspace's
// memory fails with one error line and changes nothing.
func TestOpenClawForget(t *testing.T) {
	if testing.Short() && os.Getenv("MEMORIA_REQUIRE_OPENCLAW") != "1" {
		t.Skip("runs OpenClaw: not in -short")
	}
	r := newRig(t, "examples/workspace")
	e, tl, home, bin, ws := r.e, r.tl, r.home, r.bin, r.ws
	// Vectors too, when the model is installed (CI installs it): the
	// forgotten texts' vectors must go as well.
	run(t, exec.Command(bin, "index", "-w", ws))
	conf, _ := json.Marshal(map[string]any{"binary": bin, "timeoutMs": 120000})
	e.openclaw(t, "config", "set", "plugins.entries.memoria.config", string(conf))
	e.openclaw(t, "config", "set", "plugins.entries.memory-core.enabled", "false")

	const (
		log    = "memory/2025-10-13.md"
		secret = "Biscuit stays at The-Castle with Ingrid while Peter is in Lisbon"
		query  = "where does Biscuit stay during the Lisbon trip?"
	)
	line := lineOf(t, ws, log, secret)
	cite := log + "#L" + strconv.Itoa(line) + "-L" + strconv.Itoa(line+1)
	before, err := os.ReadFile(filepath.Join(ws, log))
	if err != nil {
		t.Fatal(err)
	}
	says := func(hs []hit) bool {
		for _, h := range hs {
			if strings.Contains(h.Snippet, secret) {
				return true
			}
		}
		return false
	}

	g := startGateway(t, e)
	d, _ := g.invoke(t, "memory_search", map[string]any{"query": query, "maxResults": 10})
	if !says(hitsOf(t, d)) {
		t.Fatalf("before forgetting, memory_search does not find the line: %v", d)
	}

	out := e.openclaw(t, "memory", "forget", cite, "--dry-run", "--json")
	var dry forgetReport
	if err := json.Unmarshal([]byte(out), &dry); err != nil || !dry.DryRun || dry.Lines != 2 || len(dry.Files) != 1 ||
		dry.Files[0].Path != log || dry.Files[0].Lines[0].Line != line || !strings.Contains(dry.Files[0].Lines[0].Text, secret) {
		t.Fatalf("forget --dry-run --json: %v\n%s", err, out)
	}
	if now, _ := os.ReadFile(filepath.Join(ws, log)); !bytes.Equal(now, before) {
		t.Fatal("the dry run changed the log")
	}
	if _, err := os.Stat(filepath.Join(ws, "forgotten.md")); !os.IsNotExist(err) {
		t.Fatalf("the dry run wrote the record: %v", err)
	}

	out = e.openclaw(t, "memory", "forget", cite, "--reason", "Peter asked", "--json")
	var rep forgetReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.DryRun || rep.Lines != 2 || rep.Recorded != 2 || rep.Record != "forgotten.md" {
		t.Fatalf("forget: %v\n%s", err, out)
	}
	if got := fileLines(t, ws, log, line, line)[0]; !strings.HasPrefix(got, "<!-- forgotten ") || !strings.HasSuffix(got, ": Peter asked -->") {
		t.Errorf("line %d of %s after forget: %q", line, log, got)
	}
	record, _ := os.ReadFile(filepath.Join(ws, "forgotten.md"))
	if strings.Count(string(record), "\n- ") != 2 || strings.Contains(string(record), "Ingrid") {
		t.Errorf("forgotten.md:\n%s", record)
	}

	d, _ = g.invoke(t, "memory_search", map[string]any{"query": query, "maxResults": 10})
	if says(hitsOf(t, d)) {
		t.Errorf("the Gateway's memory_search still finds the forgotten line: %v", d)
	}
	out = e.openclaw(t, "memory", "recall", query, "--k", "25", "--json")
	if says(hitsOf(t, json.RawMessage(out))) {
		t.Errorf("openclaw memory recall still finds the forgotten line:\n%s", out)
	}

	after, _ := os.ReadFile(filepath.Join(ws, log))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c := e.cmd(ctx, home, tl.node, tl.openclaw, "memory", "forget", "../../etc/passwd#L1")
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Run(); err == nil || !strings.Contains(stderr.String(), "not a memory file") || strings.Count(stderr.String(), "memoria: ") != 1 {
		t.Errorf("forget outside the workspace: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	if now, _ := os.ReadFile(filepath.Join(ws, log)); !bytes.Equal(now, after) {
		t.Error("a refused forget changed the log")
	}
}
