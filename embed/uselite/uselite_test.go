package uselite

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"memoria/embed"
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
		t.Skipf("USE-lite model not installed in %s; run `%s` (or scripts/fetch-model.sh) first", DefaultDir(), InstallCommand)
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
	t.Logf("kernel %s: min cosine vs TF.js %.7f, max |Δ| per component %.2g (fixture rounded to 1e-6)", KernelName(), worst, worstAbs)
}

func TestEmbedPureGoMatchesAsm(t *testing.T) {
	m := testModel(t)
	if !useAsm {
		t.Skip("no assembly kernel on this machine")
	}
	texts := []string{"Peter prefers short replies on WhatsApp.", "", "hello world, this is a slightly longer sentence with 12 numbers 345."}
	a, err := m.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	useAsm = false
	defer func() { useAsm = true }()
	g, err := m.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if c := embed.Cosine(a[i], g[i]); c < 0.999999 {
			t.Errorf("%q: asm vs Go cosine %v", texts[i], c)
		}
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

func TestMatmulKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, sh := range [][3]int{{1, 256, 768}, {3, 512, 16}, {4, 7, 32}, {9, 1536, 512}, {13, 1, 48}, {6, 3, 16}, {11, 5, 32}, {17, 512, 64}} {
		mr, k, n := sh[0], sh[1], sh[2]
		wt := make([]float32, k*n)
		a := make([]float32, mr*k)
		for i := range wt {
			wt[i] = r.Float32()*2 - 1
		}
		for i := range a {
			a[i] = r.Float32()*2 - 1
		}
		w := packMatrix(wt, k, n)
		want := make([]float64, mr*n)
		for i := 0; i < mr; i++ {
			for j := 0; j < n; j++ {
				s := 0.5
				for kk := 0; kk < k; kk++ {
					s += float64(a[i*k+kk]) * float64(wt[kk*n+j])
				}
				want[i*n+j] = s
			}
		}
		for _, asm := range []bool{false, true} {
			if asm && !haveAsm() {
				continue
			}
			c := make([]float32, mr*n)
			for i := range c {
				c[i] = 0.5
			}
			if asm {
				matmulAsm(c, n, a, k, mr, w)
			} else {
				matmulGo(c, n, a, k, mr, w)
			}
			for i := range c {
				if d := math.Abs(float64(c[i]) - want[i]); d > 1e-4*math.Sqrt(float64(k)) {
					t.Fatalf("asm=%v %v: c[%d]=%v want %v", asm, sh, i, c[i], want[i])
				}
			}
		}
	}
}

func TestF16(t *testing.T) {
	for _, x := range []float32{0, 1, -2.5, 65504, 1e-5, 6.1e-5, -3.0517578e-05, 0.1, 1.0 / 3} {
		h := f32ToF16(x)
		y := f16ToF32(h)
		if math.Abs(float64(y-x)) > max(math.Abs(float64(x))/1024, 1.0/(1<<25)) {
			t.Errorf("f16(%v) = %#04x → %v", x, h, y)
		}
	}
	// Every half converts to a float32 that converts back to it.
	for h := 0; h < 1<<16; h++ {
		if h&0x7c00 == 0x7c00 && h&0x3ff != 0 {
			continue // NaN
		}
		if got := f32ToF16(f16ToF32(uint16(h))); got != uint16(h) {
			t.Fatalf("round trip of %#04x gave %#04x", h, got)
		}
	}
}

func TestDotAxpy(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{16, 64, 128, 5} {
		a, b := make([]float32, n), make([]float32, n)
		for i := range a {
			a[i], b[i] = r.Float32()-0.5, r.Float32()-0.5
		}
		if d, g := dot(a, b), dotGo(a, b); math.Abs(float64(d-g)) > 1e-5 {
			t.Errorf("n=%d: dot %v, Go %v", n, d, g)
		}
		d1, d2 := append([]float32(nil), a...), append([]float32(nil), a...)
		axpy(d1, b, 0.37)
		axpyGo(d2, b, 0.37)
		for i := range d1 {
			if math.Abs(float64(d1[i]-d2[i])) > 1e-6 {
				t.Fatalf("n=%d: axpy differs at %d", n, i)
			}
		}
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
