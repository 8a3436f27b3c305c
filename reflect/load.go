package reflect

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"memoria/forget"
	"memoria/markdown"
	"memoria/memory"
	"memoria/safewrite"
	"memoria/workspace"
)

// EntitiesDir is where entity pages live.
const EntitiesDir = "bank/entities/"

// WorldPath is the curated file of world facts.
const WorldPath = "bank/world.md"

// ProposalsPath is the review file of core-memory proposals: outside
// memory/ and bank/, so that nothing in it is indexed.
const ProposalsPath = "review/core-proposals.md"

// File is a workspace file as read, with the hash a later write checks.
type File struct {
	Data   []byte
	Hash   string // safewrite.Hash of Data; Hash(nil) for a missing file
	Exists bool
}

// Input is everything reflect computes from: the parsed daily logs, and
// every file it may write or consult, with its content hash.
type Input struct {
	Logs      []*memory.Document // the daily logs, sorted by path
	Opinions  File               // bank/opinions.md
	CorePath  string             // memory.md or MEMORY.md
	Core      File
	Proposals File            // ProposalsPath
	World     File            // WorldPath: curated world facts, checked for stale ones
	Pages     map[string]File // existing entity pages by path
	PageDocs  map[string]*memory.Document
}

// Load reads and parses the workspace in root: daily logs (in parallel),
// bank/opinions.md, entity pages, core memory and the proposals file.
// Nothing is locked: Write later checks that no file it replaces changed.
func Load(ctx context.Context, root string) (*Input, error) {
	files, _, err := workspace.List(root)
	if err != nil {
		return nil, err
	}
	in := &Input{Pages: map[string]File{}, PageDocs: map[string]*memory.Document{}, CorePath: "memory.md"}
	var logs []string
	for _, f := range files {
		switch f.Kind {
		case memory.FileLog:
			logs = append(logs, f.Rel)
		case memory.FileEntity:
			if err := in.loadPage(root, f.Rel); err != nil {
				return nil, err
			}
		case memory.FileCore:
			in.CorePath = f.Rel
		}
	}
	for _, f := range []struct {
		rel  string
		file *File
	}{{OpinionsPath, &in.Opinions}, {in.CorePath, &in.Core}, {ProposalsPath, &in.Proposals}, {WorldPath, &in.World}} {
		if *f.file, err = snapshot(root, f.rel); err != nil {
			return nil, err
		}
	}
	if in.Logs, err = readLogs(ctx, root, logs); err != nil {
		return nil, err
	}
	sort.Slice(in.Logs, func(a, b int) bool { return in.Logs[a].Path < in.Logs[b].Path })
	return in, nil
}

// loadPage reads the entity page rel, if it is one reflect can manage: a
// Markdown file directly in EntitiesDir, not binary.
func (in *Input) loadPage(root, rel string) error {
	if !strings.HasSuffix(rel, ".md") || strings.Contains(strings.TrimPrefix(rel, EntitiesDir), "/") {
		return nil
	}
	file, err := snapshot(root, rel)
	if err != nil {
		return err
	}
	doc, err := markdown.Parse(rel, file.Data)
	if err != nil {
		return nil // binary: not a page reflect can manage
	}
	in.Pages[rel] = file
	in.PageDocs[rel] = doc
	return nil
}

// readLogs reads and parses the daily logs, in parallel, leaving out
// those too large to index and binary ones. What the workspace forgot is
// read as the index reads it, as blank lines (forget.Mask): reflect never
// copies a forgotten fact into a page or an opinion.
func readLogs(ctx context.Context, root string, logs []string) ([]*memory.Document, error) {
	gone, err := forget.Load(root)
	if err != nil {
		return nil, fmt.Errorf("reflect: %w", err)
	}
	r, err := workspace.NewReader(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	docs := make([]*memory.Document, len(logs))
	errs := make([]error, len(logs))
	var next atomic.Int64 // the next log to read
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Go(func() {
			for {
				j := int(next.Add(1) - 1)
				if j >= len(logs) || ctx.Err() != nil {
					return
				}
				// Opened as get and the index open it: a log swapped for a
				// symlink to something that is not a memory file (or a FIFO)
				// since the listing is not read.
				data, err := r.ReadFile(logs[j])
				switch {
				case errors.Is(err, workspace.ErrTooLarge): // not indexed either
				case err != nil:
					errs[j] = fmt.Errorf("reflect: read %s: %w", logs[j], err)
				default:
					docs[j], _ = markdown.Parse(logs[j], forget.Mask(data, gone)) // nil for binary content: nothing to reflect on
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return slices.DeleteFunc(docs, func(d *memory.Document) bool { return d == nil }), nil
}

func snapshot(root, rel string) (File, error) {
	data, hash, err := safewrite.Snapshot(root, rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return File{Hash: safewrite.Hash(nil)}, nil
		}
		return File{}, fmt.Errorf("reflect: %w", err)
	}
	return File{Data: data, Hash: hash, Exists: data != nil}, nil
}
