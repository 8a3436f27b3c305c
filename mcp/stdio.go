package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMessageBytes bounds one JSON-RPC message on stdio; a longer line is
// answered with an error and skipped.
const MaxMessageBytes = 4 << 20

// ServeStdio serves one session over newline-delimited JSON-RPC (the MCP
// stdio transport) until in ends or ctx is done. Unlike the SDK's own stdio
// transport, which ends the session at the first line it cannot decode, it
// answers a malformed line (not JSON, not a JSON-RPC message, a batch, a
// line over MaxMessageBytes) with a JSON-RPC error and keeps serving.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	w := &lockedWriter{w: out}
	pr, pw := io.Pipe()
	go filterLines(in, pw, w)
	err := s.srv.Run(ctx, &sdk.IOTransport{Reader: pr, Writer: w, MaxLineLength: -1})
	pr.Close()
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// lockedWriter writes whole messages, one Write each, from the SDK and
// from filterLines without interleaving.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// filterLines copies the well-formed JSON-RPC messages of in, one per
// line, to pw and answers the others on w.
func filterLines(in io.Reader, pw *io.PipeWriter, w io.Writer) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r, MaxMessageBytes)
		line = bytes.TrimSpace(line)
		switch {
		case tooLong:
			replyError(w, nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message over %d bytes", MaxMessageBytes))
		case len(line) == 0:
		default:
			if id, code, msg := check(line); code != 0 {
				replyError(w, id, code, msg)
			} else if _, werr := pw.Write(append(line, '\n')); werr != nil {
				return // the session is over
			}
		}
		if err != nil {
			pw.CloseWithError(err)
			return
		}
	}
}

// readLine reads one line of at most max bytes; a longer line is consumed
// and reported as tooLong.
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, tooLong, err
	}
}

// check says whether line is one JSON-RPC message the SDK can take; if
// not, it returns the error code and message to answer with, and the
// request's ID when one can be read.
func check(line []byte) (id any, code int, msg string) {
	if !json.Valid(line) {
		return nil, jsonrpc.CodeParseError, "parse error: not valid JSON (send one JSON-RPC message per line)"
	}
	var probe struct {
		ID     any             `json:"id"`
		Method *string         `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	var fields map[string]json.RawMessage
	if line[0] != '{' {
		return nil, jsonrpc.CodeInvalidRequest, "invalid request: want one JSON-RPC object per line (batches are not supported)"
	}
	_ = json.Unmarshal(line, &probe)
	_ = json.Unmarshal(line, &fields)
	if _, err := jsonrpc.MakeID(probe.ID); err != nil {
		probe.ID = nil
	}
	rawID, hasID := fields["id"]
	switch {
	case hasID && string(bytes.TrimSpace(rawID)) == "null" && probe.Method != nil:
		// JSON-RPC lets a client send id null; MCP says a request's id
		// MUST NOT be null. The SDK took it for a notification and said
		// nothing, so the client waited for ever.
		return nil, jsonrpc.CodeInvalidRequest, "invalid request: id must be a string or a number, not null"
	case hasID && probe.Method == nil && probe.Result == nil && probe.Error == nil:
		return probe.ID, jsonrpc.CodeInvalidRequest, `invalid request: no "method"`
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return probe.ID, jsonrpc.CodeInvalidRequest, "invalid request: " + err.Error()
	}
	return nil, 0, ""
}

func replyError(w io.Writer, id any, code int, msg string) {
	data, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": code, "message": msg},
	})
	w.Write(append(data, '\n'))
}
