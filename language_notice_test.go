package memoria_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"memoria"
)

// TestEnglishOnlyModelOnOtherLanguages: a workspace whose logs are mostly
// not in English, recalled with an English-only model's semantic channel,
// gets a notice saying so, once; an English workspace gets none.
func TestEnglishOnlyModelOnOtherLanguages(t *testing.T) {
	t.Parallel()
	model, err := memoria.DefaultEmbedder()
	if err != nil {
		if os.Getenv("MEMORIA_REQUIRE_MODEL") != "" {
			t.Fatal(err)
		}
		t.Skipf("the embedding model is not installed: %v", err)
	}
	for _, tc := range []struct {
		name   string
		lines  []string
		notice bool
	}{
		{"mostly German and Chinese", []string{
			"Die Rechnung für den Kunden ist noch nicht bezahlt, wir warten auf die Überweisung.",
			"Heute haben wir mit dem neuen Server angefangen und die Daten kopiert.",
			"和客户开会，讨论了新的报价和交付时间。",
			"明天北京天气很好，我们去爬山。",
			"We shipped the release.",
		}, true},
		{"English", []string{
			"The invoice for the client is still unpaid; we wait for the transfer.",
			"Started on the new server today and copied the data across.",
			"Met the client about the new quote and the delivery dates.",
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "memory"), 0o755)
			text := "# 2026-01-10\n\n" + strings.Join(tc.lines, "\n\n") + "\n"
			os.WriteFile(filepath.Join(dir, "memory", "2026-01-10.md"), []byte(text), 0o644)
			var mu sync.Mutex
			var warnings []string
			ws, err := memoria.Open(context.Background(), dir, memoria.Options{Embedder: model, Warn: func(m string) {
				mu.Lock()
				warnings = append(warnings, m)
				mu.Unlock()
			}})
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			ctx := context.Background()
			if _, err := ws.Embed(ctx, model, nil); err != nil {
				t.Fatal(err)
			}
			for range 2 {
				if _, err := ws.Recall(ctx, "server", memoria.RecallOptions{Now: now}); err != nil {
					t.Fatal(err)
				}
			}
			n := 0
			for _, w := range warnings {
				if strings.Contains(w, "not in English") {
					n++
				}
			}
			if want := map[bool]int{true: 1, false: 0}[tc.notice]; n != want {
				t.Errorf("%d notices, want %d: %q", n, want, warnings)
			}
		})
	}
}
