package uselite

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
)

// benchFacts are short memory lines (about 8–16 tokens), like Retain facts.
var benchFacts = []string{
	"Peter prefers concise replies on WhatsApp, under 1500 characters.",
	"Fixed the Baileys websocket crash by wrapping the handler in try/catch.",
	"The staging database migration timed out twice during the deploy.",
	"Anna is allergic to peanuts; order the curry without cashews.",
	"Moved the design sync to Thursday afternoon because of the offsite.",
	"Backups run nightly at 02:00 UTC and are kept for thirty days.",
	"Flight to Berlin on Monday at 07:10, seat 14C, aisle.",
	"Decided to use PostgreSQL instead of MySQL for the billing service.",
}

// shortPassages returns n distinct short passages.
func shortPassages(n int) []string {
	base := benchFacts
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s (note %d)", base[i%len(base)], i)
	}
	return out
}

func paragraphs(n int) []string {
	s := shortPassages(6 * n)
	out := make([]string, n)
	for i := range out {
		out[i] = strings.Join(s[6*i:6*i+6], " ")
	}
	return out
}

func benchBatch(b *testing.B, texts []string, unit string) {
	m := testModel(b)
	ctx := context.Background()
	tokens := 0
	for _, t := range texts {
		tokens += len(m.Tokens(t))
	}
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for b.Loop() {
		if _, err := m.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
	cpu := cpuSeconds() - cpu0
	b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), unit+"/s")
	// Per CPU-second: what the machine would give per idle core; it is what to compare on a
	// shared, loaded machine.
	b.ReportMetric(float64(len(texts)*b.N)/cpu, unit+"/CPU-s")
	b.ReportMetric(float64(tokens)/float64(len(texts)), "tokens/"+unit)
}

// BenchmarkEmbedShort embeds 256 short passages per op with GOMAXPROCS workers.
func BenchmarkEmbedShort(b *testing.B) { benchBatch(b, shortPassages(256), "passages") }

// BenchmarkEmbedParagraph embeds 32 paragraphs (~100 tokens) per op.
func BenchmarkEmbedParagraph(b *testing.B) { benchBatch(b, paragraphs(32), "paragraphs") }

// BenchmarkQuery embeds one short query per op: the latency of a recall's query vector.
func BenchmarkQuery(b *testing.B) {
	m := testModel(b)
	ctx := context.Background()
	q := []string{"what does Peter prefer on WhatsApp?"}
	for b.Loop() {
		if _, err := m.Embed(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad loads the model file (read, fp16 → fp32, pack, build the tokenizer).
func BenchmarkLoad(b *testing.B) {
	testModel(b) // skip when absent
	for b.Loop() {
		if _, err := Load(""); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMemoryReport logs the heap after loading and the peak RSS after embedding 2,048
// short passages (run with -v -run MemoryReport; it needs a fresh process to mean much).
func TestMemoryReport(t *testing.T) {
	if os.Getenv("MEMORIA_MEMREPORT") == "" {
		t.Skip("set MEMORIA_MEMREPORT=1 to run")
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	m, err := Load("")
	if err != nil {
		t.Skip(err)
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if _, err := m.Embed(context.Background(), shortPassages(2048)); err != nil {
		t.Fatal(err)
	}
	var end runtime.MemStats
	runtime.ReadMemStats(&end)
	status, _ := os.ReadFile("/proc/self/status")
	var hwm string
	for _, l := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(l, "VmHWM") || strings.HasPrefix(l, "VmRSS") {
			hwm += strings.Join(strings.Fields(l), " ") + "; "
		}
	}
	t.Logf("heap after load %.1f MB; heap in use after embedding 2048 passages %.1f MB (sys %.1f MB); %s",
		float64(after.HeapAlloc-before.HeapAlloc)/1e6, float64(end.HeapAlloc)/1e6, float64(end.Sys)/1e6, hwm)
	runtime.KeepAlive(m)
}
