package bert

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"memoria/embed"
)

// testModel loads the installed MiniLM, or skips when it is not installed.
func testModel(t testing.TB) *Model { return testSpec(t, MiniLM) }

// testSpec loads the installed model of spec, or skips when it is not installed (CI
// installs them: memoria model install minilm, e5). MEMORIA_REQUIRE_MODEL=1 turns the
// skip into a failure.
func testSpec(t testing.TB, spec Spec) *Model {
	t.Helper()
	m, err := Load(spec, "", Options{})
	if errors.Is(err, ErrModelMissing) {
		if os.Getenv("MEMORIA_REQUIRE_MODEL") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

type referenceCase struct {
	Text   string    `json:"text"`
	IDs    []int     `json:"ids"`
	Vector []float32 `json:"vector"`
}

// testdata/reference.json: token ids from Hugging Face's tokenizers library reading
// the model's own tokenizer.json, and vectors from a plain numpy forward pass in
// float64 over the same model.safetensors (mean pooling, L2-normalised), rounded to
// 1e-6. The texts cover accents, CJK, control and zero-width characters, emoji, a word
// over 100 characters and a text past the 256-token limit.
func readReference(t *testing.T) []referenceCase {
	t.Helper()
	b, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []referenceCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestTokensMatchReference(t *testing.T) {
	m := testModel(t)
	for _, c := range readReference(t) {
		if got := m.Tokens(c.Text); !slices.Equal(got, c.IDs) {
			t.Errorf("%q:\n got %v\nwant %v", c.Text, got, c.IDs)
		}
	}
}

func TestVectorsMatchReference(t *testing.T) {
	m := testModel(t)
	cases := readReference(t)
	texts := make([]string, len(cases))
	for i, c := range cases {
		texts[i] = c.Text
	}
	// All at once (chunks of several texts, several workers) and one by one must both
	// match.
	all, err := m.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	worst := 1.0
	for i, c := range cases {
		one, err := m.Embed(context.Background(), []string{c.Text})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range [][]float32{all[i], one[0]} {
			cos := embed.Cosine(v, c.Vector)
			worst = min(worst, cos)
			if cos < 0.99999 {
				t.Errorf("%q: cosine with the reference %.7f", c.Text, cos)
			}
			for j := range v {
				if d := math.Abs(float64(v[j] - c.Vector[j])); d > 2e-4 {
					t.Fatalf("%q: component %d differs by %.2g", c.Text, j, d)
				}
			}
		}
	}
	t.Logf("min cosine with the reference %.7f", worst)
}

func TestParaphrasesCloserThanUnrelated(t *testing.T) {
	m := testModel(t)
	v, err := m.Embed(context.Background(), []string{
		"Peter prefers short replies on WhatsApp",
		"Peter likes concise messages",
		"The backup job starts at two in the morning",
	})
	if err != nil {
		t.Fatal(err)
	}
	if p, u := embed.Cosine(v[0], v[1]), embed.Cosine(v[0], v[2]); p < u+0.2 {
		t.Errorf("paraphrase %.3f, unrelated %.3f", p, u)
	}
}

func TestEmbedCancelled(t *testing.T) {
	m := testModel(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Embed(ctx, []string{"x"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

func TestLoadMissing(t *testing.T) {
	_, err := Load(MiniLM, t.TempDir(), Options{})
	if !errors.Is(err, ErrModelMissing) || !strings.Contains(err.Error(), MiniLM.InstallCommand) {
		t.Fatalf("got %v", err)
	}
}

func TestDamagedFileRefused(t *testing.T) {
	m := testModel(t)
	_ = m
	src, err := os.ReadFile(filepath.Join(embed.ModelDir(), MiniLM.FileName))
	if err != nil {
		t.Fatal(err)
	}
	for name, damage := range map[string]func([]byte) []byte{
		"truncated":   func(b []byte) []byte { return b[:len(b)/2] },
		"bit flipped": func(b []byte) []byte { b = slices.Clone(b); b[len(b)-100] ^= 1; return b },
		"not a model": func([]byte) []byte { return []byte("hello") },
	} {
		dir := t.TempDir()
		if err := os.WriteFile(dir+"/"+MiniLM.FileName, damage(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := VerifyFile(MiniLM, dir); err == nil || errors.Is(err, ErrModelMissing) {
			t.Errorf("%s: VerifyFile gave %v", name, err)
		}
	}
}

func TestNormalizeAndSplit(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Héllo, WORLD!", "hello|,|world|!"},
		{"a\u200bb\tc", "ab|c"},
		{"東京タワー", "東|京|タワー"},
		{"don't", "don|'|t"},
		{"", ""},
	} {
		if got := strings.Join(preTokenize(normalize(c.in)), "|"); got != c.want {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}
