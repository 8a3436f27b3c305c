package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"memoria/memory"
)

// ErrTooLarge is wrapped when a memory file is over MaxGetBytes.
var ErrTooLarge = errors.New("over the size limit")

// errChanged says that what was opened is not what was checked: the file
// (or a folder above it) was replaced meanwhile. Open tries again.
var errChanged = errors.New("changed while it was opened; try again")

// openTries is how often Open resolves and opens a path that keeps
// changing before it gives up: a writer's rename between the check and the
// open costs one try.
const openTries = 3

// maxHops bounds the symlinks followed for one path, as the kernel does.
const maxHops = 40

// Reader opens the memory files of one workspace, and nothing else. Every
// reader of memory files that serves their content (get, the index,
// reflect) opens them through it, so that they all agree on what a memory
// file is and none of them can be led elsewhere:
//
//   - The path must be one of memory.ClassifyPath's (memory.md, memory/…,
//     bank/… ending in .md), and so must the file it really leads to once
//     every symlink is followed: a symlink to .memory/index.sqlite, to a
//     review file or out of the workspace is refused. A symlink to another
//     memory file is followed, and memory/ or bank/ may themselves be
//     symlinks to a folder inside the workspace (never .memory/).
//   - The file is opened once, beneath the workspace folder (os.Root, which
//     resolves each step relative to the folder it holds open), without
//     blocking (a FIFO swapped in cannot hang the caller), and the open
//     handle is what is checked: a regular file, and (fstat, or on Linux
//     the kernel's own name for the handle) the file the checked path
//     leads to. Checking a path and then opening it again let a symlink
//     swapped in between the two serve /etc/passwd.
//
// A Reader is safe for concurrent use.
type Reader struct {
	top     string // the workspace folder, symlinks resolved
	root    *os.Root
	folders layout
}

// NewReader opens the workspace in dir for reading its memory files.
func NewReader(dir string) (*Reader, error) {
	top, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	root, err := os.OpenRoot(top)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	return &Reader{top: top, root: root, folders: layout{top: top}}, nil
}

// Close releases the workspace folder; files opened stay open.
func (r *Reader) Close() error { return r.root.Close() }

// Open opens the memory file rel (workspace-relative, slash-separated) for
// reading, with its fstat. Errors wrap ErrNotMemoryFile for a path that is
// not a memory file or leads to something that is not one, and
// fs.ErrNotExist for a missing file.
func (r *Reader) Open(rel string) (*os.File, fs.FileInfo, error) {
	if strings.Contains(rel, `\`) {
		// A citation separates folders with "/"; a backslash would be a
		// separator on Windows and part of a name elsewhere (List skips
		// such names), so it names nothing for certain.
		return nil, nil, fmt.Errorf("a path with a backslash (use /): %w", ErrNotMemoryFile)
	}
	if _, _, ok := memory.ClassifyPath(rel); !ok {
		return nil, nil, ErrNotMemoryFile
	}
	rel = path.Clean(rel)
	var err error
	for range openTries {
		var f *os.File
		var fi fs.FileInfo
		if f, fi, err = r.open(rel); !errors.Is(err, errChanged) {
			return f, fi, err
		}
	}
	return nil, nil, err
}

// open is one try of Open.
func (r *Reader) open(rel string) (*os.File, fs.FileInfo, error) {
	real, err := r.resolve(rel)
	if err != nil {
		return nil, nil, err
	}
	if _, ok := r.folders.memoryRel(real); !ok {
		return nil, nil, fmt.Errorf("a symlink to %s: %w", real, ErrNotMemoryFile)
	}
	// O_NONBLOCK: a FIFO swapped in after resolve opens at once (and is
	// refused below) instead of waiting for a writer; a regular file
	// reads the same either way.
	f, err := r.root.OpenFile(real, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission):
		return nil, nil, err
	case err != nil:
		// Most likely a symlink leading out, swapped in after resolve.
		return nil, nil, fmt.Errorf("%w: %w", errChanged, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		// A FIFO or device would block the read (and a server with it).
		return nil, nil, errors.New("not a regular file")
	}
	if !r.opened(f, fi, real) {
		f.Close()
		return nil, nil, errChanged
	}
	return f, fi, nil
}

// opened reports whether f (fstat fi), opened at real, is a memory file
// of the workspace. Where the system names an open file (Linux's
// /proc/self/fd), that name decides; elsewhere the file must still be the
// one at real, which resolve found to be a memory file with no symlink on
// the way.
func (r *Reader) opened(f *os.File, fi fs.FileInfo, real string) bool {
	if p, ok := openedPath(f); ok {
		if rel, err := filepath.Rel(r.top, p); err == nil && Within(r.top, p) {
			_, ok := r.folders.memoryRel(filepath.ToSlash(rel))
			return ok
		}
	}
	at, err := r.root.Lstat(real)
	return err == nil && os.SameFile(fi, at)
}

// resolve follows every symlink along rel, inside the workspace, and
// returns the path it leads to with none left on the way. A symlink may be
// relative or absolute, but must not lead out of the workspace.
func (r *Reader) resolve(rel string) (string, error) {
	todo := strings.Split(rel, "/")
	done := "" // resolved so far: real folders
	for hops := 0; len(todo) > 0; {
		next := path.Join(done, todo[0])
		todo = todo[1:]
		fi, err := r.root.Lstat(next)
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			done = next
			continue
		}
		if hops++; hops > maxHops {
			return "", fmt.Errorf("%s: too many symlinks", rel)
		}
		target, err := r.root.Readlink(next)
		if err != nil {
			return "", err
		}
		var to string
		if filepath.IsAbs(target) {
			abs, err := filepath.EvalSymlinks(target)
			if err != nil {
				return "", err
			}
			if !Within(r.top, abs) {
				return "", fmt.Errorf("a symlink out of the workspace: %w", ErrNotMemoryFile)
			}
			t, _ := filepath.Rel(r.top, abs)
			to = filepath.ToSlash(t)
		} else {
			// done has no symlink in it, so ".." in the target can be
			// taken lexically.
			to = path.Join(done, filepath.ToSlash(target))
		}
		if to == ".." || strings.HasPrefix(to, "../") {
			return "", fmt.Errorf("a symlink out of the workspace: %w", ErrNotMemoryFile)
		}
		if to != "." {
			todo = append(strings.Split(to, "/"), todo...)
		}
		done = ""
	}
	return done, nil
}

// ReadFile reads the memory file rel through Open: at most MaxGetBytes
// (ErrTooLarge past that).
func (r *Reader) ReadFile(rel string) ([]byte, error) {
	f, fi, err := r.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > MaxGetBytes {
		return nil, fmt.Errorf("file is %d MB, %w of %d MB", fi.Size()>>20, ErrTooLarge, MaxGetBytes>>20)
	}
	// The file may have grown since its fstat: read one byte past the
	// limit to see it.
	data, err := io.ReadAll(io.LimitReader(f, MaxGetBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxGetBytes {
		return nil, fmt.Errorf("file grew %w of %d MB", ErrTooLarge, MaxGetBytes>>20)
	}
	return data, nil
}

// layout knows where the memory/ and bank/ folders of a workspace really
// are, which is elsewhere in it when they are symlinks.
type layout struct {
	top     string // the workspace folder, symlinks resolved
	once    sync.Once
	targets [2]string // of memory/ and bank/: "" unless a usable symlink
}

// memoryFolders are the folders whose target layout records.
var memoryFolders = [2]string{"memory", "bank"}

// folderTarget returns where the top-level folder name really is, relative
// to the workspace folder top, when it is a symlink; ok is false when it
// is one that leads out of the workspace, to the workspace itself, or into
// the index folder.
func folderTarget(top, name string) (target string, ok bool) {
	resolved, err := filepath.EvalSymlinks(filepath.Join(top, name))
	if err != nil || !Within(top, resolved) {
		return "", false
	}
	rel, _ := filepath.Rel(top, resolved)
	rel = filepath.ToSlash(rel)
	if rel == "." || inIndexDir(rel) {
		return "", false
	}
	return rel, true
}

func inIndexDir(rel string) bool {
	return rel == IndexDir || strings.HasPrefix(rel, IndexDir+"/")
}

// memoryRel returns the memory path of the file at real (workspace-
// relative, no symlink along it): real itself when it is a memory path,
// else its path through a symlinked memory/ or bank/ folder; ok is false
// when it is neither, and always for a file under the index folder.
func (l *layout) memoryRel(real string) (string, bool) {
	// A backslash: ClassifyPath would read it as a separator, which it
	// is not here (List skips such names).
	if inIndexDir(real) || strings.Contains(real, `\`) {
		return "", false
	}
	if _, _, ok := memory.ClassifyPath(real); ok {
		return real, true
	}
	l.once.Do(func() {
		for i, name := range memoryFolders {
			if fi, err := os.Lstat(filepath.Join(l.top, name)); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				l.targets[i], _ = folderTarget(l.top, name)
			}
		}
	})
	for i, t := range l.targets {
		if rest, ok := strings.CutPrefix(real, t+"/"); ok && t != "" {
			mapped := memoryFolders[i] + "/" + rest
			if _, _, ok := memory.ClassifyPath(mapped); ok {
				return mapped, true
			}
		}
	}
	return "", false
}

// IsMemoryTarget reports whether real, an absolute path with every symlink
// resolved, is a memory file of the workspace whose folder (symlinks
// resolved) is top: what a symlink from a memory path may lead to. Writers
// check it as Reader does, so that a memory path that is a symlink to
// .memory/index.sqlite, to a review file or to any other file of the
// folder is neither read nor written.
func IsMemoryTarget(top, real string) bool {
	if !Within(top, real) {
		return false
	}
	rel, err := filepath.Rel(top, real)
	if err != nil {
		return false
	}
	l := layout{top: top}
	_, ok := l.memoryRel(filepath.ToSlash(rel))
	return ok
}
