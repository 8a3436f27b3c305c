package reflect

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"sort"
	"strings"
	"sync"

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
			if !strings.HasSuffix(f.Rel, ".md") || strings.Contains(strings.TrimPrefix(f.Rel, EntitiesDir), "/") {
				continue
			}
			file, err := snapshot(root, f.Rel)
			if err != nil {
				return nil, err
			}
			doc, err := markdown.Parse(f.Rel, file.Data)
			if err != nil {
				continue // binary: not a page reflect can manage
			}
			in.Pages[f.Rel] = file
			in.PageDocs[f.Rel] = doc
		case memory.FileCore:
			in.CorePath = f.Rel
		}
	}
	if in.Opinions, err = snapshot(root, OpinionsPath); err != nil {
		return nil, err
	}
	if in.Core, err = snapshot(root, in.CorePath); err != nil {
		return nil, err
	}
	if in.Proposals, err = snapshot(root, ProposalsPath); err != nil {
		return nil, err
	}
	if in.World, err = snapshot(root, WorldPath); err != nil {
		return nil, err
	}
	r, err := workspace.NewReader(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	in.Logs = make([]*memory.Document, len(logs))
	errs := make([]error, len(logs))
	var next sync.Mutex
	i := 0
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				next.Lock()
				j := i
				i++
				next.Unlock()
				if j >= len(logs) || ctx.Err() != nil {
					return
				}
				// Opened as get and the index open it: a log swapped
				// for a symlink to something that is not a memory file
				// (or a FIFO) since the listing is not read.
				data, err := r.ReadFile(logs[j])
				if errors.Is(err, workspace.ErrTooLarge) {
					continue // not indexed either
				}
				if err != nil {
					errs[j] = fmt.Errorf("reflect: read %s: %w", logs[j], err)
					continue
				}
				doc, err := markdown.Parse(logs[j], data)
				if err != nil {
					continue // binary content: nothing to reflect on
				}
				in.Logs[j] = doc
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	kept := in.Logs[:0]
	for _, d := range in.Logs {
		if d != nil {
			kept = append(kept, d)
		}
	}
	in.Logs = kept
	sort.Slice(in.Logs, func(a, b int) bool { return in.Logs[a].Path < in.Logs[b].Path })
	return in, nil
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
