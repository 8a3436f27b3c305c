package sqlite

import (
	"context"
	"testing"

	"memoria/memory"
)

func TestTermStats(t *testing.T) {
	ix := openTest(t, testWorkspace(t), Options{})
	st, total, err := ix.TermStats(context.Background(), []string{"Marrakech", "running", "zzz", "connection.update", "vet's"})
	if err != nil {
		t.Fatal(err)
	}
	if total != 6 {
		t.Errorf("total %d", total)
	}
	want := []memory.TermStat{{Word: "Marrakech", Stem: "marrakech", Rows: 1}, {Word: "running", Stem: "run", Rows: 0}, {Word: "zzz", Stem: "zzz", Rows: 0}, {Word: "connection.update", Stem: "connect", Rows: 0}, {Word: "vet's", Stem: "vet", Rows: 1}}
	for i := range want {
		if st[i] != want[i] {
			t.Errorf("%d: got %+v, want %+v", i, st[i], want[i])
		}
	}
}
