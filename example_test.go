package memoria_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"memoria"
)

// A workspace is a folder of Markdown; Open indexes it and Recall answers
// from it, each result citing the lines it came from.
func Example() {
	dir, _ := os.MkdirTemp("", "memoria-example-")
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "memory"), 0o755)
	os.WriteFile(filepath.Join(dir, "memory", "2025-11-27.md"), []byte(`# 2025-11-27

Fixed the websocket crash in warelay this morning.

## Retain
- O(c=0.9) @Peter: Prefers concise replies on WhatsApp.
`), 0o644)

	ctx := context.Background()
	ws, err := memoria.Open(ctx, dir, memoria.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ws.Close()
	results, err := ws.Recall(ctx, "how does Peter like his replies?", memoria.RecallOptions{
		K:   1,
		Now: time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range results {
		fmt.Printf("%s %s c=%.2f %v: %s\n", r.Source, r.Kind, *r.Confidence, r.Entities, r.Content)
	}
	// Output:
	// memory/2025-11-27.md#L6 opinion c=0.90 [Peter]: Prefers concise replies on WhatsApp.
}

// Get reads cited lines back from the Markdown.
func ExampleWorkspace_Get() {
	dir, _ := os.MkdirTemp("", "memoria-example-")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "memory.md"), []byte("# Core\n\n## Preferences\n- Tea, not coffee.\n"), 0o644)
	ws, err := memoria.Open(context.Background(), dir, memoria.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ws.Close()
	lines, err := ws.Get("memory.md#L3-L4")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(lines.Source)
	fmt.Println(lines.Text)
	// Output:
	// memory.md#L3-L4
	// ## Preferences
	// - Tea, not coffee.
}

// Context is what an agent injects at the start of a turn: core memory,
// then the best recall for the query, within a token budget.
func ExampleWorkspace_Context() {
	dir, _ := os.MkdirTemp("", "memoria-example-")
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "memory"), 0o755)
	os.WriteFile(filepath.Join(dir, "memory.md"), []byte("# Core\n\n## Preferences\n- Tea, not coffee.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "memory", "2025-11-27.md"), []byte("# 2025-11-27\n\nBooked the dentist for Dec 3.\n"), 0o644)
	ws, err := memoria.Open(context.Background(), dir, memoria.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ws.Close()
	tc, err := ws.Context(context.Background(), "dentist", memoria.ContextOptions{
		Budget: 300,
		Recall: memoria.RecallOptions{Now: time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC), Lexical: true},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tc.Tokens <= 300, tc.Results[0].Source)
	// Output:
	// true memory/2025-11-27.md#L3
}

// Reflect turns the facts of the logs into entity pages and opinions; a
// dry run shows the diff and writes nothing.
func ExampleWorkspace_Reflect() {
	dir, _ := os.MkdirTemp("", "memoria-example-")
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "memory"), 0o755)
	os.WriteFile(filepath.Join(dir, "memory", "2025-11-27.md"), []byte(`# 2025-11-27

## Retain
- O(c=0.8) @Peter: Prefers concise replies on WhatsApp.
`), 0o644)
	ws, err := memoria.Open(context.Background(), dir, memoria.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ws.Close()
	rep, err := ws.Reflect(context.Background(), memoria.ReflectOptions{DryRun: true, Now: time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Changed)
	_, statErr := os.Stat(filepath.Join(dir, "bank", "opinions.md"))
	fmt.Println(os.IsNotExist(statErr))
	// Output:
	// [bank/opinions.md]
	// true
}

// A long-lived program (a server, an agent loop) keeps one Workspace open
// and recalls many times: each Recall sees every change to the Markdown
// made before it.
func ExampleWorkspace_Recall_longLived() {
	dir, _ := os.MkdirTemp("", "memoria-example-")
	defer os.RemoveAll(dir)
	log := filepath.Join(dir, "memory", "2025-11-27.md")
	os.MkdirAll(filepath.Dir(log), 0o755)
	os.WriteFile(log, []byte("# 2025-11-27\n\nBooked the train to Graz.\n"), 0o644)

	ctx := context.Background()
	ws, err := memoria.Open(ctx, dir, memoria.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ws.Close()
	opts := memoria.RecallOptions{K: 1, Lexical: true, Now: time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC)}
	for _, q := range []string{"train", "ferry"} {
		res, _ := ws.Recall(ctx, q, opts)
		fmt.Println(q, len(res))
	}
	// A line added later is found by the next recall.
	os.WriteFile(log, []byte("# 2025-11-27\n\nBooked the train to Graz.\nThe ferry leaves at nine.\n"), 0o644)
	res, _ := ws.Recall(ctx, "ferry", opts)
	fmt.Println(res[0].Source, res[0].Content)
	// Output:
	// train 1
	// ferry 0
	// memory/2025-11-27.md#L3-L4 Booked the train to Graz.
	// The ferry leaves at nine.
}
