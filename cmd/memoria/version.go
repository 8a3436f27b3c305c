package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"

	"memoria/embed/models"
)

// buildInfo is what `memoria version` reports.
type buildInfo struct {
	Version   string `json:"version"`            // module version ("(devel)" for a build from a clone)
	Commit    string `json:"commit,omitempty"`   // VCS revision, when built from a checkout
	Time      string `json:"time,omitempty"`     // commit time
	Modified  bool   `json:"modified,omitempty"` // built with uncommitted changes
	Go        string `json:"go"`
	Platform  string `json:"platform"`
	Model     string `json:"model"` // "installed" or "not installed"
	ModelPath string `json:"model_path"`
}

// runVersion prints the build: module version, commit, Go version, and
// whether the embedding model is installed (and where it is looked for).
func runVersion(_ context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("version", e, &c)
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("version takes no arguments, got %q", pos[0])
	}
	b := buildInfo{Version: "(unknown)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		b.Version = bi.Main.Version
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Commit = s.Value
			case "vcs.time":
				b.Time = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	dir := e.getenv("MEMORIA_MODEL_DIR")
	if dir == "" {
		dir = models.Dir()
	}
	m, _, err := models.Selected(dir)
	if err != nil {
		return usagef("%v", err)
	}
	b.ModelPath = m.Path(dir)
	b.Model = m.Name + " not installed (" + m.InstallCommand() + ")"
	if m.Installed(dir) {
		b.Model = m.Name + " installed"
	}
	if c.json {
		return writeJSON(e.stdout, b)
	}
	commit := b.Commit
	if len(commit) > 12 {
		commit = commit[:12]
	}
	if commit != "" && b.Modified {
		commit += " (with uncommitted changes)"
	}
	if commit == "" {
		commit = "unknown"
	}
	fmt.Fprintf(e.stdout, "memoria %s\ncommit  %s %s\ngo      %s %s\nmodel   %s: %s\n", b.Version, commit, b.Time, b.Go, b.Platform, b.Model, b.ModelPath)
	return nil
}
