package sqlite

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestJoinPaths(t *testing.T) {
	for _, tc := range []struct {
		a, b []string
		want string
	}{
		{nil, nil, ""},
		{[]string{"a"}, nil, "a:0,-1"},
		{nil, []string{"a"}, "a:-1,0"},
		{[]string{"a", "c", "d"}, []string{"b", "c", "e"}, "a:0,-1 b:-1,0 c:1,1 d:2,-1 e:-1,2"},
		// "a-b/x" sorts before "a/x" in byte order, as the listing sorts.
		{[]string{"a-b/x", "a/x"}, []string{"a/x"}, "a-b/x:0,-1 a/x:1,0"},
	} {
		var got []string
		joinPaths(tc.a, tc.b, func(i, j int) {
			p := ""
			if i >= 0 {
				p = tc.a[i]
			} else {
				p = tc.b[j]
			}
			got = append(got, fmt.Sprintf("%s:%d,%d", p, i, j))
		})
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("joinPaths(%q, %q) = %q, want %q", tc.a, tc.b, s, tc.want)
		}
	}
}

func TestSortByPath(t *testing.T) {
	paths := []string{"memory/b.md", "bank/x.md", "memory/a.md"}
	values := []int{1, 2, 3}
	if err := sortByPath(paths, values); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(paths, []string{"bank/x.md", "memory/a.md", "memory/b.md"}) || !slices.Equal(values, []int{2, 3, 1}) {
		t.Errorf("sorted to %q %v", paths, values)
	}
	for _, twice := range [][]string{{"a", "a"}, {"b", "a", "b"}} {
		if err := sortByPath(twice, make([]int, len(twice))); err == nil {
			t.Errorf("%q: no error for a path listed twice", twice)
		}
	}
}

func TestByPath(t *testing.T) {
	var l manifest
	for _, p := range []string{"m/c", "m/a", "m/b"} {
		l.set(p, storedFile{hash: p})
	}
	l.set("m/a", storedFile{hash: "again"})
	l.remove("m/b")
	l.remove("m/zz") // not there: nothing happens
	if !slices.Equal(l.paths, []string{"m/a", "m/c"}) || l.len() != 2 {
		t.Fatalf("paths %q", l.paths)
	}
	if f, ok := l.get("m/a"); !ok || f.hash != "again" {
		t.Errorf("get m/a = %+v, %v", f, ok)
	}
	if _, ok := l.get("m/b"); ok {
		t.Error("removed path still there")
	}
	m := byPathOf(map[string]storedFile{"z": {hash: "1"}, "y": {hash: "2"}})
	if !slices.Equal(m.paths, []string{"y", "z"}) || m.vals[0].hash != "2" {
		t.Errorf("byPathOf: %q %+v", m.paths, m.vals)
	}
}

func TestManifestRoundTrip(t *testing.T) {
	in := map[string]storedFile{
		"memory/2025-11-27.md": {id: 3, size: 120, mtime: 1_700_000_000_123_456_789, hash: "h3"},
		"bank/world.md":        {id: 1, size: 0, mtime: -5, hash: "h1"},
		"memory.md":            {id: 2, size: 9, mtime: 0, hash: "h2"},
		// Any byte a file system allows in a name round-trips.
		"bank/a\nb.md":  {id: 4, size: 1, mtime: 1, hash: "h4"},
		"bank/c\td.md":  {id: 5, size: 1, mtime: 1, hash: "h5"},
		"bank/\"q\".md": {id: 6, size: 1, mtime: 1, hash: "h6"},
		"bank/e\rf.md":  {id: 7, size: 1, mtime: 1, hash: "h7"},
	}
	m, err := decodeManifest(encodeManifest(in))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(m.paths) || m.len() != len(in) {
		t.Fatalf("paths %q", m.paths)
	}
	for p, want := range in {
		if got, ok := m.get(p); !ok || got != want {
			t.Errorf("%s: %+v, want %+v", p, got, want)
		}
	}
	// A manifest written before lines were sorted is sorted on reading.
	old := "2\t9\t0\th2\tmemory.md\n1\t0\t-5\th1\tbank/world.md\n"
	if m, err = decodeManifest(old); err != nil || !slices.Equal(m.paths, []string{"bank/world.md", "memory.md"}) || m.vals[0].id != 1 {
		t.Errorf("old manifest: %v %+v", err, m)
	}
	for _, bad := range []string{"x\t1\t1\th\tp\n", "1\t1\th\tp\n", "1\t1\t1\th\tp\n1\t1\t1\th\tp\n", "1\t99999999999999999999\t1\th\tp\n"} {
		if _, err := decodeManifest(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestParseDecimal(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"42", 42, true}, {"-7", -7, true},
		{"1763000000123456789", 1763000000123456789, true},
		{"9223372036854775807", 9223372036854775807, true},
		{"-9223372036854775808", -9223372036854775808, true},
		{"9223372036854775808", 0, false},
		{"", 0, false}, {"-", 0, false}, {"1x", 0, false}, {"+1", 0, false}, {" 1", 0, false},
	} {
		got, ok := parseDecimal(tc.in)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("parseDecimal(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestWALFilesKept: the -wal and -shm files outlive the connection, so the
// next one-shot process neither makes nor deletes them; the WAL files are
// empty once the last connection has checkpointed them.
func TestWALFilesKept(t *testing.T) {
	dir := testWorkspace(t)
	ix := openTest(t, dir, Options{})
	if _, err := ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	path := ix.Path()
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ix = openTest(t, dir, Options{})
	if hits := search(t, ix, "espresso"); len(hits) != 1 {
		t.Fatalf("after reopening: %d hits", len(hits))
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"-wal", "-shm", ".vectors-wal", ".vectors-shm"} {
		st, err := os.Stat(path + suffix)
		switch {
		case err != nil:
			t.Errorf("%s: %v", suffix, err)
		case strings.HasSuffix(suffix, "-wal") && st.Size() != 0:
			// Frames left in it would be checkpointed again, with fsyncs,
			// by every process that opens the index after.
			t.Errorf("%s: %d bytes left in it", suffix, st.Size())
		}
	}
}
