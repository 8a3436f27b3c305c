package main

import (
	"context"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"memoria"
	"memoria/flock"
	"memoria/recall"
	"memoria/workspace"
)

// A warm recall server. `memoria recall` (and `memoria context`) is a whole process, and a cold one
// pays, on every call, for its start, for opening the index and the
// postings snapshot, and for the freshness check's stat of every file,
// while an agent recalls many times a minute. So a recall that answered by
// itself starts `memoria recall-server` in the background (as it starts
// the postings writer, and unless MEMORIA_NO_SERVER or
// MEMORIA_NO_BACKGROUND is set): a process that keeps the workspace open
// and warm (postings in memory, the change monitor armed so freshness
// costs no stat per file, the embedding model loaded once) and answers the
// later recalls of the same workspace and index over a Unix socket beside
// the index, readable by its owner only, until it has been idle for
// --idle. Results are the same either way: a request carries the query and
// every recall option, and the server answers with Workspace.Recall, which
// syncs the index with the Markdown first. A recall that finds no server,
// or one started from another binary, index or environment, or that gets
// an error back, answers by itself as before (errors and exit codes are
// then its own).

// recallServerIdle is how long a recall server waits for a request before
// it exits.
const recallServerIdle = 10 * time.Minute

// maxSocketPath is the longest socket path a Unix socket address holds
// (108 bytes on Linux, 104 on the BSDs, with the final NUL).
const maxSocketPath = 100

// serverRequest is one recall, or turn context, asked of a server.
type serverRequest struct {
	Stop    bool   // the index is about to be rebuilt: exit, releasing it
	Key     string // serverKey of the asking process: must equal the server's
	Query   string
	Options memoria.RecallOptions
	Context *memoria.ContextOptions // a turn context (memoria context), not a recall
}

// serverReply is the server's answer: results (or the turn context), or
// why it did not answer.
type serverReply struct {
	Results  []recall.Result
	Context  *memoria.TurnContext
	Warnings []string // what the request warned about, for the client's stderr
	Refused  string   // not answered: the client answers by itself
}

// serverTarget is the workspace and index a server serves, and its socket.
type serverTarget struct {
	dir, index, socket string
}

// recallServerTarget resolves the workspace and the index of the command
// line c as Open would; ok is false when no socket can serve them.
func recallServerTarget(e *env, c *common) (t serverTarget, ok bool) {
	res, err := c.resolve(e)
	if err != nil {
		return t, false
	}
	t.dir, t.index = res.Dir, c.index
	if t.index == "" {
		t.index = filepath.Join(t.dir, filepath.FromSlash(workspace.IndexFile))
	}
	if t.index, err = filepath.Abs(t.index); err != nil {
		return t, false
	}
	t.socket = t.index + ".sock"
	return t, len(t.socket) <= maxSocketPath
}

// serverKey names what a server's answers depend on besides the request:
// the binary, the workspace and index, and the environment that chooses
// the embedding model. A client and a server with different keys never
// talk.
func serverKey(e *env, t serverTarget) string {
	h := sha256.New()
	exe, err := os.Executable()
	if err != nil {
		return "" // never equal to a server's: see runRecallServer
	}
	var size, mtime int64
	if fi, err := os.Stat(exe); err == nil {
		size, mtime = fi.Size(), fi.ModTime().UnixNano()
	}
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00%s\x00%s\x00", exe, size, mtime, t.dir, t.index)
	for _, k := range []string{"HOME", "XDG_CACHE_HOME", "MEMORIA_MODEL_DIR", "MEMORIA_NOASM"} {
		fmt.Fprintf(h, "%s=%s\x00", k, e.getenv(k))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// recallViaServer asks the recall server of the command line's workspace,
// if one runs; ok is false when it did not answer.
func recallViaServer(e *env, c *common, text string, o memoria.RecallOptions) (results []recall.Result, ok bool) {
	r, ok := viaServer(e, c, serverRequest{Query: text, Options: o})
	return r.Results, ok
}

// contextViaServer is recallViaServer for a turn context.
func contextViaServer(e *env, c *common, text string, o memoria.ContextOptions) (tc memoria.TurnContext, ok bool) {
	r, ok := viaServer(e, c, serverRequest{Query: text, Context: &o})
	if !ok || r.Context == nil {
		return tc, false
	}
	return *r.Context, true
}

// viaServer sends req, with this process's key, to the recall server of
// the command line's workspace, if one runs, and prints the warnings it
// sends back; ok is false when it did not answer.
func viaServer(e *env, c *common, req serverRequest) (r serverReply, ok bool) {
	if e.getenv("MEMORIA_NO_SERVER") != "" {
		return r, false
	}
	t, ok := recallServerTarget(e, c)
	if !ok {
		return r, false
	}
	if req.Key = serverKey(e, t); req.Key == "" {
		return r, false
	}
	r, err := askServer(t, req)
	if err != nil || r.Refused != "" {
		return r, false // none running (the common case), or it did not answer
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
	return r, true
}

// stopRecallServer asks the recall server of the command line's index, if
// one runs, to exit, and waits for its answer: a rebuild cannot replace
// the index while the server has it open.
func stopRecallServer(e *env, c *common) {
	t, ok := recallServerTarget(e, c)
	if !ok {
		return
	}
	askServer(t, serverRequest{Stop: true}) // its answer comes as it exits
}

// askServer sends one request to the server at t's socket and returns its
// reply. A server answers in milliseconds; one that does not within the
// deadline is stuck, and the client is better off without it.
func askServer(t serverTarget, req serverRequest) (serverReply, error) {
	var r serverReply
	conn, err := net.DialTimeout("unix", t.socket, time.Second)
	if err != nil {
		return r, err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	if err := gob.NewEncoder(conn).Encode(req); err != nil {
		return r, err
	}
	err = gob.NewDecoder(conn).Decode(&r)
	return r, err
}

// startRecallServerLater starts a recall server for the command line's
// workspace in the background, unless one runs (or is starting) already,
// or MEMORIA_NO_SERVER or MEMORIA_NO_BACKGROUND is set.
func startRecallServerLater(e *env, c *common) {
	if e.background == nil || e.getenv("MEMORIA_NO_SERVER") != "" || e.getenv("MEMORIA_NO_BACKGROUND") != "" {
		return
	}
	t, ok := recallServerTarget(e, c)
	if !ok {
		return
	}
	// A running server holds the lock; where the lock cannot even be
	// made (a read-only index folder), no server could listen either.
	lock, err := flock.Exclusive(t.socket+".lock", 0)
	if err != nil {
		return
	}
	lock.Unlock()
	// A failure to start only means the next recall is not faster.
	_ = e.background([]string{"recall-server", "--workspace", t.dir, "--index", t.index})
}

// runRecallServer is `memoria recall-server`: it serves recalls of one
// workspace and index until idle (see the top of this file). Started by
// recall; a second server for the same index exits at once.
func runRecallServer(ctx context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("recall-server", e, &c)
	idle := fs.Duration("idle", recallServerIdle, "exit after this long without a request")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("recall-server takes no arguments, got %q", pos[0])
	}
	if *idle <= 0 {
		return usagef("--idle must be positive, got %s", *idle)
	}
	s, err := startRecallServer(ctx, e, &c)
	if s == nil || err != nil {
		return err
	}
	defer s.close()
	return s.serve(ctx, time.NewTimer(*idle), *idle)
}

// startRecallServer opens and warms the workspace of the command line c
// and listens on its socket. It returns nil (and no error) when another
// server holds the socket's lock.
func startRecallServer(ctx context.Context, e *env, c *common) (*recallServer, error) {
	t, ok := recallServerTarget(e, c)
	if !ok {
		return nil, errors.New("no socket path for this index: the workspace is missing, or its path is too long")
	}
	s := &recallServer{key: serverKey(e, t), index: t.index, socket: t.socket, warnings: &warningBuffer{}}
	if s.key == "" {
		return nil, errors.New("cannot name this binary")
	}
	if err := os.MkdirAll(filepath.Dir(t.index), 0o755); err != nil {
		return nil, err
	}
	var err error
	if s.lock, err = flock.Exclusive(t.socket+".lock", 0); errors.Is(err, flock.ErrTimeout) {
		return nil, nil // another server runs, or is starting
	} else if err != nil {
		return nil, err
	}
	// Warnings go to the recall that caused them, not to this process's
	// (discarded) stderr.
	se := *e
	se.stderr = s.warnings
	c.index, c.server = t.index, true
	if s.ws, err = c.open(ctx, &se, false); err != nil {
		s.close()
		return nil, err
	}
	if err := s.ws.Warm(ctx); err != nil {
		s.close()
		return nil, err
	}
	if s.indexID, err = fileID(t.index); err != nil {
		s.close()
		return nil, err
	}
	// The lock is held: a socket file there is a dead server's.
	os.Remove(t.socket)
	if s.ln, err = net.Listen("unix", t.socket); err != nil {
		s.close()
		return nil, fmt.Errorf("listen %s: %w", t.socket, err)
	}
	if err := os.Chmod(t.socket, 0o600); err != nil {
		s.close()
		return nil, fmt.Errorf("listen %s: %w", t.socket, err)
	}
	return s, nil
}

// recallServer answers recall requests, one at a time.
type recallServer struct {
	ws       *memoria.Workspace
	key      string
	index    string
	indexID  string // fileID of the index when the server opened it
	socket   string
	lock     *flock.Lock
	ln       net.Listener
	warnings *warningBuffer
	served   atomic.Int64 // requests answered (for tests)
}

// close stops listening and releases what startRecallServer took.
func (s *recallServer) close() {
	if s.ln != nil {
		s.ln.Close() // removes the socket file
	}
	if s.ws != nil {
		s.ws.Close()
	}
	s.lock.Unlock()
}

// serve accepts requests until the idle timer fires (it is reset after
// each request), a request asks the server to stop, or ctx ends.
func (s *recallServer) serve(ctx context.Context, timer *time.Timer, idle time.Duration) error {
	ln := s.ln
	conns := make(chan net.Conn)
	done := make(chan struct{})
	defer close(done)
	go func() {
		defer close(conns)
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			select {
			case conns <- conn:
			case <-done:
				conn.Close()
				return
			}
		}
	}()
	defer ln.Close() // ends the accept loop
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-timer.C:
			return nil
		case conn, ok := <-conns:
			if !ok {
				return nil
			}
			stop := s.handle(ctx, conn)
			if stop {
				return nil
			}
			timer.Reset(idle)
		}
	}
}

// handle answers one connection's request. It reports whether the server
// should stop: a client of another binary or environment wants a server
// of its own, and an index replaced by a rebuild is not the one this
// server has open.
func (s *recallServer) handle(ctx context.Context, conn net.Conn) (stop bool) {
	defer conn.Close()
	if !peerIsSelf(conn) {
		return false
	}
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	var req serverRequest
	if err := gob.NewDecoder(conn).Decode(&req); err != nil {
		return false
	}
	var reply serverReply
	if req.Stop {
		reply.Refused, stop = "stopping", true
	} else if id, err := fileID(s.index); err != nil || id != s.indexID {
		reply.Refused, stop = "the index file was replaced", true
	} else if req.Key != s.key {
		reply.Refused, stop = "started from another binary, index or environment", true
	} else {
		s.warnings.take()
		var err error
		if req.Context != nil {
			var tc memoria.TurnContext
			tc, err = s.ws.Context(ctx, req.Query, *req.Context)
			reply.Context = &tc
		} else {
			reply.Results, err = s.ws.Recall(ctx, req.Query, req.Options)
		}
		if err != nil {
			reply = serverReply{Refused: err.Error()}
		} else {
			reply.Warnings = s.warnings.take()
			s.served.Add(1)
		}
	}
	gob.NewEncoder(conn).Encode(reply)
	return stop
}

// fileID identifies the file at path: another file renamed over it has
// another one.
func fileID(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	return fileIdentity(fi), nil
}

// warningBuffer collects the warnings a recall prints ("warning: …" lines).
type warningBuffer struct {
	mu    sync.Mutex
	lines []string
	part  strings.Builder
}

func (w *warningBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.part.Write(p)
	s := w.part.String()
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			break
		}
		w.lines = append(w.lines, strings.TrimPrefix(s[:i], "warning: "))
		s = s[i+1:]
	}
	w.part.Reset()
	w.part.WriteString(s)
	return len(p), nil
}

// take returns the warnings collected so far and forgets them.
func (w *warningBuffer) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.lines
	w.lines = nil
	return out
}
