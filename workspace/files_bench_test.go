package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// benchWorkspace lays out a workspace shaped like years of use: thousands of
// daily logs in memory/ and a hundred entity pages in bank/entities/.
func benchWorkspace(b *testing.B, days, entities int) string {
	b.Helper()
	dir := b.TempDir()
	for _, d := range []string{"memory", "bank/entities"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	put := func(rel string) {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte("# x\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	put("memory.md")
	for _, p := range []string{"bank/world.md", "bank/opinions.md", "bank/experience.md"} {
		put(p)
	}
	start := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range days {
		put("memory/" + start.AddDate(0, 0, i).Format(time.DateOnly) + ".md")
	}
	for i := range entities {
		put(fmt.Sprintf("bank/entities/Person%03d.md", i))
	}
	return dir
}

func BenchmarkList(b *testing.B) {
	const days, entities = 3650, 100
	dir := benchWorkspace(b, days, entities)
	b.ResetTimer()
	for b.Loop() {
		files, _, err := List(dir)
		if err != nil {
			b.Fatal(err)
		}
		if len(files) != 1+3+days+entities {
			b.Fatalf("%d files", len(files))
		}
	}
}
