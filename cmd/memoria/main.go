// Command memoria gives an AI agent's Markdown workspace a long-term memory:
// a derived SQLite index and cited recall. Run `memoria help` for usage.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"

	"memoria"
	"memoria/workspace"
)

// Exit codes, documented in the README and in `memoria help`.
const (
	exitOK       = 0 // success (a recall with no results is a success)
	exitError    = 1 // the operation failed: I/O, index, bad data
	exitUsage    = 2 // bad command line: unknown flag, missing argument, bad value
	exitNoSpace  = 3 // no workspace at the resolved path
	exitNotFound = 4 // `get` or `forget` of lines or a file that do not exist, an unknown entity
)

// quickCommands are the short-lived query commands (see main).
var quickCommands = map[string]bool{"recall": true, "get": true, "status": true, "context": true, "entity": true}

// env is the process environment a command runs in, injectable for tests.
type env struct {
	stdout, stderr io.Writer
	stdin          io.Reader
	getenv         func(string) string
	home           func() (string, error)
	getwd          func() (string, error) // nil: the current folder is never the workspace
	isTerminal     bool                   // stderr is a terminal: progress bars allowed
}

type command struct {
	name, args, summary string
	run                 func(ctx context.Context, e *env, args []string) error
}

var commands []command

func init() {
	commands = []command{
		{"init", "[--workspace DIR]", "create the workspace layout (never overwrites a file)", runInit},
		{"index", "[--rebuild]", "bring the index up to date (or rebuild it from the Markdown)", runIndex},
		{"status", "[--deep] [--json]", "files, facts by kind, entities, passages, index size and freshness; --deep adds doctor's checks", runStatus},
		{"doctor", "[--json]", "check the index, the model, the vectors and the workspace's files, and say what to run to fix each problem", runDoctor},
		{"recall", "QUERY [--k 25] [--since 30d] [--until DATE] [--kind K] [--entity E] [--budget N] [--min-score S] [--json]", "search memory; every result cites its lines", runRecall},
		{"entity", "[NAME] [--json]", "an entity's page, current facts, timeline and opinions, each cited; without NAME, every known entity", runEntity},
		{"get", "PATH#Lx[-Ly]...", "print the cited lines of workspace files", runGet},
		{"eval", "QUERIES.jsonl [--baseline]", "score recall on a set of queries with gold lines", runEval},
		{"retain", "FACT... | - [--date YYYY-MM-DD] | --infer [--since 7d] | --accept", "append typed facts to a log's Retain section; propose and accept inferred ones", runRetain},
		{"core", "show [BLOCK] | append BLOCK TEXT | replace BLOCK OLD NEW | insert BLOCK LINE TEXT", "show or edit core memory (memory.md), block by block", runCore},
		{"context", "[QUERY] [--budget 2000] [--json]", "core memory plus the best recall for QUERY, within a token budget: text to inject at the start of a turn", runContext},
		{"watch", "[--debounce 300ms] [--json]", "keep the index fresh while files change (until interrupted)", runWatch},
		{"serve", "[--http 127.0.0.1:7377 [--token T] [--allow-remote]] [--watch]", "serve memory to agents over MCP (stdio, or streamable HTTP)", runServe},
		{"reflect", "[--since 7d] [--dry-run] [--now DATE] [--lexical]", "update entity pages, opinions and core proposals from the logs; mark stale curated lines", runReflect},
		{"import", "FILE... [--format F] [--dry-run]", "bring ChatGPT or Claude exports, OpenClaw session transcripts, CLAUDE.md or AGENTS.md into the daily logs", runImport},
		{"forget", "PATH#Lx[-Ly]... | --entity NAME | --query TEXT [--k 5] [--reason TEXT] [--no-trace] [--dry-run]", "remove lines from memory (a tombstone and a record of their hashes keep them out of every index and import)", runForget},
		{"model", "install|status|remove [NAME] [--from FILE] [--force]", "install, check or remove the offline embedding models semantic recall uses (uselite, the default, or minilm)", runModel},
		{"version", "[--json]", "the build: module version, commit, Go version, and whether the embedding model is installed", runVersion},
		{"help", "", "show this help", nil},
	}
}

func main() {
	// A query command lives for milliseconds and allocates little:
	// collecting garbage less often is free speed. Commands that build or
	// run long keep the default, which bounds their memory.
	if len(os.Args) > 1 && quickCommands[os.Args[1]] {
		debug.SetGCPercent(400)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fi, _ := os.Stderr.Stat()
	e := &env{
		stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin,
		getenv: os.Getenv, home: os.UserHomeDir, getwd: os.Getwd,
		isTerminal: fi != nil && fi.Mode()&os.ModeCharDevice != 0,
	}
	os.Exit(profiled(func() int { return run(ctx, e, os.Args[1:]) }))
}

// run executes one command line and returns the exit code. Errors are one
// line on stderr.
func run(ctx context.Context, e *env, args []string) int {
	args, err := hoistGlobalFlags(args)
	if err != nil {
		fmt.Fprintf(e.stderr, "memoria: %s\n", err)
		return exitUsage
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(e.stdout)
		return exitOK
	}
	if args[0] == "--version" || args[0] == "-version" {
		args[0] = "version"
	}
	for _, c := range commands {
		if c.name == args[0] && c.run != nil {
			err := c.run(ctx, e, args[1:])
			if err == nil {
				return exitOK
			}
			code := exitCode(err)
			if !errors.Is(err, flag.ErrHelp) {
				fmt.Fprintf(e.stderr, "memoria %s: %s\n", c.name, oneLine(err.Error()))
			}
			return code
		}
	}
	fmt.Fprintf(e.stderr, "memoria: unknown command %q (run `memoria help`)\n", args[0])
	return exitUsage
}

// globalFlags are the flags every command takes, which may also come
// before the command, as in git or docker (`memoria -w ws status`); the
// value says whether the flag takes a value.
var globalFlags = map[string]bool{"w": true, "workspace": true, "index": true, "json": false}

// hoistGlobalFlags moves global flags given before the command to just
// after it, where the command's own flag set reads them.
func hoistGlobalFlags(args []string) ([]string, error) {
	var global []string
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" && args[0] != "--" {
		name, _, hasValue := strings.Cut(strings.TrimLeft(args[0], "-"), "=")
		takesValue, ok := globalFlags[name]
		if !ok {
			break // -h, --help, --version, or a mistake the command reports
		}
		global = append(global, args[0])
		args = args[1:]
		if takesValue && !hasValue {
			if len(args) == 0 {
				return nil, fmt.Errorf("flag needs an argument: %s (run `memoria help`)", global[len(global)-1])
			}
			global = append(global, args[0])
			args = args[1:]
		}
	}
	if len(global) == 0 {
		return args, nil
	}
	if len(args) == 0 {
		return nil, errors.New("no command after " + strings.Join(global, " ") + " (run `memoria help`)")
	}
	return append(append([]string{args[0]}, global...), args[1:]...), nil
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "memoria: long-term memory for AI agents, kept as Markdown, recalled with citations.")
	fmt.Fprintln(w, "\nUsage: memoria COMMAND [flags]")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-7s %s\n          %s\n", c.name, c.args, c.summary)
	}
	fmt.Fprintln(w, "\nEvery command takes --workspace/-w DIR, --index PATH and --json, before or after")
	fmt.Fprintln(w, "the command. The workspace is otherwise $MEMORIA_WORKSPACE, the current folder or")
	fmt.Fprintln(w, "the nearest one above it holding memory.md, memory/ or .memory/, OpenClaw's")
	fmt.Fprintln(w, "agents.defaults.workspace (~/.openclaw/openclaw.json), or ~/.openclaw/workspace.")
	fmt.Fprintln(w, "Exit codes: 0 ok, 1 failure, 2 bad usage, 3 no workspace, 4 not found.")
}

// usageError marks a bad command line (exit 2).
type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// notFoundError marks a missing file or line range (exit 4).
type notFoundError struct{ err error }

func (n notFoundError) Error() string { return n.err.Error() }
func (n notFoundError) Unwrap() error { return n.err }

func exitCode(err error) int {
	var u usageError
	var nf notFoundError
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &u):
		return exitUsage
	case errors.Is(err, workspace.ErrNotFound):
		return exitNoSpace
	case errors.As(err, &nf):
		return exitNotFound
	}
	return exitError
}

// writeJSON prints v as one line of JSON, without escaping <, > and & (the
// output is read by agents and people, not embedded in HTML).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// common holds the flags every workspace command takes.
type common struct {
	workspace  string
	index      string
	json       bool
	bar        *progressBar // drawn while files are parsed, on a terminal only
	resolved   *workspace.Resolution
	built      string        // why open built the index ("" if it did not)
	buildStats memoria.Stats // what that build wrote
}

// resolve finds the workspace the command line names, once.
func (c *common) resolve(e *env) (workspace.Resolution, error) {
	if c.resolved == nil {
		res, err := workspace.Resolve(c.workspace, workspace.Env{Getenv: e.getenv, HomeDir: e.home, Getwd: e.getwd})
		if err != nil {
			return res, err
		}
		c.resolved = &res
	}
	return *c.resolved, nil
}

func newFlags(name string, e *env, c *common) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// Errors are reported in one line by run; the flag list is printed
	// only when asked for with -h.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.StringVar(&c.workspace, "workspace", "", "workspace `DIR` (default: $MEMORIA_WORKSPACE, the current folder or one above it, OpenClaw config, ~/.openclaw/workspace)")
	fs.StringVar(&c.workspace, "w", "", "workspace `DIR` (short for --workspace)")
	fs.StringVar(&c.index, "index", "", "index file `PATH`, or a shared PostgreSQL index postgres://… (default: $MEMORIA_INDEX_URL, else DIR/.memory/index.sqlite)")
	fs.BoolVar(&c.json, "json", false, "print JSON")
	return fs
}

// printHelp prints a command's synopsis and its flags as they are typed:
// --name VALUE (and -w), the usage text, the default when it is not the
// zero value.
func printHelp(w io.Writer, fs *flag.FlagSet) {
	for _, c := range commands {
		if c.name == fs.Name() {
			fmt.Fprintf(w, "Usage: memoria %s %s\n  %s\n\nFlags (before or after the arguments):\n", c.name, c.args, c.summary)
		}
	}
	fs.VisitAll(func(f *flag.Flag) {
		name, text := flag.UnquoteUsage(f)
		dashes := "--"
		if len(f.Name) == 1 {
			dashes = "-"
		}
		head := "  " + dashes + f.Name
		if name != "" {
			head += " " + name
		}
		if def := f.DefValue; def != "" && def != "false" && def != "0" && def != "[]" && def != "0s" {
			text += fmt.Sprintf(" (default %s)", def)
		}
		fmt.Fprintf(w, "%s\n      %s\n", head, text)
	})
}

// parseFlags parses flags that may come before or after positional
// arguments (`memoria recall "x" --k 5` as well as `memoria recall --k 5 "x"`).
func parseFlags(e *env, fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printHelp(e.stdout, fs)
				return nil, err
			}
			msg := err.Error()
			if strings.HasPrefix(msg, "flag provided but not defined") {
				msg += " (to search for text that starts with '-', put it after --)"
			}
			return nil, usageError{msg}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// open resolves and opens the workspace for a command.
func (c *common) open(ctx context.Context, e *env, progress bool) (*memoria.Workspace, error) {
	res, err := c.resolve(e)
	if err != nil {
		return nil, err
	}
	if err := workspace.CheckMarked(res.Dir); err != nil {
		return nil, err
	}
	index := c.index
	if index == "" {
		index = e.getenv("MEMORIA_INDEX_URL")
	}
	opts := memoria.Options{
		IndexPath: index,
		IndexName: e.getenv("MEMORIA_INDEX_NAME"),
		// Any command may build the index (recall on a new workspace),
		// and does little else meanwhile.
		BoundMemory: true,
		Warn:        func(msg string) { fmt.Fprintf(e.stderr, "warning: %s\n", oneLine(msg)) },
		Built:       func(reason string, st memoria.Stats) { c.built, c.buildStats = reason, st },
	}
	if progress && e.isTerminal {
		c.bar = &progressBar{w: e.stderr, label: "indexing"}
		opts.Progress = c.bar.update
	}
	ws, err := memoria.Open(ctx, res.Dir, opts)
	c.bar.done()
	if err != nil {
		return nil, err
	}
	if r := c.built; r != "" && r != "new" {
		fmt.Fprintf(e.stderr, "note: the index was %s and has been rebuilt from the Markdown\n", r)
	}
	return ws, nil
}
