package multilingual

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"memoria"
	"memoria/eval"
	"memoria/memory"
)

// TestInflectedTransliteratedWide: issue 43, item 10, end to end through
// the index and recall: a question finds a line that writes its word
// inflected otherwise (a plural, a definite form), transliterated ("ue"
// for "ü") or in full-width letters, and a Chinese, Japanese or Korean
// question naming a day finds that day's line. Before, each of these
// questions found nothing or another day's line.
func TestInflectedTransliteratedWide(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	logs := map[string]string{
		"memory/2025-11-03.md": `# 2025-11-03

Wir haben heute alle Rechnungen für den Umzug an das Steuerbüro geschickt.
Abbiamo pagato le fatture del fornitore di Prato con il bonifico.
Jag har skickat fakturan till kunden i Malmö och hon har betalat den.
Termin mit Frau Müller vom Bauamt wegen der Garage ist am Dienstag.
Die Bestellung ＡＢ－１２３ ist im Lager angekommen, sagt der Händler.
Das Paket XY-789 liegt bei der Post, wir holen es morgen ab.
我们和王伟讨论了新的报价单。
田中さんと新しい見積もりについて話しました。
김 과장님과 새 견적서를 논의했습니다.
`,
		"memory/2025-11-05.md": `# 2025-11-05

Met Jörg Mueller at the hardware store about the new shelves.
我们和李娜讨论了新的网站设计。
佐藤さんと新しいウェブサイトについて話しました。
박 대리님과 새 웹사이트를 논의했습니다.
The weather was grey all day and the train was late.
`,
	}
	for name, text := range logs {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	ws, err := memoria.Open(ctx, dir, memoria.Options{IndexPath: filepath.Join(t.TempDir(), "index.sqlite")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	now := time.Date(2025, 11, 6, 9, 0, 0, 0, time.UTC)
	cases := []struct {
		name, question, want string // want: the line the first results must cite
		top                  int
	}{
		{"German plural", "Wo ist die Rechnung?", "memory/2025-11-03.md#L3", 2},
		{"German plural, one word", "Rechnung", "memory/2025-11-03.md#L3", 1},
		{"Italian plural", "E la fattura?", "memory/2025-11-03.md#L4", 1},
		{"Swedish definite form", "Var är min faktura?", "memory/2025-11-03.md#L5", 1},
		{"transliterated ue for ü", "Wann ist der Termin mit Mueller?", "memory/2025-11-03.md#L6", 1},
		{"ü for transliterated ue", "Müller shelves", "memory/2025-11-05.md#L3", 1},
		{"without the umlaut", "Muller Bauamt", "memory/2025-11-03.md#L6", 1},
		{"ASCII code for full-width", "AB-123", "memory/2025-11-03.md#L7", 1},
		{"full-width code for ASCII", "ＸＹ－７８９", "memory/2025-11-03.md#L8", 1},
		{"Chinese month and day", "11月3日我们讨论了什么？", "memory/2025-11-03.md#L9", 1},
		{"Chinese day alone", "3号我们讨论了什么？", "memory/2025-11-03.md#L9", 1},
		{"Chinese yesterday", "昨天我们讨论了什么？", "memory/2025-11-05.md#L4", 1},
		{"Japanese month and day", "11月3日に何を話しましたか", "memory/2025-11-03.md#L10", 1},
		{"Japanese yesterday", "昨日は何を話しましたか", "memory/2025-11-05.md#L6", 1},
		{"Korean month and day", "11월 3일에 무엇을 논의했나요?", "memory/2025-11-03.md#L11", 1},
	}
	for _, c := range cases {
		res, err := ws.Recall(ctx, c.question, memoria.RecallOptions{K: 5, Now: now, Lexical: true})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		want, _ := memory.ParseSource(c.want)
		var got []string
		found := false
		for i, r := range res {
			s := r.Cite()
			got = append(got, s.String())
			if i < c.top && eval.Hits(s, want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: %q: %s not in the first %d of %v", c.name, c.question, c.want, c.top, got)
		}
	}
}
