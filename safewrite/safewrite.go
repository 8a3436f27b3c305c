package safewrite

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"memoria/flock"
	"memoria/memory"
	"memoria/workspace"
)

// LockFile is the workspace-relative path of the write lock.
const LockFile = workspace.IndexDir + "/write.lock"

// DefaultLockTimeout is how long a writer waits for another one.
const DefaultLockTimeout = 10 * time.Second

// MaxFileSize bounds what Update and ReadFile read of a file.
const MaxFileSize = workspace.MaxGetBytes

// DefaultPerm is the permission of a file that did not exist before.
const DefaultPerm fs.FileMode = 0o644

// ErrChanged is wrapped by WriteIfUnchanged when the file on disk is no
// longer the version the caller read.
var ErrChanged = errors.New("file changed since it was read")

// ErrLocked is wrapped when the write lock could not be taken in time.
var ErrLocked = flock.ErrTimeout

// Options tune a write. The zero value is ready to use.
type Options struct {
	// LockTimeout bounds the wait for another writer; 0 means
	// DefaultLockTimeout, a negative value means do not wait.
	LockTimeout time.Duration
	// Holder names the write ("memoria retain"); the lock file records it
	// after the process's own command line, so that another writer that
	// times out can say who holds the lock and what it is doing.
	Holder string
	// AfterWrite, if set, runs under the lock once Update has written a
	// changed file (the library brings its index up to date there, so
	// writers never contend for the index).
	AfterWrite func() error
}

func (o Options) timeout() time.Duration {
	switch {
	case o.LockTimeout < 0:
		return 0
	case o.LockTimeout == 0:
		return DefaultLockTimeout
	}
	return o.LockTimeout
}

// Locked is a held workspace write lock. Its methods write files of that
// workspace; Unlock releases it.
type Locked struct {
	root string
	l    *flock.Lock
}

// Lock takes the write lock of the workspace in root, creating .memory/ if
// needed, waiting up to the options' timeout. A timeout error names the
// process holding the lock.
func Lock(root string, o Options) (*Locked, error) {
	if err := workspace.Check(root); err != nil {
		return nil, err
	}
	path, err := workspace.Path(root, LockFile)
	if err != nil {
		return nil, fmt.Errorf("write lock: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("write lock: %w", err)
	}
	// Writers are served in order of arrival (flock.Queued): a server
	// retaining for many clients in a loop no longer starves a one-shot
	// command.
	l, err := flock.Queued(path, o.timeout())
	if err != nil {
		var te *flock.TimeoutError
		if errors.As(err, &te) {
			ahead := ""
			if te.Ahead > 0 {
				ahead = fmt.Sprintf(", %d writers queued ahead", te.Ahead)
			}
			return nil, fmt.Errorf("workspace %s is being written by %s: %w (waited %s%s); retry once it is done", root, holderOf(path, te), te.Unwrap(), te.Waited, ahead)
		}
		return nil, fmt.Errorf("write lock: %w", err)
	}
	// Record who holds the lock; advisory locks do not keep us from
	// writing the lock file itself. Failing to record is not fatal. The
	// process's own command line comes first: the write's name (Holder)
	// is the library call's ("memoria retain"), which a server also makes.
	holder := strings.TrimPrefix(o.Holder, "memoria ")
	if holder == "" {
		holder = "a write"
	}
	info := fmt.Sprintf("pid %d (%s; %s, since %s)\n", os.Getpid(), flock.Command(), holder, time.Now().Format(time.RFC3339))
	if f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0); err == nil {
		f.WriteString(info)
		f.Close()
	}
	hook("locked", 0)
	root, err = filepath.EvalSymlinks(root)
	if err != nil {
		l.Unlock()
		return nil, fmt.Errorf("workspace %s: %w", root, err)
	}
	return &Locked{root: root, l: l}, nil
}

// holderOf names the process that holds the write lock at path: the
// kernel's holder (te.Holders), with what its own line in the lock file
// says it is doing when that line is its own. The line alone, written by
// the last writer to take the lock, is trusted only when the kernel's
// holders are not known (not Linux, or the holder is this process).
func holderOf(path string, te *flock.TimeoutError) string {
	var line string
	if b, err := os.ReadFile(path); err == nil {
		line = strings.Join(strings.Fields(string(b[:min(len(b), 300)])), " ")
	}
	var pid int
	fmt.Sscanf(line, "pid %d (", &pid)
	switch {
	case len(te.Holders) > 0:
	case pid == os.Getpid():
		return line
	case line != "":
		return "another process (last recorded: " + line + ")"
	default:
		return "another process"
	}
	var names []string
	for _, h := range te.Holders {
		if h.PID == pid {
			names = append(names, line)
		} else {
			names = append(names, h.String())
		}
	}
	return strings.Join(names, ", ")
}

// Unlock releases the lock. It is safe to call more than once.
func (k *Locked) Unlock() error {
	if k == nil || k.l == nil {
		return nil
	}
	err := k.l.Unlock()
	k.l = nil
	return err
}

// Root is the workspace folder, symlinks resolved.
func (k *Locked) Root() string { return k.root }

// ReadFile reads a workspace file. A missing file reads as nil with
// exists false and no error.
func (k *Locked) ReadFile(rel string) (data []byte, exists bool, err error) {
	return read(k.root, rel)
}

// WriteFile replaces (or creates) a workspace file atomically with data.
func (k *Locked) WriteFile(rel string, data []byte) error {
	if k == nil || k.l == nil {
		return fmt.Errorf("write %s: the write lock is not held", rel)
	}
	if len(data) > MaxFileSize {
		return fmt.Errorf("write %s: it would be %d MB, over the %d MB limit of a memory file (start a new file)", rel, len(data)>>20, MaxFileSize>>20)
	}
	p, err := target(k.root, rel)
	if err != nil {
		return err
	}
	if err := atomicWrite(p, data); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return nil
}

// WriteIfUnchanged writes data to rel only if the file's current content
// still has the hash want (from Hash of what the caller read; Hash(nil)
// for a file that did not exist). Otherwise it writes nothing and returns
// an error wrapping ErrChanged.
func (k *Locked) WriteIfUnchanged(rel, want string, data []byte) error {
	cur, _, err := k.ReadFile(rel)
	if err != nil {
		return err
	}
	if Hash(cur) != want {
		return fmt.Errorf("write %s: %w; read it again and redo the change", rel, ErrChanged)
	}
	return k.WriteFile(rel, data)
}

// Hash is the content hash used for optimistic checks: "sha256:" and the
// hex digest. A missing file is hashed as empty content.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Snapshot reads a workspace file (nil if missing) and its Hash, without
// taking the lock: the hash is what WriteIfUnchanged later checks.
func Snapshot(root, rel string) (data []byte, hash string, err error) {
	data, _, err = read(root, rel)
	if err != nil {
		return nil, "", err
	}
	return data, Hash(data), nil
}

// WriteFile replaces (or creates) the workspace file rel atomically with
// data, under the workspace write lock.
func WriteFile(root, rel string, data []byte, o Options) error {
	k, err := Lock(root, o)
	if err != nil {
		return err
	}
	defer k.Unlock()
	return k.WriteFile(rel, data)
}

// Update reads the workspace file rel (nil if it does not exist), passes
// it to fn and writes what fn returns, all under the workspace write lock
// and with default Options. When fn fails nothing is written and its error
// is returned; when fn returns the content unchanged nothing is written.
func Update(root, rel string, fn func(old []byte) ([]byte, error)) error {
	return UpdateWith(root, rel, Options{}, fn)
}

// UpdateWith is Update with options.
func UpdateWith(root, rel string, o Options, fn func(old []byte) ([]byte, error)) error {
	k, err := Lock(root, o)
	if err != nil {
		return err
	}
	defer k.Unlock()
	old, exists, err := k.ReadFile(rel)
	if err != nil {
		return err
	}
	data, err := fn(old)
	if err != nil {
		return err
	}
	if bytes.Equal(data, old) && (exists || len(data) == 0) {
		return nil
	}
	if err := k.WriteFile(rel, data); err != nil {
		return err
	}
	if o.AfterWrite != nil {
		return o.AfterWrite()
	}
	return nil
}

// target confines rel to the workspace in root and resolves a symlink
// inside the workspace to the file it names, so that the link survives.
func target(root, rel string) (string, error) {
	p, err := workspace.Path(root, rel)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(p)
	switch {
	case err == nil:
		// A memory file is written where it really is only when that is
		// a memory file too, as readers read it (workspace.Reader): a
		// symlink to the index, a review file or a file of a code
		// repository beside the Markdown is refused.
		if _, _, memoryFile := memory.ClassifyPath(rel); memoryFile && real != p {
			top, err := filepath.EvalSymlinks(root)
			if err != nil || !workspace.IsMemoryTarget(top, real) {
				return "", fmt.Errorf("path %q: a symlink to a file that is not a memory file of the workspace: %w", rel, workspace.ErrNotMemoryFile)
			}
		}
		p = real
	case !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("path %q: %w", rel, err)
	default:
		// A dangling symlink: refuse rather than create its target.
		if fi, lerr := os.Lstat(p); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return "", fmt.Errorf("path %q: is a broken symlink", rel)
		}
	}
	return p, nil
}

// read reads the workspace file rel, nil and false when it does not
// exist. Memory files are read as every reader of them reads them
// (workspace.Reader: opened once, the open file checked); other files
// (review/) at their target.
func read(root, rel string) ([]byte, bool, error) {
	if _, _, ok := memory.ClassifyPath(rel); ok {
		r, err := workspace.NewReader(root)
		if err != nil {
			return nil, false, err
		}
		defer r.Close()
		data, err := r.ReadFile(rel)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, false, nil
		case err != nil:
			return nil, false, fmt.Errorf("read %s: %w", rel, err)
		}
		return data, true, nil
	}
	p, err := target(root, rel)
	if err != nil {
		return nil, false, err
	}
	return readFile(rel, p)
}

func readFile(rel, p string) ([]byte, bool, error) {
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("read %s: %w", rel, err)
	case !fi.Mode().IsRegular():
		return nil, false, fmt.Errorf("read %s: not a regular file", rel)
	case fi.Size() > MaxFileSize:
		return nil, false, fmt.Errorf("read %s: file is %d MB, over the %d MB limit", rel, fi.Size()>>20, MaxFileSize>>20)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", rel, err)
	}
	return data, true, nil
}

// atomicWrite replaces the file at p (symlinks resolved, confined) with
// data: temporary file in the same folder, write, fsync, chmod to the old
// file's permissions, rename, fsync the folder. On any failure before the
// rename the old file is untouched and the temporary file removed.
func atomicWrite(p string, data []byte) (err error) {
	dir, base := filepath.Split(p)
	dir = filepath.Clean(dir)
	perm := DefaultPerm
	switch fi, err := os.Stat(p); {
	case err == nil && !fi.Mode().IsRegular():
		return errors.New("not a regular file")
	case err == nil:
		perm = fi.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	removeStale(dir, base)
	return replace(dir, base, p, perm, func(f *os.File) error { return writeAll(f, data) },
		func(step string) { hook(step, 0) })
}

// ReplaceFile atomically replaces the file at path with what write
// produces: a temporary file beside it, written through a buffer, synced,
// renamed over path, and the folder synced. On failure the old file is
// untouched. It is for derived files outside the Markdown (the index's
// side files, caches): no confinement to a workspace and no lock, so of
// concurrent writers the last rename wins, each with a whole file.
func ReplaceFile(path string, perm fs.FileMode, write func(io.Writer) error) error {
	p, err := PrepareFile(path, perm, write)
	if err != nil {
		return err
	}
	return p.Commit()
}

// Prepared is a replacement of a file written and synced beside it but
// not yet in its place: Commit puts it there, Discard removes it. It lets
// a program write a file early and replace the old one only once what the
// file goes with is in place (a build's postings snapshot, its index).
type Prepared struct {
	dir, tmp, path string
	step           func(string)
}

// PrepareFile is ReplaceFile up to the rename: what write produces is in a
// synced temporary file beside path, which is not touched yet.
func PrepareFile(path string, perm fs.FileMode, write func(io.Writer) error) (*Prepared, error) {
	dir, base := filepath.Split(path)
	return prepare(filepath.Clean(dir), base, path, perm, func(f *os.File) error {
		w := bufio.NewWriterSize(f, 1<<20)
		if err := write(w); err != nil {
			return err
		}
		return w.Flush()
	}, func(string) {})
}

// Commit renames the prepared file over its path and syncs the folder.
// On failure the temporary file is removed and the old file untouched.
func (p *Prepared) Commit() error {
	if err := os.Rename(p.tmp, p.path); err != nil {
		os.Remove(p.tmp)
		return err
	}
	p.step("renamed")
	// The new content is in place; a failure to make the rename durable is
	// reported but nothing is undone.
	if err := syncDir(p.dir); err != nil {
		return fmt.Errorf("written, but syncing the folder failed: %w", err)
	}
	p.step("dir-synced")
	return nil
}

// Discard removes the prepared file; on a nil Prepared it does nothing.
func (p *Prepared) Discard() {
	if p != nil {
		os.Remove(p.tmp)
	}
}

// replace is the atomic replacement both writers share; step marks its
// points for the tests' pause hook.
func replace(dir, base, p string, perm fs.FileMode, write func(*os.File) error, step func(string)) error {
	pr, err := prepare(dir, base, p, perm, write, step)
	if err != nil {
		return err
	}
	return pr.Commit()
}

// prepare writes and syncs the temporary file of a replacement.
func prepare(dir, base, p string, perm fs.FileMode, write func(*os.File) error, step func(string)) (_ *Prepared, err error) {
	f, err := createTemp(dir, tempPattern(base))
	if err != nil {
		return nil, err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	step("temp-created")
	if err = f.Chmod(perm); err != nil {
		return nil, err
	}
	if err = write(f); err != nil {
		return nil, err
	}
	if err = f.Sync(); err != nil {
		return nil, err
	}
	step("synced")
	if err = f.Close(); err != nil {
		return nil, err
	}
	return &Prepared{dir: dir, tmp: tmp, path: p, step: step}, nil
}

// writeAll writes data in two halves around a hook point, through the
// injectable writer.
func writeAll(f *os.File, data []byte) error {
	cut := pauseOffset(len(data))
	for _, part := range [][]byte{data[:cut], data[cut:]} {
		for len(part) > 0 {
			n, err := write(f, part)
			if err != nil {
				return err
			}
			if n <= 0 {
				return errors.New("short write")
			}
			part = part[n:]
		}
		if cut < len(data) {
			hook("writing", cut)
			cut = len(data)
		}
	}
	return nil
}

// write is the writer of temporary files; tests replace it to simulate a
// full disk.
var write = func(f *os.File, b []byte) (int, error) { return f.Write(b) }

// createTemp creates temporary files; tests replace it to simulate a
// folder that may not be written.
var createTemp = os.CreateTemp

func tempPattern(base string) string { return "." + base + ".*.tmp" }

// removeStale removes temporary files left in dir by a killed writer: of
// base, and of any Markdown file of the folder. Only writers holding the
// workspace lock create them, so under the lock any that exist are stale.
func removeStale(dir, base string) {
	for _, pattern := range []string{"." + globEscape(base) + ".*.tmp", ".*.md.*.tmp"} {
		matches, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, m := range matches {
			os.Remove(m)
		}
	}
}

func globEscape(pattern string) string {
	var b strings.Builder
	for _, r := range pattern {
		switch r {
		case '[', ']', '?', '*', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
