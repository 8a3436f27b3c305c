package flock

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestExclusiveExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	a, err := Exclusive(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	// flock locks belong to the open file description, so a second open in
	// the same process contends like another process would.
	if _, err := Exclusive(path, 0); !errors.Is(err, ErrTimeout) {
		t.Fatalf("second exclusive lock: got %v, want ErrTimeout", err)
	}
	if _, err := Shared(path, 0); !errors.Is(err, ErrTimeout) {
		t.Fatalf("shared under exclusive: got %v, want ErrTimeout", err)
	}
	if err := a.Unlock(); err != nil {
		t.Fatal(err)
	}
	b, err := Exclusive(path, 0)
	if err != nil {
		t.Fatalf("after unlock: %v", err)
	}
	b.Unlock()
}

func TestSharedCoexist(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	a, err := Shared(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Unlock()
	b, err := Shared(path, 0)
	if err != nil {
		t.Fatalf("two shared locks must coexist: %v", err)
	}
	defer b.Unlock()
	if _, err := Exclusive(path, 0); !errors.Is(err, ErrTimeout) {
		t.Fatalf("exclusive under shared: got %v, want ErrTimeout", err)
	}
}
