package memoria_test

import (
	"context"
	"strings"
	"testing"

	"memoria"
)

// TestQuotedPhrases: a quoted phrase is searched as a phrase (its words
// adjacent and in order) and a quoted word as that word. Quoted words
// used to be searched for not at all: `"fibre"` listed the newest items,
// the first of them without the word, and `"fibre broadband"` ranked
// the line with both words apart over the one that says the phrase. A
// phrase nothing says leaves the question's other words to answer it.
func TestQuotedPhrases(t *testing.T) {
	t.Parallel()
	ws := open(t, workspaceOf(t, map[string]string{
		"memory/2025-11-03.md": "# 2025-11-03\n\nCalled the provider this morning: fibre broadband reaches our street in March, they said, once the council signs off on the roadworks.\n",
		"memory/2025-11-12.md": "# 2025-11-12\n\nBroadband is down again. Broadband fibre is what everyone asks for; the fibre cable sits in the cellar.\n",
		"memory/2025-11-20.md": "# 2025-11-20\n\nThe new kettle arrived; it boils in a minute.\n",
		"memory/2025-11-28.md": "# 2025-11-28\n\nWalked the dog along the canal before breakfast.\n",
	}), nil)
	ctx := context.Background()
	for _, c := range []struct {
		q     string
		first string // what the first result says
		every string // what every result says ("" for no such rule)
	}{
		{q: `"fibre"`, first: "fibre", every: "fibre"},
		{q: `“Fibre”`, first: "fibre", every: "fibre"},
		{q: `"fibre broadband"`, first: "fibre broadband reaches"},
		{q: `what did we say about "fibre broadband"?`, first: "fibre broadband reaches"},
		// Not in order: the phrase in the other order is the other line's.
		{q: `"broadband fibre"`, first: "Broadband fibre is"},
		// A phrase nothing says: its words, and the other words, answer.
		{q: `kettle "copper broadband"`, first: "kettle"},
		{q: `"fibre kettle"`, first: "kettle"},
	} {
		res, err := ws.Recall(ctx, c.q, memoria.RecallOptions{Now: now, Lexical: true, K: 5})
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		if len(res) == 0 || !strings.Contains(strings.ToLower(res[0].Content), strings.ToLower(c.first)) {
			t.Errorf("%s: %s; want %q first", c.q, sourcesAndContent(res), c.first)
		}
		for _, r := range res {
			if c.every != "" && !strings.Contains(strings.ToLower(r.Content), c.every) {
				t.Errorf("%s: %s says no %q", c.q, r.Source, c.every)
			}
		}
	}
	// Without the quotes, the line with both words twice comes first: the
	// quotes are what put the phrase's line first.
	res, err := ws.Recall(ctx, "fibre broadband", memoria.RecallOptions{Now: now, Lexical: true, K: 5})
	if err != nil || len(res) == 0 || !strings.Contains(res[0].Content, "Broadband fibre is") {
		t.Errorf("fibre broadband (unquoted): %s, %v; the test's lines no longer tell the phrase from its words", sourcesAndContent(res), err)
	}
}

// TestQuotedPhraseInCJK: a quoted CJK phrase is found as its adjacent
// bigrams (the tokenizer takes a run of Han as one token, and rows carry
// the bigrams after their text), so the line that says 北京天气 comes
// before the one that says each of its bigrams apart (北京, 南京天气).
func TestQuotedPhraseInCJK(t *testing.T) {
	t.Parallel()
	ws := open(t, workspaceOf(t, map[string]string{
		"memory/2025-11-03.md": "# 2025-11-03\n\n明天北京天气很好，我们去爬山。\n",
		"memory/2025-11-12.md": "# 2025-11-12\n\n北京的朋友说南京天气冷了，北京下雪，南京天气预报说还要冷。\n",
		"memory/2025-11-28.md": "# 2025-11-28\n\n买了一个新水壶。\n",
	}), nil)
	res, err := ws.Recall(context.Background(), `“北京天气”`, memoria.RecallOptions{Now: now, Lexical: true, K: 5})
	if err != nil || len(res) == 0 || !strings.Contains(res[0].Content, "北京天气") {
		t.Errorf("“北京天气”: %s, %v; want the line that says it first", sourcesAndContent(res), err)
	}
	res, err = ws.Recall(context.Background(), `北京天气`, memoria.RecallOptions{Now: now, Lexical: true, K: 5})
	if err != nil || len(res) == 0 || strings.Contains(res[0].Content, "北京天气") {
		t.Errorf("北京天气 (unquoted): %s, %v; the test's lines no longer tell the phrase from its bigrams", sourcesAndContent(res), err)
	}
}

func sourcesAndContent(res []memoria.Result) string {
	var b strings.Builder
	for _, r := range res {
		b.WriteString("\n\t" + r.Source + " " + r.Content)
	}
	if b.Len() == 0 {
		return "no results"
	}
	return b.String()
}
