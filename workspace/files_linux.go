package workspace

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"time"

	"golang.org/x/sys/unix"
)

// folder is an open workspace folder: a file descriptor, which the listing
// reads with getdents and stats relative to, so that no path is looked up
// from the root again and nothing is sorted or allocated per entry beyond
// the names kept.
type folder struct{ fd int }

func openRoot(path string) (folder, error) {
	// O_PATH: like the path lookups it replaces, the listing needs no read
	// permission on the workspace folder itself.
	fd, err := openat(unix.AT_FDCWD, path, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC)
	if err != nil {
		return folder{-1}, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return folder{fd}, nil
}

func (f folder) open(name, prefix string) (sub folder, dirs, files []string, err error) {
	fd, err := openat(f.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC)
	if err != nil {
		return folder{-1}, nil, nil, err
	}
	sub = folder{fd}
	if dirs, files, err = sub.read(prefix); err != nil {
		sub.close()
		return folder{-1}, nil, nil, err
	}
	return sub, dirs, files, nil
}

// Offsets in a struct linux_dirent64, the same on every architecture.
const (
	direntReclen = 16
	direntType   = 18
	direntName   = 19
)

// read returns the entries of f as open does.
func (f folder) read(prefix string) (dirs, files []string, err error) {
	buf := make([]byte, 32<<10)
	for {
		n, err := unix.Getdents(f.fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		if n <= 0 {
			return dirs, files, nil
		}
		for b := buf[:n]; len(b) >= direntName; {
			reclen := int(binary.NativeEndian.Uint16(b[direntReclen:]))
			if reclen < direntName || reclen > len(b) {
				break
			}
			ino, typ, name := binary.NativeEndian.Uint64(b), b[direntType], b[direntName:reclen]
			b = b[reclen:]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			if ino == 0 || len(name) == 0 {
				continue // a deleted entry, as os.ReadDir skips it
			}
			if typ == unix.DT_UNKNOWN {
				// The file system does not say: ask, as os.ReadDir does.
				var st unix.Stat_t
				switch err := fstatat(f.fd, string(name), &st); {
				case err == unix.ENOENT:
					continue // gone meanwhile
				case err != nil:
					return nil, nil, err
				case st.Mode&unix.S_IFMT == unix.S_IFDIR:
					typ = unix.DT_DIR
				}
			}
			switch {
			case typ == unix.DT_DIR:
				if name[0] != '.' {
					dirs = append(dirs, string(name))
				}
			case hasMarkdownSuffix(name):
				files = append(files, prefix+string(name))
			}
		}
	}
}

func (f folder) lstat(name string) (fileStat, error) {
	var st unix.Stat_t
	if err := fstatat(f.fd, name, &st); err != nil {
		return fileStat{}, err
	}
	sec, nsec := st.Mtim.Unix()
	return fileStat{
		symlink: st.Mode&unix.S_IFMT == unix.S_IFLNK,
		regular: st.Mode&unix.S_IFMT == unix.S_IFREG,
		size:    st.Size,
		modTime: time.Unix(sec, nsec).UnixNano(),
	}, nil
}

func (f folder) close() { unix.Close(f.fd) }

// fstatat is an lstat of name relative to the folder dirfd.
func fstatat(dirfd int, name string, st *unix.Stat_t) error {
	for {
		err := unix.Fstatat(dirfd, name, st, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			return err
		}
	}
}

func openat(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}
