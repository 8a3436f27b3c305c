package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"memoria"
)

// CoreURI is the resource URI of core memory (memory.md).
const CoreURI = "memoria://memory.md"

// Tool adds one tool to a Server. Tools() lists the built-in ones; a
// package with more (reflect) provides its own Tool values, and the caller
// passes Tools() plus those in Options.Tools.
type Tool struct {
	Name string
	Add  func(s *Server)
}

// Options configure a Server. The zero value serves the built-in tools.
type Options struct {
	// Tools to register; nil means Tools().
	Tools []Tool
	// Version is reported to clients as the server version.
	Version string
	// Logger receives the SDK's and the server's diagnostics; nil discards them.
	Logger *slog.Logger
}

// Server is an MCP server over one open workspace.
type Server struct {
	wsMu    sync.RWMutex // held for reading by every call, for writing by Replace
	ws      *memoria.Workspace
	wsErr   error // why there is no workspace, after a Replace that failed
	srv     *sdk.Server
	log     *slog.Logger
	writeMu sync.Mutex
}

// Instructions tell a connecting agent how to use the server.
const Instructions = `Memoria is your long-term memory: Markdown files (memory.md for core memory, memory/YYYY-MM-DD.md daily logs, bank/ pages) with a search index.
- At the start of a task, call "context" (or read the memoria://memory.md resource) for core memory plus what is relevant to the task.
- Before answering anything about the past, people, preferences or decisions, call "recall"; cite the "source" of what you use. "get" reads the exact cited lines.
- When you learn something durable, call "retain" with self-contained facts: "W @Peter: Lives in Vienna." (W world, B your own experience in first person, O(c=0.8) an opinion with confidence, S an observation; @Slug names an entity).
- Edit core memory (always-loaded facts and standing preferences) with "core" sparingly; it has a size limit.`

// NewServer creates a server for ws. The workspace stays owned by the
// caller, who closes it after the server has stopped.
func NewServer(ws *memoria.Workspace, o Options) *Server {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	version := o.Version
	if version == "" {
		version = "dev"
	}
	s := &Server{ws: ws, log: log}
	s.srv = sdk.NewServer(&sdk.Implementation{Name: "memoria", Title: "Memoria long-term memory", Version: version},
		&sdk.ServerOptions{Instructions: Instructions, Logger: log})
	tools := o.Tools
	if tools == nil {
		tools = Tools()
	}
	for _, t := range tools {
		t.Add(s)
	}
	s.srv.AddResource(&sdk.Resource{
		URI: CoreURI, Name: "memory.md", Title: "Core memory",
		Description: "Core memory: the durable facts and preferences to know at the start of every conversation.",
		MIMEType:    "text/markdown",
	}, s.readCore)
	return s
}

// SDK is the underlying SDK server, for adding tools, prompts or resources.
func (s *Server) SDK() *sdk.Server { return s.srv }

// Workspace is the workspace the server serves (nil after a Replace that
// failed). Replace may close it: a caller outside a tool call holds it
// only as long as no Replace can run.
func (s *Server) Workspace() *memoria.Workspace {
	s.wsMu.RLock()
	defer s.wsMu.RUnlock()
	return s.ws
}

// Replace swaps the workspace the server serves, for a rebuild of its
// index in another process (memoria.Workspace.ReleaseWanted): it waits
// for the calls in progress and holds back new ones, then next closes
// the current workspace and opens the one to serve from then on. If next
// fails, calls fail with its error until a later Replace succeeds.
func (s *Server) Replace(next func(old *memoria.Workspace) (*memoria.Workspace, error)) error {
	s.wsMu.Lock()
	defer s.wsMu.Unlock()
	ws, err := next(s.ws)
	s.ws, s.wsErr = ws, err
	return err
}

// workspace is held for a call: the workspace it runs on, or why there is
// none. The caller releases s.wsMu.
func (s *Server) workspace() error {
	s.wsMu.RLock()
	if s.ws == nil {
		err := s.wsErr
		s.wsMu.RUnlock()
		if err == nil {
			err = errors.New("no workspace")
		}
		return fmt.Errorf("workspace unavailable: %w", err)
	}
	return nil
}

// Write runs fn with the server's write lock held: tools that write to the
// workspace use it so that concurrent calls queue instead of contending for
// the workspace lock file.
func (s *Server) Write(fn func() error) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	return fn()
}

// Run serves one session over t until the client disconnects or ctx ends.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error { return s.srv.Run(ctx, t) }

// AddTool registers a typed tool on s, like sdk.AddTool, with a handler
// that cannot bring the server down: a panic becomes a tool error.
func AddTool[In, Out any](s *Server, t *sdk.Tool, h sdk.ToolHandlerFor[In, Out]) {
	name := t.Name
	sdk.AddTool(s.srv, t, func(ctx context.Context, req *sdk.CallToolRequest, in In) (res *sdk.CallToolResult, out Out, err error) {
		if err := s.workspace(); err != nil {
			var zero Out
			return nil, zero, err
		}
		defer s.wsMu.RUnlock()
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("tool panicked", "tool", name, "panic", p, "stack", string(debug.Stack()))
				var zero Out
				res, out, err = nil, zero, fmt.Errorf("internal error in %s: %v (the server is still running; please report this)", name, p)
			}
		}()
		return h(ctx, req, in)
	})
}

func (s *Server) readCore(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	if err := s.workspace(); err != nil {
		return nil, err
	}
	defer s.wsMu.RUnlock()
	text, err := s.ws.CoreShow("")
	if err != nil {
		return nil, err
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: CoreURI, MIMEType: "text/markdown", Text: text}}}, nil
}
