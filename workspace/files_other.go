//go:build !linux

package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
)

// folder is an open workspace folder: here, its path, for the portable
// listing with os.ReadDir and os.Lstat.
type folder struct{ path string }

func openRoot(path string) (folder, error) { return folder{path}, nil }

func (f folder) open(name, prefix string) (sub folder, dirs, files []string, err error) {
	sub = folder{filepath.Join(f.path, name)}
	entries, err := os.ReadDir(sub.path)
	if err != nil {
		return folder{}, nil, nil, err
	}
	for _, e := range entries {
		switch name := e.Name(); {
		case e.IsDir():
			if name[0] != '.' {
				dirs = append(dirs, name)
			}
		case hasMarkdownSuffix(name):
			files = append(files, prefix+name)
		}
	}
	return sub, dirs, files, nil
}

func (f folder) lstat(name string) (fileStat, error) {
	info, err := os.Lstat(filepath.Join(f.path, name))
	if err != nil {
		return fileStat{}, err
	}
	return fileStat{
		symlink: info.Mode()&fs.ModeSymlink != 0,
		regular: info.Mode().IsRegular(),
		size:    info.Size(),
		modTime: info.ModTime().UnixNano(),
	}, nil
}

func (folder) close() {}
