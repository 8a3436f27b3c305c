package memoria_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"memoria"
)

// newExampleWorkspace makes an empty workspace folder for an example.
func newExampleWorkspace() (string, func()) {
	dir, err := os.MkdirTemp("", "memoria-example-")
	if err != nil {
		panic(err)
	}
	return dir, func() { os.RemoveAll(dir) }
}

func ExampleWorkspace_Retain() {
	dir, cleanup := newExampleWorkspace()
	defer cleanup()
	ctx := context.Background()
	ws, err := memoria.Open(ctx, dir, memoria.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ws.Close()

	day := time.Date(2025, 11, 27, 0, 0, 0, 0, time.UTC)
	res, err := ws.Retain(ctx, []string{
		"W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.",
		"O(c=0.95) @Peter: Prefers concise replies on WhatsApp.",
	}, memoria.RetainOptions{Date: day})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range res.Added {
		fmt.Println(a.Source)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "memory", "2025-11-27.md"))
	fmt.Print(string(data))

	// Bad input writes nothing and says why in one line.
	_, err = ws.Retain(ctx, []string{"O(c=1.7) @Peter: Very sure."}, memoria.RetainOptions{Date: day})
	fmt.Println(err)

	// The index is up to date: recall finds the new fact at once.
	hits, _ := ws.Recall(ctx, "concise replies", memoria.RecallOptions{K: 1})
	fmt.Println(hits[0].Source)
	// Output:
	// memory/2025-11-27.md#L4
	// memory/2025-11-27.md#L5
	// # 2025-11-27
	//
	// ## Retain
	// - W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.
	// - O(c=0.95) @Peter: Prefers concise replies on WhatsApp.
	// c=1.7: confidence must be between 0 and 1
	// memory/2025-11-27.md#L5
}

func ExampleWorkspace_CoreAppend() {
	dir, cleanup := newExampleWorkspace()
	defer cleanup()
	ctx := context.Background()
	os.WriteFile(filepath.Join(dir, "memory.md"), []byte("# Core memory\n\n## About\n- Name: Peter\n\n## Preferences\n- Tea, no sugar.\n"), 0o644)
	ws, err := memoria.Open(ctx, dir, memoria.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ws.Close()

	if err := ws.CoreAppend(ctx, "About", "- City: Vienna", memoria.CoreOptions{}); err != nil {
		fmt.Println(err)
	}
	if err := ws.CoreReplace(ctx, "Preferences", "Tea, no sugar.", "Green tea, no sugar.", memoria.CoreOptions{}); err != nil {
		fmt.Println(err)
	}
	// Replace needs text that occurs exactly once in the block.
	fmt.Println(ws.CoreReplace(ctx, "Preferences", "Coffee", "Tea", memoria.CoreOptions{}))
	block, _ := ws.CoreShow("about")
	fmt.Println(block)
	block, _ = ws.CoreShow("Preferences")
	fmt.Println(block)
	// Output:
	// memory.md: text not found: "Coffee" is not in block "Preferences" (it must match exactly, case and spaces included; see `memoria core show Preferences`)
	// ## About
	// - Name: Peter
	// - City: Vienna
	// ## Preferences
	// - Green tea, no sugar.
}

func ExampleWorkspace_InferFacts() {
	dir, cleanup := newExampleWorkspace()
	defer cleanup()
	ctx := context.Background()
	os.MkdirAll(filepath.Join(dir, "memory"), 0o755)
	os.WriteFile(filepath.Join(dir, "memory", "2025-10-01.md"), []byte("# 2025-10-01\n\n@Peter called today. He decided to move @warelay to a Hetzner VPS.\n"), 0o644)
	ws, err := memoria.Open(ctx, dir, memoria.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ws.Close()

	// Proposals go to a review file, never straight into a log.
	res, err := ws.InferFacts(ctx, memoria.InferOptions{Now: time.Date(2025, 10, 2, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range res.Proposals {
		fmt.Println(p)
	}
	// A person ticks it ([x]); accepting moves it into the log.
	review := filepath.Join(dir, filepath.FromSlash(res.Review))
	data, _ := os.ReadFile(review)
	os.WriteFile(review, []byte(replaceFirst(string(data), "- [ ]", "- [x]")), 0o644)
	acc, err := ws.AcceptProposals(ctx, memoria.AcceptOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(acc.Accepted[0].Source, acc.Accepted[0].Bullet)
	// Output:
	// - [ ] W @Peter @warelay: Peter decided to move @warelay to a Hetzner VPS. (from memory/2025-10-01.md#L3)
	// memory/2025-10-01.md#L6 - W @Peter @warelay: Peter decided to move @warelay to a Hetzner VPS.
}

func replaceFirst(s, old, new string) string {
	for i := 0; i+len(old) <= len(s); i++ {
		if s[i:i+len(old)] == old {
			return s[:i] + new + s[i+len(old):]
		}
	}
	return s
}
