package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/titanous/json5"
)

// EnvWorkspace names the environment variable that selects a workspace when
// no --workspace flag is given.
const EnvWorkspace = "MEMORIA_WORKSPACE"

// Resolution says which workspace folder was chosen and why.
type Resolution struct {
	Dir string // absolute path
	By  string // "--workspace", "$MEMORIA_WORKSPACE", "the current folder", "a folder above the current one", "OpenClaw config <path>", or "OpenClaw default"
}

// Env abstracts the process environment so resolution is testable.
type Env struct {
	Getenv  func(string) string
	HomeDir func() (string, error)
	Getwd   func() (string, error) // nil: the current folder plays no part
}

// OSEnv is the real process environment.
var OSEnv = Env{Getenv: os.Getenv, HomeDir: os.UserHomeDir, Getwd: os.Getwd}

// Resolve picks the workspace folder, first hit wins: the flag value,
// $MEMORIA_WORKSPACE, the current folder or the nearest folder above it
// that is a workspace (IsWorkspace), the OpenClaw config's
// agents.defaults.workspace (~/.openclaw/openclaw.json), then
// ~/.openclaw/workspace. It does not require the folder to exist; Open
// does.
func Resolve(flag string, env Env) (Resolution, error) {
	if flag != "" {
		return absResolution(flag, "--workspace", env)
	}
	if v := env.Getenv(EnvWorkspace); v != "" {
		return absResolution(v, "$"+EnvWorkspace, env)
	}
	if env.Getwd != nil {
		if wd, err := env.Getwd(); err == nil {
			for dir, by := wd, "the current folder"; ; by = "a folder above the current one" {
				if IsWorkspace(dir) {
					return Resolution{Dir: dir, By: by}, nil
				}
				up := filepath.Dir(dir)
				if up == dir {
					break
				}
				dir = up
			}
		}
	}
	home, err := env.HomeDir()
	if err != nil || home == "" {
		return Resolution{}, errors.New("no workspace: pass --workspace DIR or set " + EnvWorkspace + " (no home directory to look in)")
	}
	cfg := filepath.Join(home, ".openclaw", "openclaw.json")
	if data, err := os.ReadFile(cfg); err == nil {
		ws, err := openClawWorkspace(data)
		if err != nil {
			return Resolution{}, fmt.Errorf("openclaw config %s: %w", cfg, err)
		}
		if ws != "" {
			return absResolution(ws, "OpenClaw config "+cfg, env)
		}
	}
	return Resolution{Dir: filepath.Join(home, ".openclaw", "workspace"), By: "OpenClaw default"}, nil
}

func absResolution(dir, by string, env Env) (Resolution, error) {
	if dir == "~" || strings.HasPrefix(dir, "~/") {
		home, err := env.HomeDir()
		if err != nil {
			return Resolution{}, fmt.Errorf("workspace %s: %w", dir, err)
		}
		dir = filepath.Join(home, strings.TrimPrefix(dir, "~"))
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Resolution{}, fmt.Errorf("workspace %s: %w", dir, err)
	}
	return Resolution{Dir: abs, By: by}, nil
}

// openClawWorkspace reads agents.defaults.workspace from OpenClaw's config,
// which is JSON5 (comments, unquoted keys, single quotes, trailing commas).
func openClawWorkspace(data []byte) (string, error) {
	var cfg struct {
		Agents struct {
			Defaults struct {
				Workspace string `json:"workspace"`
			} `json:"defaults"`
		} `json:"agents"`
	}
	if err := json5.Unmarshal(data, &cfg); err != nil {
		return "", fmt.Errorf("cannot read as JSON5: %w", err)
	}
	return cfg.Agents.Defaults.Workspace, nil
}
