package sqlite

import (
	"context"
	"testing"
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
	want := []TermStat{{"Marrakech", "marrakech", 1}, {"running", "run", 0}, {"zzz", "zzz", 0}, {"connection.update", "connect", 0}, {"vet's", "vet", 1}}
	for i := range want {
		if st[i] != want[i] {
			t.Errorf("%d: got %+v, want %+v", i, st[i], want[i])
		}
	}
}
