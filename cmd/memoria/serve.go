package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"memoria"
	"memoria/mcp"
	"memoria/memory"
	"memoria/postgres"
	"memoria/team"
	"memoria/watch"
	"memoria/web"
)

// runServe serves the workspace over MCP: stdio by default, streamable HTTP
// on a loopback address with --http, with the web page (package web) at /.
func runServe(ctx context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("serve", e, &c)
	httpAddr := fs.String("http", "", fmt.Sprintf("serve streamable HTTP on `HOST:PORT` (e.g. 127.0.0.1:7377; port 0 picks a free one) instead of stdio, with a page to look at memory at /; at most %d MCP sessions are kept (a new one beyond closes the least recently used), and one idle for %d minutes is closed", mcp.DefaultMaxSessions, int(mcp.SessionTimeout.Minutes())))
	token := fs.String("token", "", "with --http: require \"Authorization: Bearer `TOKEN`\" (default $MEMORIA_TOKEN)")
	allowRemote := fs.Bool("allow-remote", false, "with --http: allow a non-loopback address (needs a token)")
	var origins stringList
	fs.Var(&origins, "allow-origin", "with --http: also accept requests from web pages of this `ORIGIN` (https://host:port; repeatable); pages of other origins get 403, except loopback ones")
	watchFlag := fs.Bool("watch", false, "keep the index fresh while files change (as memoria watch does)")
	teamFile := fs.String("team", "", "with --http: serve the workspaces and tokens of the team configuration `FILE` from their shared PostgreSQL index (docs/team.md) instead of one workspace")
	maxStale := fs.Duration("max-stale", team.DefaultMaxStale, "with --team: how old (`DURATION`, such as 2s or 500ms) a workspace's index may be when a recall answers from it (every half of it, each workspace whose folder changed is synced in the background, or every workspace where folders are not watched, and each answer says how old; 0: every recall checks every file of its workspaces first)")
	verbose := fs.Bool("v", false, "log requests and errors to stderr")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("serve takes no arguments, got %q", pos[0])
	}
	if *token == "" {
		*token = e.getenv("MEMORIA_TOKEN")
	}
	if *httpAddr == "" && (*allowRemote || *token != "" || len(origins) > 0) {
		if *allowRemote || len(origins) > 0 {
			return usagef("--allow-remote and --allow-origin go with --http HOST:PORT")
		}
		*token = "" // a token in the environment does not matter on stdio
	}
	if *httpAddr != "" {
		if err := mcp.CheckListenAddr(*httpAddr, *allowRemote); err != nil {
			return usagef("%v", err)
		}
		if *allowRemote && *token == "" && *teamFile == "" {
			return usagef("--allow-remote needs a bearer token: pass --token or set MEMORIA_TOKEN (a --team configuration has its own)")
		}
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
	if *teamFile != "" {
		if *httpAddr == "" {
			return usagef("--team goes with --http HOST:PORT")
		}
		if *maxStale < 0 {
			return usagef("--max-stale %s: not negative", *maxStale)
		}
		return serveTeam(ctx, e, *teamFile, *httpAddr, *maxStale, logger)
	}
	ws, err := c.open(ctx, e, false)
	if err != nil {
		return err
	}
	srv := mcp.NewServer(ws, mcp.Options{Tools: mcp.Tools(), Logger: logger})

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	bg := serveBackground{e: e, logger: logger, watch: *watchFlag}
	bg.start(ctx, ws)
	defer func() {
		cancel()
		bg.stop()
		ws.Close()
	}()

	if *httpAddr == "" {
		return srv.ServeStdio(ctx, e.stdin, e.stdout)
	}
	ln, err := net.Listen("tcp", *httpAddr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *httpAddr, err)
	}
	auth := "no token"
	if *token != "" {
		auth = "bearer token required"
	}
	fmt.Fprintf(e.stderr, "memoria: serving MCP for %s on http://%s%s (%s)\n", ws.Dir(), ln.Addr(), mcp.HTTPPath, auth)
	if *token != "" {
		fmt.Fprintf(e.stderr, "memoria: the page is at http://%s/ (open http://%s/?token=TOKEN once, with the server's token)\n", ln.Addr(), ln.Addr())
	} else {
		fmt.Fprintf(e.stderr, "memoria: the page is at http://%s/\n", ln.Addr())
	}
	page := web.Handler(srv, web.Options{Logger: logger})
	return srv.ServeHTTP(ctx, ln, mcp.HTTPOptions{Token: *token, AllowedOrigins: origins, Page: page})
}

// syncLogger reports index syncs, the first one and then those that
// changed the index: one line each on w (JSON with asJSON). Failures go to
// stderr; the watch goes on.
func syncLogger(e *env, w io.Writer, asJSON bool) func(memory.Stats, error) {
	first := true
	return func(st memory.Stats, err error) {
		if err != nil {
			fmt.Fprintf(e.stderr, "memoria: sync failed (retried at the next change): %s\n", oneLine(err.Error()))
			return
		}
		if !first && !st.Changed() {
			return
		}
		first = false
		if asJSON {
			fmt.Fprintf(w, "{\"files\":%d,\"parsed\":%d,\"removed\":%d,\"items\":%d,\"ms\":%d}\n",
				st.Files, st.Parsed, st.Removed, st.Items, st.Duration.Milliseconds())
			return
		}
		fmt.Fprintf(w, "memoria: index up to date: %d files, %d re-indexed, %d removed (%s)\n",
			st.Files, st.Parsed, st.Removed, st.Duration.Round(time.Millisecond))
	}
}

// serveBackground is what a server runs beside its calls: with --watch,
// the index kept fresh while files change.
type serveBackground struct {
	e      *env
	logger *slog.Logger
	watch  bool
	cancel context.CancelFunc
	done   sync.WaitGroup
}

// start runs the background work on ws.
func (b *serveBackground) start(ctx context.Context, ws *memoria.Workspace) {
	ctx, b.cancel = context.WithCancel(ctx)
	if b.watch {
		b.done.Go(func() {
			if err := watch.Run(ctx, ws, watch.Options{OnSync: syncLogger(b.e, b.e.stderr, false)}); err != nil && ctx.Err() == nil {
				fmt.Fprintf(b.e.stderr, "memoria serve: watch: %s\n", oneLine(err.Error()))
			}
		})
	}
}

// stop ends the background work and waits for it.
func (b *serveBackground) stop() {
	if b.cancel != nil {
		b.cancel()
	}
	b.done.Wait()
}

// serveTeam serves a team's workspaces over HTTP (package team) until ctx
// ends.
func serveTeam(ctx context.Context, e *env, file, addr string, maxStale time.Duration, logger *slog.Logger) error {
	cfg, err := team.LoadConfig(file)
	if err != nil {
		return usagef("%v", err)
	}
	if cfg.Index == "" {
		cfg.Index = e.getenv("MEMORIA_INDEX_URL")
	}
	if maxStale == 0 {
		maxStale = -1 // team.Options: every recall checks every file first
	}
	srv, err := team.Open(ctx, cfg, team.Options{Logger: logger, MaxStale: maxStale})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	fmt.Fprintf(e.stderr, "memoria: serving %d workspaces of %s for %d tokens on http://%s/v1/\n", len(cfg.Workspaces), postgres.Redact(cfg.Index), len(cfg.Tokens), ln.Addr())
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(shut)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
