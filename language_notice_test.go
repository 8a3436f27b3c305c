package memoria_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"memoria"
	"memoria/embed/models"
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
			// The notice names the model that reads them: e5, to embed with
			// when installed (IndexEmbedder picks it), else to install.
			if tc.notice && n == 1 && !slices.ContainsFunc(warnings, func(w string) bool {
				return strings.Contains(w, "embeds them again with e5") || strings.Contains(w, "memoria model install e5")
			}) {
				t.Errorf("the notice does not name e5: %q", warnings)
			}
		})
	}
}

// TestIndexEmbedderReadsTheWorkspace: `memoria index` embeds a workspace whose
// newest lines are mostly not in English with the multilingual model when it is
// installed, and an English one with the first installed model.
func TestIndexEmbedderReadsTheWorkspace(t *testing.T) {
	t.Parallel()
	e5, err := models.Lookup("e5")
	if err != nil {
		t.Fatal(err)
	}
	if !e5.Installed("") {
		if os.Getenv("MEMORIA_REQUIRE_MODEL") != "" {
			t.Fatal("e5 is not installed (memoria model install e5)")
		}
		t.Skip("e5 is not installed")
	}
	first, _, err := models.Selected("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, text string
		want       models.Model
	}{
		{"German", "Die Heizung im Bad ist wieder kalt; der Installateur kommt am Donnerstag.\n\nOma hat angerufen, sie braucht neue Brillengläser.", e5},
		{"English", "The bathroom heating is cold again; the plumber comes on Thursday.\n\nGran called, she needs new lenses.", first},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "memory"), 0o755)
			os.WriteFile(filepath.Join(dir, "memory", "2026-01-10.md"), []byte("# 2026-01-10\n\n"+tc.text+"\n"), 0o644)
			ws, err := memoria.Open(context.Background(), dir, memoria.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			e, err := ws.IndexEmbedder(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if e.Identity() != tc.want.Identity {
				t.Errorf("IndexEmbedder = %s, want %s (%s)", e.Identity(), tc.want.Identity, tc.want.Name)
			}
		})
	}
}
