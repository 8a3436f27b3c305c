package mmapfile_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"memoria/internal/mmapfile"
)

func TestMapModesAndRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	want := bytes.Repeat([]byte("0123456789abcdef"), 1000)
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	open := map[string]func() ([]byte, func(), error){
		"read-only":     func() ([]byte, func(), error) { return mmapfile.Map(f, int64(len(want)), mmapfile.ReadOnly) },
		"copy-on-write": func() ([]byte, func(), error) { return mmapfile.Map(f, int64(len(want)), mmapfile.CopyOnWrite) },
		"read":          func() ([]byte, func(), error) { return mmapfile.Read(f, int64(len(want))) },
	}
	for name, fn := range open {
		b, unmap, err := fn()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(b, want) {
			t.Errorf("%s: content differs", name)
		}
		if uintptr(unsafe.Pointer(&b[0]))%64 != 0 {
			t.Errorf("%s: not 64-byte aligned", name)
		}
		if name != "read-only" {
			b[0] = 'X' // a private copy: the file must not change
		}
		unmap()
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
		t.Error("a copy-on-write or read copy wrote to the file")
	}
	// An empty file is read, not mapped.
	empty := filepath.Join(t.TempDir(), "empty")
	os.WriteFile(empty, nil, 0o644)
	g, _ := os.Open(empty)
	defer g.Close()
	if b, unmap, err := mmapfile.Map(g, 0, mmapfile.ReadOnly); err != nil || len(b) != 0 {
		t.Errorf("empty file: %d bytes, %v", len(b), err)
	} else {
		unmap()
	}
}
