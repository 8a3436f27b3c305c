package workspace

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"memoria/memory"
)

// walkReference lists the regular Markdown files under dir's memory.md,
// MEMORY.md, bank/ and memory/ the slow, obvious way, for comparison with
// List on a tree without symlinks.
func walkReference(t *testing.T, dir string) []File {
	t.Helper()
	var want []File
	addFile := func(rel string) {
		info, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil || !info.Mode().IsRegular() {
			return
		}
		kind, _, ok := memory.ClassifyPath(rel)
		if !ok {
			return
		}
		want = append(want, File{Rel: rel, Kind: kind, Size: info.Size(), ModTime: info.ModTime().UnixNano()})
	}
	for _, name := range []string{"memory.md", "MEMORY.md", "USER.md", "DREAMS.md", "dreams.md"} {
		addFile(name)
	}
	for _, top := range []string{"bank", "memory"} {
		err := filepath.WalkDir(filepath.Join(dir, top), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(strings.ToLower(d.Name()), ".md") && len(d.Name()) > 3 {
				rel, _ := filepath.Rel(dir, p)
				addFile(filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	slices.SortFunc(want, func(a, b File) int { return strings.Compare(a.Rel, b.Rel) })
	return want
}

func relsOf(files []File) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Rel)
	}
	return out
}

// TestListOrder checks List's merge of per-folder sorted names against a
// plain sort of the paths, with names that sort around the slash: "-" and
// "." come before it, letters after, and folders named like files.
func TestListOrder(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{
		"MEMORY.md", "memory.md", "USER.md", "DREAMS.md", "dreams.md", "users.md", "AGENTS.md",
		"memory/2025-01-01-1430.md", "memory/imports/codex/MEMORY.md", "memory/dreaming/deep/2025-01-01.md",
		"bank/a.md", "bank/a-b.md", "bank/a_b.md", "bank/A.md", "bank/b.MD", "bank/.hidden.md", "bank/x.txt",
		"bank/a/inner.md", "bank/a-b/inner.md", "bank/a.md.d/inner.md", "bank/a0/inner.md", "bank/Z/inner.md",
		"bank/dir.md/inside.md", "bank/a/deeper/more/x.md", "bank/.git/x.md",
		"memory/2025-01-01.md", "memory/2025-01-01-b.md", "memory/2025-01-01/x.md", "memory/notes.md",
		"memory/md", "memory/.md",
	} {
		write(t, filepath.Join(dir, filepath.FromSlash(p)), p+"\n")
	}
	files, skipped, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 0 {
		t.Errorf("skipped = %+v", skipped)
	}
	want := walkReference(t, dir)
	if !slices.Equal(files, want) {
		t.Errorf("files:\n got %v\nwant %v", relsOf(files), relsOf(want))
	}
	for _, rel := range []string{"USER.md", "DREAMS.md", "dreams.md", "memory/2025-01-01-1430.md", "memory/imports/codex/MEMORY.md"} {
		if !slices.Contains(relsOf(files), rel) {
			t.Errorf("%s is not listed: %v", rel, relsOf(files))
		}
	}
	if slices.Contains(relsOf(files), "users.md") || slices.Contains(relsOf(files), "AGENTS.md") {
		t.Errorf("a root file that is no memory file is listed: %v", relsOf(files))
	}
	if !slices.Contains(relsOf(files), "bank/.hidden.md") || slices.Contains(relsOf(files), "bank/.git/x.md") {
		t.Errorf("hidden files and folders: %v", relsOf(files))
	}
}

// TestListLargeFolder lists a folder big enough to be shared between
// workers, and compares with the slow listing.
func TestListLargeFolder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	dir := t.TempDir()
	start := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC)
	n := 5*statChunk + 7
	for i := range n {
		day := start.AddDate(0, 0, i)
		p := filepath.Join(dir, "memory", day.Format(time.DateOnly)+".md")
		write(t, p, strings.Repeat("x", i%50))
		must(t, os.Chtimes(p, day, day.Add(time.Duration(i+1)*time.Nanosecond)))
	}
	write(t, filepath.Join(dir, "memory", "notes.md"), "other\n")
	write(t, filepath.Join(dir, "memory", "projects", "a.md"), "sub\n")
	// Skipped files in the shared folder come out sorted.
	for _, name := range []string{"zz-broken.md", "aa-broken.md", "2016-06-06-broken.md"} {
		must(t, os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "memory", name)))
	}
	files, skipped, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := walkReference(t, dir)
	if len(files) != n+2 || !slices.Equal(files, want) {
		t.Fatalf("got %d files, want %d (equal: %v)", len(files), len(want), slices.Equal(files, want))
	}
	for _, f := range files {
		if f.Kind == memory.FileLog && f.ModTime%1e9 == 0 {
			t.Fatalf("%s: ModTime %d lost its nanoseconds", f.Rel, f.ModTime)
		}
	}
	got := fmt.Sprint(skipped)
	if want := "[{memory/2016-06-06-broken.md broken symlink} {memory/aa-broken.md broken symlink} {memory/zz-broken.md broken symlink}]"; got != want {
		t.Errorf("skipped = %s, want %s", got, want)
	}
}

// TestListSkipped checks the reasons and the order of skipped files: a
// folder's subfolders first, then its own files, each by name.
func TestListSkipped(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	write(t, filepath.Join(outside, "secret.md"), "x\n")
	write(t, filepath.Join(dir, "bank", "world.md"), "x\n")
	for _, d := range []string{"bank/folder", "bank/entities", "memory"} {
		must(t, os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755))
	}
	must(t, os.Symlink(filepath.Join(dir, "bank", "folder"), filepath.Join(dir, "bank", "b-folder.md")))
	must(t, os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(dir, "bank", "entities", "out.md")))
	must(t, os.Symlink(filepath.Join(dir, "missing.md"), filepath.Join(dir, "bank", "a-broken.md")))
	must(t, os.Symlink(filepath.Join(dir, "bank", "world.md"), filepath.Join(dir, "memory.md")))
	files, skipped, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(relsOf(files), " "); got != "bank/world.md memory.md" {
		t.Errorf("files = %s", got)
	}
	if len(files) == 2 && (!files[1].Symlink || files[1].Size != 2 || files[1].Kind != memory.FileCore) {
		t.Errorf("symlinked memory.md = %+v", files[1])
	}
	want := []Skipped{
		{"bank/entities/out.md", "symlink points outside the workspace"},
		{"bank/a-broken.md", "broken symlink"},
		{"bank/b-folder.md", "not a regular file"},
	}
	if !slices.Equal(skipped, want) {
		t.Errorf("skipped:\n got %+v\nwant %+v", skipped, want)
	}
}

func TestListNoFolders(t *testing.T) {
	dir := t.TempDir()
	files, skipped, err := List(dir)
	if err != nil || len(files) != 0 || len(skipped) != 0 {
		t.Errorf("empty workspace: %v %v %v", files, skipped, err)
	}
	write(t, filepath.Join(dir, "bank"), "a file, not a folder\n")
	_, skipped, err = List(dir)
	if err != nil || len(skipped) != 1 || skipped[0].Rel != "bank" ||
		runtime.GOOS != "windows" && skipped[0].Reason != "not a directory" {
		t.Errorf("bank as a file: %v %v", skipped, err)
	}
}

func TestSortPaths(t *testing.T) {
	// Deterministic pseudo-random paths over a small alphabet, so that
	// they share prefixes, end inside each other and repeat.
	seed := uint32(1)
	next := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>16) % n
	}
	const alphabet = "-./09AZaz\xff"
	for _, n := range []int{0, 1, 5, radixMin - 1, radixMin, 100, 3000} {
		for _, off := range []int{0, 3} {
			paths := make([]string, n)
			for i := range paths {
				b := []byte("ab/")[:off]
				for range next(12) {
					b = append(b, alphabet[next(len(alphabet))])
				}
				paths[i] = string(b)
			}
			want := slices.Clone(paths)
			slices.Sort(want)
			sortPaths(paths, off)
			if !slices.Equal(paths, want) {
				t.Errorf("n=%d off=%d: sortPaths differs from slices.Sort", n, off)
			}
		}
	}
	dates := make([]string, 3650)
	start := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range dates {
		dates[i] = "memory/" + start.AddDate(0, 0, (i*7919)%len(dates)).Format(time.DateOnly) + ".md"
	}
	sortPaths(dates, len("memory/"))
	if !slices.IsSorted(dates) {
		t.Error("dates not sorted")
	}
}
