package safewrite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Remove deletes the workspace file rel, under the lock, and syncs its
// folder so that the deletion survives a power cut. The path is confined
// as WriteFile's: a symlink inside the workspace is followed to the file
// it names, one that leads out of the workspace (or from a memory file to
// anything but one) is refused. A file that is not there is no error.
func (k *Locked) Remove(rel string) error {
	if k == nil || k.l == nil {
		return fmt.Errorf("remove %s: the write lock is not held", rel)
	}
	p, err := target(k.root, rel)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", rel, err)
	}
	if err := syncDir(filepath.Dir(p)); err != nil {
		return fmt.Errorf("remove %s: removed, but syncing the folder failed: %w", rel, err)
	}
	return nil
}
