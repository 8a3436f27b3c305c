package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"memoria"
	"memoria/internal/testworkspace"
)

// recallEnv is a test environment with the variables in vars, whose
// background starts are recorded in started.
func recallEnv(t *testing.T, home string, vars map[string]string, started *[][]string) (*env, *bytes.Buffer, *bytes.Buffer) {
	var stdout, stderr bytes.Buffer
	e := &env{
		stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""),
		getenv: func(k string) string { return vars[k] },
		home:   func() (string, error) { return home, nil },
	}
	if started != nil {
		e.background = func(args []string) error {
			*started = append(*started, args)
			return nil
		}
	}
	return e, &stdout, &stderr
}

// TestRecallServer: a recall that answered by itself asks for a recall
// server; with one listening, recall (and context) gets the same output
// from it, in every format, and sees edits made since the server started. A second
// server for the same index does not start; a client of another
// environment, or an index replaced by a rebuild, makes the server stop,
// and recall answers by itself.
func TestRecallServer(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	home := t.TempDir()
	index := filepath.Join(ws, ".memory", "index.sqlite")
	if code, out, errOut := cli(t, "index", "-w", ws, "--no-embed"); code != exitOK {
		t.Fatalf("index: exit %d, %q %q", code, out, errOut)
	}
	noServer := map[string]string{"MEMORIA_NO_SERVER": "1"}
	cliOut := func(vars map[string]string, command string, args ...string) (string, string, [][]string) {
		t.Helper()
		var started [][]string
		e, stdout, stderr := recallEnv(t, home, vars, &started)
		if code := run(context.Background(), e, append([]string{command, "-w", ws}, args...)); code != exitOK {
			t.Fatalf("%s %q: exit %d: %s", command, args, code, stderr)
		}
		return stdout.String(), stderr.String(), started
	}
	recallOut := func(vars map[string]string, args ...string) (string, string, [][]string) {
		t.Helper()
		return cliOut(vars, "recall", args...)
	}
	// Each command's output without a server, to compare with the server's.
	commands := []struct {
		command string
		queries [][]string
		direct  []string
	}{
		{command: "recall", queries: [][]string{
			{"Peter", "--json"},
			{"who looks after the dog when Pete travels?"},
			{"--format", "compact", "--k", "5", "--kind", "opinion", "WhatsApp"},
			{"--since", "2025-11-01", "--until", "2025-11-30", "--now", "2025-12-01", "--explain", "travel"},
		}},
		{command: "context", queries: [][]string{
			{"what does Peter prefer?"},
			{"--json", "--budget", "300", "travel"},
			{"--kind", "opinion", "--now", "2025-12-01", "--since", "30d"},
		}},
	}
	for k, sc := range commands {
		for _, q := range sc.queries {
			out, _, started := cliOut(noServer, sc.command, q...)
			if len(started) != 0 {
				t.Errorf("%s, MEMORIA_NO_SERVER: started %q", sc.command, started)
			}
			commands[k].direct = append(commands[k].direct, out)
		}
	}
	if _, _, started := cliOut(nil, "context", "Peter"); len(started) == 0 {
		t.Error("a context that answered by itself asked for no server")
	}
	_, _, started := recallOut(nil, "Peter")
	want := []string{"recall-server", "--workspace", ws, "--index", index}
	if !slices.ContainsFunc(started, func(a []string) bool { return slices.Equal(a, want) }) {
		t.Fatalf("started %q, want %q among them", started, want)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	se, _, _ := recallEnv(t, home, nil, nil)
	c := common{workspace: ws}
	s, err := startRecallServer(ctx, se, &c)
	if err != nil || s == nil {
		t.Fatalf("start: %v, %v", s, err)
	}
	served := make(chan error, 1)
	go func() { served <- s.serve(ctx, time.NewTimer(time.Hour), time.Hour) }()
	defer func() {
		cancel()
		<-served
		s.close()
	}()
	if fi, err := os.Stat(s.socket); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket: %v, %v", fi, err)
	}
	// A second server for the same index leaves at once.
	if s2, err := startRecallServer(ctx, se, &common{workspace: ws}); s2 != nil || err != nil {
		t.Fatalf("second server: %v, %v", s2, err)
	}

	for _, sc := range commands {
		for i, q := range sc.queries {
			before := s.served.Load()
			out, _, started := cliOut(nil, sc.command, q...)
			if s.served.Load() != before+1 {
				t.Fatalf("%s %q: not answered by the server", sc.command, q)
			}
			if out != sc.direct[i] {
				t.Errorf("%s %q: from the server\n%s\nby itself\n%s", sc.command, q, out, sc.direct[i])
			}
			if len(started) != 0 {
				t.Errorf("%s %q: with a server running, started %q", sc.command, q, started)
			}
		}
	}
	// An edit made after the server started is seen at once.
	appendText(t, filepath.Join(ws, "memory", "2025-11-27.md"), "\nPeter took the aardvark to Zurich.\n")
	if out, _, _ := recallOut(nil, "aardvark"); !strings.Contains(out, "aardvark") {
		t.Errorf("edit not seen through the server: %q", out)
	}
	// So is a file the workspace cannot index, with its warning.
	if err := os.WriteFile(filepath.Join(ws, "memory", "2025-11-28.md"), []byte("bad \xff\xfe bytes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := s.served.Load()
	if _, errOut, _ := recallOut(nil, "aardvark"); s.served.Load() != before+1 || !strings.Contains(errOut, "warning: memory/2025-11-28.md") {
		t.Errorf("warning through the server: %q", errOut)
	}

	// A client of another environment: refused, the server stops, and the
	// client answers by itself.
	before = s.served.Load()
	other := map[string]string{"MEMORIA_MODEL_DIR": t.TempDir()}
	e, _, _ := recallEnv(t, home, other, nil)
	if _, ok := recallViaServer(e, &common{workspace: ws}, "Peter", memoria.RecallOptions{}); ok {
		t.Error("a server answered a client of another environment")
	}
	if err := <-served; err != nil {
		t.Errorf("serve: %v", err)
	}
	served <- nil // for the deferred wait
	now, _, _ := recallOut(noServer, "Peter", "--json")
	if out, _, _ := recallOut(other, "Peter", "--json"); out != now || s.served.Load() != before {
		t.Errorf("after the refusal: %q", out)
	}
}

// TestRecallServerStopsForARebuild: `memoria index --rebuild` asks the
// server to exit (it keeps the index open, which a rebuild waits for),
// and an index renamed over by a rebuild that did not ask (the library's)
// is not the one a server has open.
func TestRecallServerStopsForARebuild(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	home := t.TempDir()
	if code, _, errOut := cli(t, "index", "-w", ws, "--no-embed"); code != exitOK {
		t.Fatal(errOut)
	}
	ctx := context.Background()
	se, _, _ := recallEnv(t, home, nil, nil)
	s, err := startRecallServer(ctx, se, &common{workspace: ws})
	if err != nil || s == nil {
		t.Fatalf("start: %v, %v", s, err)
	}
	served := make(chan error, 1)
	go func() {
		served <- s.serve(ctx, time.NewTimer(time.Hour), time.Hour)
		s.close() // as runRecallServer does
	}()
	if code, _, errOut := cli(t, "index", "-w", ws, "--rebuild", "--no-embed"); code != exitOK {
		t.Fatal(errOut)
	}
	if err := <-served; err != nil {
		t.Errorf("serve: %v", err)
	}

	s, err = startRecallServer(ctx, se, &common{workspace: ws})
	if err != nil || s == nil {
		t.Fatalf("restart: %v, %v", s, err)
	}
	go func() {
		served <- s.serve(ctx, time.NewTimer(time.Hour), time.Hour)
		s.close()
	}()
	// A rebuild that does not ask the server first (another program's)
	// swaps the file under it; here it is swapped by hand.
	index := filepath.Join(ws, ".memory", "index.sqlite")
	data, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(index+".new", data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(index+".new", index); err != nil {
		t.Fatal(err)
	}
	e, _, _ := recallEnv(t, home, nil, nil)
	if _, ok := recallViaServer(e, &common{workspace: ws}, "Peter", memoria.RecallOptions{}); ok {
		t.Error("the server answered from a replaced index")
	}
	if err := <-served; err != nil {
		t.Errorf("serve: %v", err)
	}
}

// TestRecallServerIdle: a server whose idle timer fires exits.
func TestRecallServerIdle(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	ctx := context.Background()
	se, _, _ := recallEnv(t, t.TempDir(), nil, nil)
	s, err := startRecallServer(ctx, se, &common{workspace: ws})
	if err != nil || s == nil {
		t.Fatalf("start: %v, %v", s, err)
	}
	defer s.close()
	timer := time.NewTimer(time.Hour)
	timer.Reset(0) // already idle for its whole allowance
	if err := s.serve(ctx, timer, time.Hour); err != nil {
		t.Fatal(err)
	}
}

func TestWarningBuffer(t *testing.T) {
	var w warningBuffer
	w.Write([]byte("warning: a\nwarn"))
	w.Write([]byte("ing: b\nother\n"))
	if got := w.take(); !slices.Equal(got, []string{"a", "b", "other"}) {
		t.Errorf("take = %q", got)
	}
	if got := w.take(); got != nil {
		t.Errorf("second take = %q", got)
	}
}
