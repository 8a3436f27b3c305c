package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"

	"memoria"
	"memoria/mcp"
	"memoria/sqlite"
	"memoria/watch"
)

// runServe serves the workspace over MCP: stdio by default, streamable HTTP
// on a loopback address with --http.
func runServe(ctx context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("serve", e, &c)
	httpAddr := fs.String("http", "", "serve streamable HTTP on `HOST:PORT` (e.g. 127.0.0.1:7377; port 0 picks a free one) instead of stdio")
	token := fs.String("token", "", "with --http: require \"Authorization: Bearer `TOKEN`\" (default $MEMORIA_TOKEN)")
	allowRemote := fs.Bool("allow-remote", false, "with --http: allow a non-loopback address (needs a token)")
	watchFlag := fs.Bool("watch", false, "keep the index fresh while files change (as `memoria watch`)")
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
	if *httpAddr == "" && (*allowRemote || *token != "") {
		if *allowRemote {
			return usagef("--allow-remote goes with --http HOST:PORT")
		}
		*token = "" // a token in the environment does not matter on stdio
	}
	if *httpAddr != "" {
		if err := mcp.CheckListenAddr(*httpAddr, *allowRemote); err != nil {
			return usagef("%v", err)
		}
		if *allowRemote && *token == "" {
			return usagef("--allow-remote needs a bearer token: pass --token or set MEMORIA_TOKEN")
		}
	}
	ws, err := c.open(ctx, e, false)
	if err != nil {
		return err
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
	srv := mcp.NewServer(ws, mcp.Options{Tools: mcp.Tools(), Logger: logger})

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	bg := serveBackground{e: e, logger: logger, watch: *watchFlag}
	bg.start(ctx, ws)
	released := make(chan struct{})
	defer func() {
		cancel()
		<-released // no Replace runs any more
		bg.stop()
		if ws := srv.Workspace(); ws != nil {
			ws.Close()
		}
	}()
	// A rebuild in another process waits for this one to close the index:
	// close it, and open it again once the new one is in place.
	go releaseForRebuilds(ctx, released, srv, logger, func(old *memoria.Workspace) (*memoria.Workspace, error) {
		bg.stop() // the watch syncs the old workspace
		ws, err := reopenAfterRebuild(ctx, e, &c, old)
		if err != nil {
			return nil, err
		}
		bg.start(ctx, ws)
		return ws, nil
	})

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
	return srv.ServeHTTP(ctx, ln, *token)
}

// syncLogger reports index syncs, the first one and then those that
// changed the index: one line each on w (JSON with asJSON). Failures go to
// stderr; the watch goes on.
func syncLogger(e *env, w io.Writer, asJSON bool) func(sqlite.Stats, error) {
	first := true
	return func(st sqlite.Stats, err error) {
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

// serveBackground is what a server runs beside its calls on the current
// workspace: the in-memory postings loaded at start, and with --watch the
// index kept fresh while files change.
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
	// A server lives long: load the in-memory postings now, in the
	// background (FTS5 ranks until they are ready).
	b.done.Go(func() {
		if err := ws.Warm(ctx); err != nil && ctx.Err() == nil {
			b.logger.Warn("in-memory ranking unavailable", "err", err)
		}
	})
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

// releaseWait bounds how long a server waits for another process's
// rebuild of its index before it opens the index again anyway: twice
// what the rebuild itself waits for the index to be let go.
const releaseWait = 60 * time.Second

// releaseForRebuilds waits until another process wants to rebuild the
// index srv serves (whenReleaseWanted), and then lets reopen replace the
// workspace (calls wait meanwhile), until ctx ends. It closes done when
// it returns.
func releaseForRebuilds(ctx context.Context, done chan<- struct{}, srv *mcp.Server, logger *slog.Logger, reopen func(*memoria.Workspace) (*memoria.Workspace, error)) {
	defer close(done)
	for {
		ws := srv.Workspace()
		if ws == nil {
			return // a reopen failed: calls say why; nothing is held
		}
		select {
		case <-ctx.Done():
			return
		case <-whenReleaseWanted(ctx, ws):
		}
		logger.Info("another process rebuilds the index: closing it until the rebuild is done")
		if err := srv.Replace(reopen); err != nil && ctx.Err() == nil {
			logger.Error("reopening the workspace after a rebuild", "err", err)
		}
	}
}

// whenReleaseWanted returns a channel closed once another process waits
// to rebuild the index ws has open (a file beside the index says so, see
// sqlite.ReleaseWanted), checked every 100 ms; it stays open if ctx ends
// first.
func whenReleaseWanted(ctx context.Context, ws *memoria.Workspace) <-chan struct{} {
	wanted := make(chan struct{})
	go func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if ws.ReleaseWanted() {
				close(wanted)
				return
			}
		}
	}()
	return wanted
}

// reopenAfterRebuild closes old, waits (up to releaseWait) until no
// process waits to rebuild its index any more, and opens the workspace
// of the command line again.
func reopenAfterRebuild(ctx context.Context, e *env, c *common, old *memoria.Workspace) (*memoria.Workspace, error) {
	index := old.IndexPath()
	old.Close()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	deadline := time.Now().Add(releaseWait)
	for sqlite.ReleaseWanted(index) && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-tick.C:
		}
	}
	return c.open(ctx, e, false)
}
