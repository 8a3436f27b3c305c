package mcp

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPPath is where the streamable HTTP transport is served.
const HTTPPath = "/mcp"

// HTTPHandler serves the MCP streamable HTTP transport at HTTPPath. With a
// non-empty token every request must carry "Authorization: Bearer TOKEN";
// others get 401. The SDK's protection against DNS rebinding stays on.
func (s *Server) HTTPHandler(token string) http.Handler {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.srv },
		&sdk.StreamableHTTPOptions{Logger: s.log, SessionTimeout: 30 * time.Minute})
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, h)
	if token == "" {
		return mux
	}
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		sum := sha256.Sum256([]byte(strings.TrimSpace(got)))
		if !ok || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="memoria"`)
			http.Error(w, "missing or wrong bearer token: send Authorization: Bearer <the server's token>", http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// ErrRemote is returned by CheckListenAddr for an address that is not
// loopback when remote access was not allowed.
var ErrRemote = errors.New("not a loopback address")

// CheckListenAddr accepts host:port when host is a loopback address
// (127.0.0.1, ::1, localhost); any other host (including an empty one,
// which means every interface) needs allowRemote.
func CheckListenAddr(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("listen address %q: %w (want HOST:PORT, e.g. 127.0.0.1:7377)", addr, err)
	}
	if allowRemote || isLoopback(host) {
		return nil
	}
	return fmt.Errorf("%w: %q would expose memory beyond this machine; use 127.0.0.1, or pass --allow-remote (with --token)", ErrRemote, addr)
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// ServeHTTP serves the streamable HTTP transport on ln until ctx is done,
// then shuts down, giving open requests a few seconds.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, token string) error {
	hs := &http.Server{Handler: s.HTTPHandler(token), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
		return nil
	}
}
