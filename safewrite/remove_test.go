package safewrite

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRemove: Remove deletes a file of the workspace under the lock, and
// refuses a path out of it, or a memory file that is a symlink to a file
// outside, leaving that file alone; a file not there is no error.
func TestRemove(t *testing.T) {
	t.Parallel()
	root := newWorkspace(t)
	page := filepath.Join(root, "bank", "entities", "Andy.md")
	os.MkdirAll(filepath.Dir(page), 0o755)
	writeRaw(t, page, "# Andy\n", 0o644)
	outside := filepath.Join(t.TempDir(), "outside.md")
	writeRaw(t, outside, "not the workspace's\n", 0o644)
	if err := os.Symlink(outside, filepath.Join(root, "memory", "link.md")); err != nil {
		t.Fatal(err)
	}
	k, err := Lock(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Unlock()
	if err := k.Remove("bank/entities/Andy.md"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(page); !os.IsNotExist(err) {
		t.Errorf("the page is still there: %v", err)
	}
	if err := k.Remove("bank/entities/Andy.md"); err != nil {
		t.Errorf("removing it again: %v", err)
	}
	for _, rel := range []string{"../outside.md", "memory/link.md", outside} {
		if err := k.Remove(rel); err == nil {
			t.Errorf("Remove(%q) did not refuse", rel)
		}
	}
	if readRaw(t, outside) != "not the workspace's\n" {
		t.Error("the file outside changed")
	}
	k.Unlock()
	if err := k.Remove("memory/x.md"); err == nil {
		t.Error("Remove without the lock")
	}
}
