package web

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"memoria"
	"memoria/workspace"
)

//go:embed assets
var assets embed.FS

// Source gives the handler the workspace to read and write. mcp.Server is
// one (so that the page waits, as tool calls do, while the server swaps
// its workspace); Fixed makes one of an open workspace.
type Source interface {
	// With runs fn on the workspace, held for the length of the call.
	With(fn func(ws *memoria.Workspace) error) error
	// Write runs fn with the writers of this process serialised.
	Write(fn func() error) error
}

// Fixed is a Source that always serves ws.
func Fixed(ws *memoria.Workspace) Source { return &fixed{ws: ws} }

type fixed struct {
	ws *memoria.Workspace
	mu sync.Mutex
}

func (f *fixed) With(fn func(*memoria.Workspace) error) error { return fn(f.ws) }
func (f *fixed) Write(fn func() error) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return fn()
}

// Options configure the handler. The zero value is ready to use.
type Options struct {
	// Logger receives errors the page gets as 500s; nil discards them.
	Logger *slog.Logger
}

// Bounds on what one request returns.
const (
	maxResults  = 100 // recall results
	maxEntities = 500 // entities listed
	maxQueue    = 200 // proposals listed per queue
	maxBody     = 64 << 10
)

// Handler serves the page at / and its JSON API under /api/. It does no
// authentication (see the package documentation).
func Handler(src Source, o Options) http.Handler {
	h := &handler{src: src, log: o.Logger}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	mux := http.NewServeMux()
	static, _ := fs.Sub(assets, "assets")
	mux.HandleFunc("GET /{$}", h.file(static, "index.html"))
	mux.HandleFunc("GET /app.js", h.file(static, "app.js"))
	mux.HandleFunc("GET /app.css", h.file(static, "app.css"))
	mux.HandleFunc("GET /api/status", h.api(h.status))
	mux.HandleFunc("GET /api/recall", h.api(h.recall))
	mux.HandleFunc("GET /api/get", h.api(h.get))
	mux.HandleFunc("GET /api/timeline", h.api(h.timeline))
	mux.HandleFunc("GET /api/entities", h.api(h.entities))
	mux.HandleFunc("GET /api/entity", h.api(h.entity))
	mux.HandleFunc("GET /api/graph", h.api(h.graph))
	mux.HandleFunc("GET /api/opinions", h.api(h.opinions))
	mux.HandleFunc("GET /api/proposals", h.api(h.proposals))
	mux.HandleFunc("POST /api/proposals/retain/accept", h.post(h.acceptRetain))
	mux.HandleFunc("POST /api/proposals/retain/reject", h.post(h.rejectRetain))
	mux.HandleFunc("POST /api/proposals/core/accept", h.post(h.acceptCore))
	mux.HandleFunc("POST /api/proposals/core/reject", h.post(h.rejectCore))
	mux.HandleFunc("POST /api/infer", h.post(h.infer))
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such API call: "+r.Method+" "+r.URL.Path)
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
		hd.Set("Cache-Control", "no-store")
		mux.ServeHTTP(w, r)
	})
}

type handler struct {
	src Source
	log *slog.Logger
}

func (h *handler) file(static fs.FS, name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		data, err := fs.ReadFile(static, name)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", mime.TypeByExtension(path.Ext(name)))
		w.Write(data)
	}
}

// apiFunc answers one API call with a value to send as JSON, or an error.
type apiFunc func(ctx context.Context, ws *memoria.Workspace, r *http.Request) (any, error)

func (h *handler) api(f apiFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var out any
		err := h.src.With(func(ws *memoria.Workspace) (err error) {
			out, err = f(r.Context(), ws, r)
			return err
		})
		h.reply(w, r, out, err)
	}
}

// post is api for a call that writes: a JSON body, and the writers of the
// process serialised.
func (h *handler) post(f apiFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
			writeError(w, http.StatusUnsupportedMediaType, "send the request as JSON (Content-Type: application/json)")
			return
		}
		var out any
		err := h.src.With(func(ws *memoria.Workspace) error {
			return h.src.Write(func() (err error) {
				out, err = f(r.Context(), ws, r)
				return err
			})
		})
		h.reply(w, r, out, err)
	}
}

// clientError is an error the request caused, with its status.
type clientError struct {
	status int
	err    error
}

func (e clientError) Error() string { return e.err.Error() }
func (e clientError) Unwrap() error { return e.err }

func badRequest(format string, a ...any) error {
	return clientError{http.StatusBadRequest, fmt.Errorf(format, a...)}
}

func (h *handler) reply(w http.ResponseWriter, r *http.Request, out any, err error) {
	if err != nil {
		var ce clientError
		status := http.StatusInternalServerError
		switch {
		case errors.As(err, &ce):
			status = ce.status
		case errors.Is(err, memoria.ErrUnknownEntity):
			status = http.StatusNotFound
		case errors.Is(err, memoria.ErrAmbiguousEntity):
			status = http.StatusBadRequest // the message names the candidates
		case errors.Is(err, workspace.ErrBadSource) || errors.Is(err, workspace.ErrNotMemoryFile):
			status = http.StatusBadRequest
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, workspace.ErrNoLines):
			status = http.StatusNotFound
		case errors.Is(err, memoria.ErrNoProposal):
			status = http.StatusConflict
		case errors.Is(err, memoria.ErrInvalid):
			status = http.StatusBadRequest
		case errors.Is(err, context.Canceled):
			return
		}
		if status == http.StatusInternalServerError {
			h.log.Error("page API", "path", r.URL.Path, "err", err)
		}
		writeError(w, status, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(true)
	enc.Encode(out)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// now reads the optional "now" parameter (YYYY-MM-DD[THH:MM]); zero means
// the clock.
func now(r *http.Request) (time.Time, error) {
	s := strings.TrimSpace(r.URL.Query().Get("now"))
	if s == "" {
		return time.Time{}, nil
	}
	t, err := memoria.ParseNow(s)
	if err != nil {
		return t, badRequest("now: %v", err)
	}
	return t, nil
}

// intParam reads an optional integer parameter within [lo, hi]; def when
// absent.
func intParam(r *http.Request, name string, def, lo, hi int) (int, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, badRequest("%s: want a whole number from %d to %d, got %q", name, lo, hi, s)
	}
	return n, nil
}

// decode reads a JSON request body into v.
func decode(r *http.Request, v any) error {
	dec := json.NewDecoder(io.LimitReader(r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badRequest("reading the request: %v", err)
	}
	return nil
}
