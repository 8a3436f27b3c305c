package sqlite

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"testing"

	"memoria/workspace"
)

// TestBuildKeepsPostings holds the in-memory ranking state a build hands
// the rebuilt Index to the one loadLexical reads from the index it wrote:
// the same postings, byte for byte, the same fields for every item, the
// same files, entity lists and pages. The snapshot is written with the
// index's key, and a later WritePostings keeps it.
func TestBuildKeepsPostings(t *testing.T) {
	ctx := context.Background()
	for name, ws := range buildWorkspaces(t) {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "index.sqlite")
			ix, err := OpenAt(ctx, ws, path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			got := &ix.lex.lexState
			if got.state != lexReady || !got.saved || got.snap != nil {
				t.Fatalf("state %d, saved %v: the build's postings are not in use", got.state, got.saved)
			}
			want, built, err := loadLexical(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer want.release()
			if !bytes.Equal(got.seg, want.seg) {
				t.Errorf("postings differ (%d and %d bytes)", len(got.seg), len(want.seg))
			}
			if !slices.Equal(got.files.paths, want.files.paths) {
				t.Fatalf("files %q, want %q", got.files.paths, want.files.paths)
			}
			items := 0
			for i, p := range want.files.paths {
				g, w := got.files.vals[i], want.files.vals[i]
				if g.fileID != w.fileID || g.hash != w.hash || !slices.Equal(g.ids, w.ids) {
					t.Errorf("%s: %+v, want %+v", p, g, w)
				}
				for _, id := range w.ids {
					items++
					gf, gok := got.fields.full(id)
					wf, wok := want.fields.full(id)
					if !gok || !wok || gf.text == nil || wf.text == nil || *gf.text != *wf.text {
						t.Fatalf("item %d: text %+v, want %+v", id, gf.text, wf.text)
					}
					gf.text, wf.text = nil, nil
					if gf != wf {
						t.Fatalf("item %d: %+v, want %+v", id, gf, wf)
					}
				}
			}
			if items == 0 || items != got.eng.Len() {
				t.Fatalf("%d items, %d documents", items, got.eng.Len())
			}
			if !maps.EqualFunc(got.byEntity, want.byEntity, slices.Equal) || !maps.EqualFunc(got.pages, want.pages, slices.Equal) {
				t.Errorf("entities %v pages %v, want %v %v", got.byEntity, got.pages, want.byEntity, want.pages)
			}
			key, err := ix.lexSnapKey(ctx)
			if err != nil || key != identity(Options{})+"\x00"+built {
				t.Fatalf("key %q (%v)", key, err)
			}
			snap, ok, err := ix.openLexSnapshot(ctx)
			if err != nil || !ok {
				t.Fatalf("the snapshot written with the build is not usable: %v", err)
			}
			snap.release()
			if wrote, err := ix.WritePostings(ctx, 0); err != nil || wrote {
				t.Fatalf("WritePostings rewrote a current snapshot: %v %v", wrote, err)
			}
		})
	}
}

// TestBuildNoPostings: with NoPostings a build keeps nothing and writes no
// snapshot; recall then ranks with FTS5 as before.
func TestBuildNoPostings(t *testing.T) {
	ws := edgeWorkspace(t)
	path := filepath.Join(t.TempDir(), "index.sqlite")
	ix, err := OpenAt(context.Background(), ws, path, Options{NoPostings: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if ix.lex.state != lexNone {
		t.Fatalf("state %d", ix.lex.state)
	}
	if _, err := os.Stat(path + ".lex"); !os.IsNotExist(err) {
		t.Fatalf("a snapshot was written: %v", err)
	}
	if hits := search(t, ix, "Tokyo"); len(hits) == 0 {
		t.Fatal(fmt.Sprint("no hit for Tokyo: ", hits))
	}
}

// TestBoundMemory holds a rebuild with Options.BoundMemory to the soft
// memory limit it sets while it builds (seen from Progress) and restores
// after, and to leaving a limit the program set alone.
func TestBoundMemory(t *testing.T) {
	ws := edgeWorkspace(t)
	files, _, err := workspace.List(ws)
	if err != nil {
		t.Fatal(err)
	}
	var size int64
	for _, f := range files {
		size += f.Size
	}
	for _, preset := range []int64{math.MaxInt64, 1 << 40} {
		debug.SetMemoryLimit(preset)
		var during int64
		ix, err := Open(context.Background(), ws, Options{BoundMemory: true, Progress: func(int, int) { during = debug.SetMemoryLimit(-1) }})
		if err != nil {
			t.Fatal(err)
		}
		_, err = ix.Rebuild(context.Background())
		ix.Close()
		if err != nil {
			t.Fatal(err)
		}
		want := int64(max(buildMemoryFloor, buildMemoryPerByte*size))
		if preset != math.MaxInt64 {
			want = preset
		}
		if during != want {
			t.Errorf("preset %d: the limit during the build was %d, want %d", preset, during, want)
		}
		if after := debug.SetMemoryLimit(math.MaxInt64); after != preset {
			t.Errorf("preset %d: the limit after the build was %d", preset, after)
		}
	}
}
