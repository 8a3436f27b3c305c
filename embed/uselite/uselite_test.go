package uselite

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"memoria/embed"
	"memoria/embed/gemm"
)

var (
	modelOnce sync.Once
	model     *Model
	modelErr  error
)

// testModel loads the installed model, or skips the test when it is not installed.
func testModel(t testing.TB) *Model {
	t.Helper()
	modelOnce.Do(func() { model, modelErr = Load("") })
	if errors.Is(modelErr, ErrModelMissing) {
		if os.Getenv("MEMORIA_REQUIRE_MODEL") != "" {
			t.Fatal(modelErr)
		}
		t.Skipf("USE-lite model not installed in %s; run `%s` first", DefaultDir(), InstallCommand)
	}
	if modelErr != nil {
		t.Fatal(modelErr)
	}
	return model
}

type fixtureCase struct {
	Text   string    `json:"text"`
	IDs    []int     `json:"ids"`
	Vector []float32 `json:"vector"`
	Error  string    `json:"error"`
}

func loadFixture(t *testing.T) []fixtureCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "reference", "fixture.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []fixtureCase `json:"cases"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) < 30 {
		t.Fatalf("fixture has %d cases", len(f.Cases))
	}
	return f.Cases
}

func TestMissingModel(t *testing.T) {
	_, err := Load(t.TempDir())
	if !errors.Is(err, ErrModelMissing) || !strings.Contains(err.Error(), InstallCommand) {
		t.Fatalf("Load of an empty dir: %v; want ErrModelMissing naming %q", err, InstallCommand)
	}
}

func TestTokenizerMatchesReference(t *testing.T) {
	m := testModel(t)
	for _, c := range loadFixture(t) {
		got := m.Tokenizer().Encode(c.Text)
		if !equalInts(got, c.IDs) {
			t.Errorf("Encode(%q)\n got %v\nwant %v", c.Text, got, c.IDs)
		}
	}
}

// minCosine is the bound the tests hold the Go vectors to against TF.js (float32 weights).
// fp16 weights measured 0.99999+; see docs/embeddings.md.
const minCosine = 0.9999

func TestEmbedMatchesReference(t *testing.T) {
	m := testModel(t)
	cases := loadFixture(t)
	texts := make([]string, len(cases))
	for i, c := range cases {
		texts[i] = c.Text
	}
	batch, err := m.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	worst, worstAbs := 1.0, 0.0
	for i, c := range cases {
		v := batch[i]
		one, err := m.Embed(context.Background(), []string{c.Text})
		if err != nil {
			t.Fatal(err)
		}
		if cs := embed.Cosine(v, one[0]); cs < 0.999999 {
			t.Errorf("%q: batched and single embeddings differ: cosine %v", c.Text, cs)
		}
		if n := embed.Dot(v, v); math.Abs(float64(n)-1) > 1e-5 || math.IsNaN(float64(n)) {
			t.Errorf("%q: norm² %v", c.Text, n)
		}
		if c.Vector == nil { // the reference fails on "" (an empty sparse tensor)
			continue
		}
		cos := embed.Cosine(v, c.Vector)
		for j := range v {
			worstAbs = max(worstAbs, math.Abs(float64(v[j]-c.Vector[j])))
		}
		worst = min(worst, cos)
		if cos < minCosine {
			t.Errorf("%q: cosine with the reference %.7f < %v", c.Text, cos, minCosine)
		}
	}
	t.Logf("kernel %s: min cosine vs TF.js %.7f, max |Δ| per component %.2g (fixture rounded to 1e-6)", gemm.KernelName(), worst, worstAbs)
}

func TestEmbedCancelled(t *testing.T) {
	m := testModel(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Embed(ctx, []string{"x"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

// TestEmbedChunking mixes many empty, short and over-long texts so chunks take many
// sequences, and checks every vector against embedding the text alone.
func TestEmbedChunking(t *testing.T) {
	m := testModel(t)
	long := strings.Repeat("lorem ipsum dolor sit amet ", 40)
	var texts []string
	for i := range 600 {
		switch i % 5 {
		case 0, 1:
			texts = append(texts, "")
		case 2:
			texts = append(texts, long)
		default:
			texts = append(texts, "short text number "+strings.Repeat("x", i%7))
		}
	}
	vecs, err := m.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 1, 2, 3, 4, 297, 298, 599} {
		one, _ := m.Embed(context.Background(), texts[i:i+1])
		if c := embed.Cosine(vecs[i], one[0]); c < 0.999999 {
			t.Errorf("text %d: batch vs alone cosine %v", i, c)
		}
	}
}
