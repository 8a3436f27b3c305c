package uselite

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// cacheTexts cover the tokenizer's paths (unknown pieces, NFKC, invalid
// UTF-8, truncation) and batching.
var cacheTexts = []string{"", "hello world", "What did we decide about the nginx logs?",
	"Ünïcödé ﬁ ligature full-width ＡＢＣ", "日本語のテキスト", "bad \xff\xfe bytes", "emoji 🎉\tand\nnewlines",
	"a b c d e f g h i j k l m n o p q r s t u v w x y z 1 2 3 4 5 6 7 8 9 0 :30 ok. " +
		"a b c d e f g h i j k l m n o p q r s t u v w x y z 1 2 3 4 5 6 7 8 9 0 :30 ok. " +
		"a b c d e f g h i j k l m n o p q r s t u v w x y z 1 2 3 4 5 6 7 8 9 0 :30 ok."}

// sameVectors embeds cacheTexts with both models and requires identical
// bits and token ids.
func sameVectors(t *testing.T, a, b *Model) {
	t.Helper()
	ctx := context.Background()
	va, err := a.Embed(ctx, cacheTexts)
	if err != nil {
		t.Fatal(err)
	}
	vb, err := b.Embed(ctx, cacheTexts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range va {
		for j := range va[i] {
			if math.Float32bits(va[i][j]) != math.Float32bits(vb[i][j]) {
				t.Fatalf("text %d component %d: %v vs %v", i, j, va[i][j], vb[i][j])
			}
		}
		ta, tb := a.Tokens(cacheTexts[i]), b.Tokens(cacheTexts[i])
		if len(ta) != len(tb) {
			t.Fatalf("text %d: %d vs %d tokens", i, len(ta), len(tb))
		}
		for j := range ta {
			if ta[j] != tb[j] {
				t.Fatalf("text %d token %d: %d vs %d", i, j, ta[j], tb[j])
			}
		}
	}
}

// TestModelCache: the first Load of a model writes the float32 cache
// beside it; later Loads use it and give bit-identical vectors; a cache
// that is damaged, or older than the model file, is ignored and replaced;
// a folder that cannot be written to only costs the cache.
func TestModelCache(t *testing.T) {
	testModel(t) // skips when the model is not installed
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join(DefaultDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, FileName)
	if err := os.WriteFile(model, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, CacheFileName)
	st, _ := os.Stat(model)

	first, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := openCache(cache, st); err != nil {
		t.Fatalf("no usable cache after the first Load: %v", err)
	}
	// The reference: the converted file read directly, without the cache.
	h, raw, err := readModelFile(model, true)
	if err != nil {
		t.Fatal(err)
	}
	direct, err := build(&fileSource{h: h, data: raw}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := openCache(cache, st)
	if err != nil {
		t.Fatal(err)
	}
	cached, err := build(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c.keepAlive(cached)
	sameVectors(t, direct, cached)
	sameVectors(t, direct, first)
	second, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	sameVectors(t, direct, second)

	// A damaged cache is ignored and replaced.
	b, _ := os.ReadFile(cache)
	b[len(b)/2] ^= 1
	os.WriteFile(cache, b, 0o644)
	if _, err := openCache(cache, st); err == nil {
		t.Fatal("damaged cache accepted")
	}
	m, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	sameVectors(t, direct, m)
	if _, err := openCache(cache, st); err != nil {
		t.Fatalf("damaged cache not replaced: %v", err)
	}

	// A model file changed after the cache was made (a reinstall) makes it
	// stale.
	later := st.ModTime().Add(time.Second)
	os.Chtimes(model, later, later)
	st2, _ := os.Stat(model)
	if _, err := openCache(cache, st2); err == nil {
		t.Fatal("cache of an older model file accepted")
	}
	if m, err = Load(dir); err != nil {
		t.Fatal(err)
	}
	sameVectors(t, direct, m)
	if _, err := openCache(cache, st2); err != nil {
		t.Fatalf("stale cache not replaced: %v", err)
	}

	// Truncated and garbage caches are refused, never a panic.
	good, _ := os.ReadFile(cache)
	for _, cut := range []int{0, 7, cacheHeader, cacheHeader + 3*cacheEntry, len(good) / 2, len(good) - 1} {
		os.WriteFile(cache, good[:cut], 0o644)
		if _, err := openCache(cache, st2); err == nil {
			t.Fatalf("cache truncated to %d accepted", cut)
		}
	}

	// A read-only folder: Load works, without a cache.
	ro := t.TempDir()
	os.WriteFile(filepath.Join(ro, FileName), data, 0o644)
	os.Chmod(ro, 0o555)
	defer os.Chmod(ro, 0o755)
	if m, err = Load(ro); err != nil {
		t.Fatal(err)
	}
	sameVectors(t, direct, m)
	if os.Getuid() != 0 { // root writes anyway
		if _, err := os.Stat(filepath.Join(ro, CacheFileName)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("cache written into a read-only folder: %v", err)
		}
	}
	if _, err := Load(t.TempDir()); !errors.Is(err, ErrModelMissing) {
		t.Errorf("empty folder: %v", err)
	}
}

// BenchmarkLoadConvert is Load without the cache: read the fp16 file and
// convert it (what the first Load of an installed model does, before
// writing the cache). BenchmarkLoad measures Load itself, from the cache
// once it exists.
func BenchmarkLoadConvert(b *testing.B) {
	testModel(b)
	path := filepath.Join(DefaultDir(), FileName)
	for b.Loop() {
		h, data, err := readModelFile(path, false)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := build(&fileSource{h: h, data: data}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
