package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"memoria/markdown"
)

// IndexDir is the folder, inside the workspace, of the derived index.
const IndexDir = ".memory"

// IndexFile is the derived index's path relative to the workspace.
const IndexFile = ".memory/index.sqlite"

// starter files written by Init when absent.
var starter = []struct{ path, text string }{
	{"memory.md", "# Core memory\n\n" + markdown.TemplateCore + "\n\n## About\n\n## Preferences\n"},
	{"bank/world.md", "# World\n\n" + markdown.TemplateWorld + "\n"},
	{"bank/experience.md", "# Experience\n\n" + markdown.TemplateExperience + "\n"},
	{"bank/opinions.md", "# Opinions\n\n" + markdown.TemplateOpinions + "\n"},
}

// InitResult lists what Init created and what it left alone.
type InitResult struct {
	Created []string
	Kept    []string
}

// Init creates the workspace layout in dir: memory/, bank/entities/,
// .memory/ and starter files. An existing file is never overwritten; it is
// reported in Kept.
func Init(dir string) (InitResult, error) {
	var res InitResult
	for _, d := range []string{"memory", "bank/entities", IndexDir} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
			return res, fmt.Errorf("init %s: %w", dir, err)
		}
	}
	if err := IgnoreIndexDir(filepath.Join(dir, IndexDir)); err != nil {
		return res, fmt.Errorf("init %s: %w", dir, err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "MEMORY.md")); err == nil {
		res.Kept = append(res.Kept, "MEMORY.md")
	}
	for _, f := range starter {
		if f.path == "memory.md" && len(res.Kept) > 0 {
			continue // MEMORY.md already plays this role
		}
		p := filepath.Join(dir, filepath.FromSlash(f.path))
		// O_EXCL: never overwrite, even if the file appears between a check and the write.
		fh, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			res.Kept = append(res.Kept, f.path)
			continue
		}
		if err != nil {
			return res, fmt.Errorf("init %s: %w", p, err)
		}
		_, werr := fh.WriteString(f.text)
		cerr := fh.Close()
		if werr != nil || cerr != nil {
			return res, fmt.Errorf("init %s: %w", p, errors.Join(werr, cerr))
		}
		res.Created = append(res.Created, f.path)
	}
	return res, nil
}

// IgnoreIndexDir writes a .gitignore of "*" into the index folder, unless
// one is there: the index is derived, and a `git add -A` of the workspace
// must not commit it (nor the .gitignore itself). The workspace's own
// .gitignore, if any, is not touched.
func IgnoreIndexDir(indexDir string) error {
	fh, err := os.OpenFile(filepath.Join(indexDir, ".gitignore"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	_, werr := fh.WriteString("# Derived from the Markdown by memoria; rebuilt at will, never committed.\n*\n")
	return errors.Join(werr, fh.Close())
}
