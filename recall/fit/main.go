// Command fit fits recall's ranking weights on the development sets and
// writes them to recall/ranker_gen.go; with -cv it judges the fit instead,
// by leave-one-set-out cross-validation: each set is scored through
// recall with weights fitted without it, and the figures are printed per
// set and overall. Run from the repository's root:
//
//	go run ./recall/fit              # write recall/ranker_gen.go
//	go run ./recall/fit -check       # fail if the file is not what the fit writes (CI)
//	go run ./recall/fit -cv          # cross-validated figures
//
// The held-out sets (bench/unseen, bench/unseen2, bench/teamset, and the
// held-out parts of bench/decisions and bench/updates) are never read here: they are measured once per change, after (`make eval`, and
// `go run ./bench/team -quality bench/teamset`, docs/team.md).
//
// The fit is deterministic: the same sets, the same build and the same
// models give the same file, byte for byte.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"memoria/embed"
	"memoria/embed/models"
	"memoria/recall"
)

// devSets are the development sets the weights are fitted on: their
// queries files, relative to the repository's root. The parts their
// READMEs keep held out (bench/decisions/fieldwork and workshop,
// bench/updates/chats and narrowboat, bench/temporal/chats) are not among
// them: like the unseen
// sets, they are measured after a change, never fitted on.
var devSets = []string{
	"bench/evalset/queries.jsonl",
	"bench/dev2/queries.jsonl",
	"bench/dev3/queries.jsonl",
	"bench/dev4/queries.jsonl",
	"bench/dev5/queries.jsonl",
	"bench/multilingual/queries.jsonl",
	"bench/decisions/radio/queries.jsonl",
	"bench/decisions/allotment/queries.jsonl",
	"bench/updates/vineyard/queries.jsonl",
	"bench/updates/chats2/queries.jsonl",
	"bench/temporal/harbour/queries.jsonl",
	"bench/temporal/apiary/queries.jsonl",
}

func main() {
	out := flag.String("out", "recall/ranker_gen.go", "the generated `file`")
	check := flag.Bool("check", false, "write nothing; fail if -out is not what the fit writes")
	cv := flag.Bool("cv", false, "print leave-one-set-out cross-validated figures instead of writing")
	inSample := flag.Bool("in-sample", false, "with -cv: score each set with weights fitted on all sets (a diagnostic of what the features can do, not a measure)")
	only := flag.String("models", "", "comma-separated `names` to fit (lexical and the embedding models: "+models.Names()+"); default: lexical and every installed model")
	reports := flag.String("reports", "", "with -cv: write each set's report (per query, as memoria eval --json) into `DIR`")
	indexDir := flag.String("index-dir", "", "`DIR` to keep the sets' indexes in (embedding is slow; reused between runs); default: a temporary folder, removed after")
	flag.Parse()
	if err := run(context.Background(), *out, *check, *cv, *inSample, *only, *indexDir, *reports); err != nil {
		fmt.Fprintln(os.Stderr, "fit:", err)
		os.Exit(1)
	}
}

// config is one ranker to fit: lexical recall, or recall with a model's
// semantic channel.
type config struct {
	name     string
	identity string // the model's vectors' identity; "" for lexical
	embedder embed.Embedder
	near     float64 // models.Near of the embedder; 0 for lexical
}

func configs(ctx context.Context, only string) ([]config, error) {
	want := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		if n = strings.TrimSpace(n); n != "" {
			want[n] = true
		}
	}
	var out []config
	if len(want) == 0 || want["lexical"] {
		out = append(out, config{name: "lexical"})
	}
	for _, m := range models.All {
		if len(want) > 0 && !want[m.Name] || len(want) == 0 && !m.Installed("") {
			continue
		}
		e, err := m.Load("")
		if err != nil {
			return nil, fmt.Errorf("model %s: %w (%s)", m.Name, err, m.InstallCommand())
		}
		near, err := models.Near(ctx, e, true)
		if err != nil {
			return nil, fmt.Errorf("model %s: %w", m.Name, err)
		}
		// Rounded as written into the generated file, so that a fit
		// and a run of the file's ranker read the same features.
		near, _ = strconv.ParseFloat(strconv.FormatFloat(near, 'g', 4, 64), 64)
		out = append(out, config{name: m.Name, identity: m.Identity, embedder: e, near: near})
	}
	return out, nil
}

func run(ctx context.Context, out string, check, cv, inSample bool, only, indexDir, reports string) error {
	cfgs, err := configs(ctx, only)
	if err != nil {
		return err
	}
	if indexDir == "" {
		tmp, err := os.MkdirTemp("", "memoria-fit-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		indexDir = tmp
	}
	var fitted []*recall.Ranker
	for _, c := range cfgs {
		sets, err := loadSets(ctx, devSets, c, indexDir)
		if err != nil {
			return err
		}
		data, err := collect(ctx, sets, c)
		if err != nil {
			return err
		}
		if cv {
			if err := crossValidate(ctx, os.Stdout, sets, data, c, inSample, reports); err != nil {
				return err
			}
			continue
		}
		r := fit(data, nil)
		r.Name, r.Near = c.name, c.near
		fitted = append(fitted, r)
		closeSets(sets)
	}
	if cv {
		return nil
	}
	src, err := generate(fitted, cfgs)
	if err != nil {
		return err
	}
	if check {
		old, err := os.ReadFile(out)
		if err != nil {
			return err
		}
		if !bytes.Equal(old, src) {
			return fmt.Errorf("%s is not what the fit writes: run go run ./recall/fit and commit it", out)
		}
		fmt.Printf("%s is what the fit writes\n", out)
		return nil
	}
	if err := os.WriteFile(filepath.Clean(out), src, 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote %s\n", out)
	return nil
}
