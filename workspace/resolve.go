package workspace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// EnvWorkspace names the environment variable that selects a workspace when
// no --workspace flag is given.
const EnvWorkspace = "MEMORIA_WORKSPACE"

// Resolution says which workspace folder was chosen and why.
type Resolution struct {
	Dir string // absolute path
	By  string // "flag", "env", "openclaw config <path>", or "default"
}

// Env abstracts the process environment so resolution is testable.
type Env struct {
	Getenv  func(string) string
	HomeDir func() (string, error)
}

// OSEnv is the real process environment.
var OSEnv = Env{Getenv: os.Getenv, HomeDir: os.UserHomeDir}

// Resolve picks the workspace folder, first hit wins: the flag
// value, $MEMORIA_WORKSPACE, the OpenClaw config's agents.defaults.workspace
// (~/.openclaw/openclaw.json), then ~/.openclaw/workspace. It does not
// require the folder to exist; Open does.
func Resolve(flag string, env Env) (Resolution, error) {
	if flag != "" {
		return absResolution(flag, "flag", env)
	}
	if v := env.Getenv(EnvWorkspace); v != "" {
		return absResolution(v, "env "+EnvWorkspace, env)
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
			return absResolution(ws, "openclaw config "+cfg, env)
		}
	}
	return Resolution{Dir: filepath.Join(home, ".openclaw", "workspace"), By: "default"}, nil
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
// which is JSON5-ish: comments, trailing commas and unquoted keys occur.
func openClawWorkspace(data []byte) (string, error) {
	var cfg struct {
		Agents struct {
			Defaults struct {
				Workspace string `json:"workspace"`
			} `json:"defaults"`
		} `json:"agents"`
	}
	if err := json.Unmarshal(jsonish(data), &cfg); err != nil {
		return "", fmt.Errorf("cannot read as JSON5: %w", err)
	}
	return cfg.Agents.Defaults.Workspace, nil
}

// The patterns of jsonish, compiled on first use: only a workspace found
// through the OpenClaw config needs them.
var (
	unquotedKey = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`([{,]\s*)([A-Za-z_$][A-Za-z0-9_$]*)(\s*:)`)
	})
	trailingComma = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`,(\s*[}\]])`) })
)

// jsonish turns the common JSON5 extensions into JSON: // and /* */
// comments (outside strings) go, single-quoted strings get double quotes,
// unquoted keys get quotes, trailing commas go.
func jsonish(data []byte) []byte {
	var out bytes.Buffer
	inStr := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inStr {
			out.WriteByte(c)
			if c == '\\' && i+1 < len(data) {
				i++
				out.WriteByte(data[i])
			} else if c == '"' {
				inStr = false
			}
			continue
		}
		switch {
		case c == '"':
			inStr = true
			out.WriteByte(c)
		case c == '\'':
			// A single-quoted JSON5 string becomes a double-quoted one.
			out.WriteByte('"')
			for i++; i < len(data) && data[i] != '\''; i++ {
				switch {
				case data[i] == '\\' && i+1 < len(data):
					out.WriteByte('\\')
					i++
					out.WriteByte(data[i])
				case data[i] == '"':
					out.WriteString(`\"`)
				default:
					out.WriteByte(data[i])
				}
			}
			out.WriteByte('"')
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			out.WriteByte('\n')
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			end := bytes.Index(data[i+2:], []byte("*/"))
			if end < 0 {
				i = len(data)
			} else {
				i += end + 3
			}
		default:
			out.WriteByte(c)
		}
	}
	b := unquotedKey().ReplaceAll(out.Bytes(), []byte(`$1"$2"$3`))
	return trailingComma().ReplaceAll(b, []byte(`$1`))
}
