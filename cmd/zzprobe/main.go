package main

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"
	"bufio"
	"math/rand/v2"
	"path/filepath"

	"memoria"
)

func main() {
	ws := os.Args[1]
	ctx := context.Background()
	w, err := memoria.Open(ctx, ws, memoria.Options{IndexPath: os.Args[2]})
	if err != nil { panic(err) }
	var lines []string
	filepath.WalkDir(ws, func(p string, d os.DirEntry, err error) error {
		if d.IsDir() || !strings.HasSuffix(p, ".md") { return nil }
		f, _ := os.Open(p); defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() { if strings.TrimSpace(sc.Text()) != "" { lines = append(lines, sc.Text()) } }
		return nil
	})
	r := rand.New(rand.NewPCG(1, 2))
	var qs []string
	for len(qs) < 200 {
		words := strings.Fields(lines[r.IntN(len(lines))])
		if len(words) < 4 { continue }
		k := 1 + r.IntN(4)
		s := r.IntN(len(words) - k + 1)
		qs = append(qs, strings.Join(words[s:s+k], " "))
	}
	type t struct{ q string; d time.Duration }
	var ts []t
	w.Recall(ctx, qs[0], memoria.RecallOptions{K: 25, Lexical: true})
	for _, q := range qs {
		s := time.Now()
		w.Recall(ctx, q, memoria.RecallOptions{K: 25, Lexical: true})
		ts = append(ts, t{q, time.Since(s)})
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].d > ts[j].d })
	for _, x := range ts[:12] { fmt.Println(x.d.Round(time.Microsecond), x.q) }
}
