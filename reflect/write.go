package reflect

import (
	"context"
	"fmt"
	"strings"

	"memoria/safewrite"
)

// ErrChanged is wrapped when a file reflect meant to write changed after
// it was read; nothing was written.
var ErrChanged = safewrite.ErrChanged

// WriteOptions shape Write.
type WriteOptions struct {
	safewrite.Options
	// BeforeWrite, when set, runs after the plan is computed and before
	// the write lock is taken: tests use it to edit a file "while reflect
	// runs".
	BeforeWrite func()
}

// Write applies a plan: under the workspace write lock it first checks
// that every file to write still has the content hash it had when it was
// read, and refuses to write anything if one changed (the error wraps
// ErrChanged and names the files); then it replaces each file atomically,
// the opinions file first.
func Write(ctx context.Context, root string, p *Plan, o WriteOptions) error {
	if o.BeforeWrite != nil {
		o.BeforeWrite()
	}
	if len(p.Changes) == 0 {
		return nil
	}
	if o.Holder == "" {
		o.Holder = "memoria reflect"
	}
	k, err := safewrite.Lock(root, o.Options)
	if err != nil {
		return fmt.Errorf("reflect: %w", err)
	}
	defer k.Unlock()
	var changed []string
	for _, c := range p.Changes {
		cur, _, err := k.ReadFile(c.Path)
		if err != nil {
			return fmt.Errorf("reflect: %w", err)
		}
		if safewrite.Hash(cur) != c.OldHash {
			changed = append(changed, c.Path)
		}
	}
	if len(changed) > 0 {
		return fmt.Errorf("reflect: %s changed while reflect was computing; nothing was written, run reflect again: %w",
			strings.Join(changed, ", "), ErrChanged)
	}
	var done []string
	for _, c := range p.Changes {
		if err := ctx.Err(); err != nil {
			return partial(done, err)
		}
		if err := k.WriteIfUnchanged(c.Path, c.OldHash, c.New); err != nil {
			return partial(done, err)
		}
		done = append(done, c.Path)
	}
	return nil
}

func partial(done []string, err error) error {
	if len(done) == 0 {
		return fmt.Errorf("reflect: %w", err)
	}
	return fmt.Errorf("reflect: wrote %s, then: %w", strings.Join(done, ", "), err)
}

// Run loads the workspace, computes the plan and, unless dryRun, writes
// it. A dry run returns the plan with nothing written.
func Run(ctx context.Context, root string, o Options, dryRun bool, wo WriteOptions) (*Plan, error) {
	in, err := Load(ctx, root)
	if err != nil {
		return nil, err
	}
	p, err := Compute(in, o)
	if err != nil {
		return nil, err
	}
	if dryRun {
		return p, nil
	}
	return p, Write(ctx, root, p, wo)
}
