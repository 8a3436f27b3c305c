package mmapfile

import (
	"os"
	"unsafe"
)

// Mode says how a file is mapped.
type Mode int

const (
	// ReadOnly maps the file shared and read-only: writing into the
	// bytes faults.
	ReadOnly Mode = iota
	// CopyOnWrite maps the file privately: writes change this process's
	// copy of a page, never the file.
	CopyOnWrite
)

// Map maps size bytes of f (its whole content) into memory; unmap releases
// them, and the bytes must not be used after. Where mapping fails or is not
// available, the file is read instead (64-byte aligned, like a mapping, so
// that sections of float32 or int64 can be used in place).
func Map(f *os.File, size int64, mode Mode) (b []byte, unmap func(), err error) {
	if size <= 0 || int64(int(size)) != size {
		return Read(f, size)
	}
	if b, unmap, ok := mapFile(f, int(size), mode); ok {
		return b, unmap, nil
	}
	return Read(f, size)
}

// Read reads size bytes of f into memory aligned to 64 bytes; unmap does
// nothing.
func Read(f *os.File, size int64) ([]byte, func(), error) {
	if size < 0 {
		size = 0
	}
	buf := make([]uint64, (size+7)/8+8)
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(buf))), len(buf)*8)
	if p := uintptr(unsafe.Pointer(&b[0])) % 64; p != 0 {
		b = b[64-p:]
	}
	b = b[:size]
	if _, err := f.ReadAt(b, 0); err != nil {
		return nil, nil, err
	}
	return b, func() {}, nil
}
