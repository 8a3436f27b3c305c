package reflect

import (
	"strings"
	"testing"
)

// TestResealTakesTheBlockForReflects: a managed block from which lines
// were removed (memoria forget) and resealed is reflect's own again: the
// next write replaces it instead of keeping it as a hand edit. Pages
// without one well-formed block are left as they are.
func TestResealTakesTheBlockForReflects(t *testing.T) {
	t.Parallel()
	body := []string{"## Summary (memoria)", "", "- 2025-11-27 W: a fact. (memory/2025-11-27.md#L7)", "- 2025-11-26 W: another. (memory/2025-11-26.md#L3)"}
	page, _, err := splice([]byte("# Peter\n\nNotes.\n"), "Peter", body)
	if err != nil {
		t.Fatal(err)
	}
	cut := []byte(strings.Replace(string(page), body[2]+"\n", "", 1))
	if _, edited, _ := splice(cut, "Peter", body); !edited {
		t.Fatal("a block with a line removed is not taken for a hand edit: the test proves nothing")
	}
	sealed := Reseal(cut)
	if _, edited, err := splice(sealed, "Peter", body); edited || err != nil {
		t.Errorf("after Reseal the block is taken for a hand edit (%v):\n%s", err, sealed)
	}
	if string(Reseal(sealed)) != string(sealed) {
		t.Error("Reseal is not idempotent")
	}
	for _, p := range []string{"# Peter\n", "# Peter\n" + BeginMarker + " hash=0 -->\n", string(page) + string(page)} {
		if got := string(Reseal([]byte(p))); got != p {
			t.Errorf("Reseal changed a page without one block:\n%s", got)
		}
	}
}
