package bert

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
)

var benchFacts = []string{
	"Peter prefers concise replies on WhatsApp, under 1500 characters.",
	"Fixed the Baileys websocket crash by wrapping the connection.update handler in try/catch.",
	"The staging database migration timed out twice during the Tuesday deploy.",
	"Anna is allergic to peanuts; order the curry without cashews.",
	"Moved the design sync to Thursday afternoon because of the offsite.",
	"Backups run nightly at 02:00 UTC and are kept for thirty days.",
	"Flight to Berlin on Monday at 07:10, seat 14C, aisle.",
	"Decided to use PostgreSQL instead of MySQL for the billing service.",
}

// passages returns n distinct memory-like passages of about words words each.
func passages(n, words int) []string {
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for j := 0; b.Len() < words*6; j++ {
			b.WriteString(benchFacts[(i+j)%len(benchFacts)])
			b.WriteByte(' ')
		}
		f := strings.Fields(b.String())
		out[i] = fmt.Sprintf("%s (note %d)", strings.Join(f[:min(words, len(f))], " "), i)
	}
	return out
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func benchBatch(b *testing.B, m *Model, texts []string) {
	ctx := context.Background()
	tokens := 0
	for _, t := range texts {
		tokens += len(m.Tokens(t))
	}
	cpu0 := cpuSeconds()
	for b.Loop() {
		if _, err := m.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
	cpu := cpuSeconds() - cpu0
	b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), "passages/s")
	// Per CPU-second: what an idle core gives; the figure to compare on a shared machine.
	b.ReportMetric(float64(len(texts)*b.N)/cpu, "passages/CPU-s")
	b.ReportMetric(float64(tokens)/float64(len(texts)), "tokens/passage")
}

// benchModels are the models the benchmarks run on: MiniLM and multilingual-e5-small
// (each skipped when not installed).
var benchModels = []struct {
	name string
	load func(testing.TB) *Model
	spec Spec
}{{"minilm", testModel, MiniLM}, {"e5", testE5, E5}}

// BenchmarkEmbedShort embeds 256 short passages (one fact, ~20 tokens) per op.
func BenchmarkEmbedShort(b *testing.B) {
	for _, bm := range benchModels {
		b.Run(bm.name, func(b *testing.B) { benchBatch(b, bm.load(b), passages(256, 14)) })
	}
}

// BenchmarkEmbedPassage embeds 64 passages of ~60 words (~80 tokens, the size of a
// recall passage) per op.
func BenchmarkEmbedPassage(b *testing.B) {
	for _, bm := range benchModels {
		b.Run(bm.name, func(b *testing.B) { benchBatch(b, bm.load(b), passages(64, 60)) })
	}
}

// BenchmarkQuery embeds one short query per op: the latency a recall adds.
func BenchmarkQuery(b *testing.B) {
	for _, bm := range benchModels {
		b.Run(bm.name, func(b *testing.B) {
			m := bm.load(b)
			q := []string{"what does Peter prefer on WhatsApp?"}
			for b.Loop() {
				if _, err := m.EmbedQueries(context.Background(), q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLoad maps the model file and builds the tokenizer: what a one-shot recall
// pays before its query vector.
func BenchmarkLoad(b *testing.B) {
	for _, bm := range benchModels {
		b.Run(bm.name, func(b *testing.B) {
			bm.load(b)
			for b.Loop() {
				m, err := Load(bm.spec, "", Options{})
				if err != nil {
					b.Fatal(err)
				}
				m.unmap()
			}
		})
	}
}
