package openai

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"memoria/embed"
)

// fakeServer answers /v1/embeddings with a deterministic vector per input text:
// [len(text), 1, 2] (unnormalised), in reversed order to exercise the index sort.
func fakeServer(t *testing.T, requests *atomic.Int32) *httptest.Server {
	t.Helper()
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/embeddings" || r.Method != http.MethodPost {
			http.Error(w, `{"error":{"message":"no route"}}`, http.StatusNotFound)
			return
		}
		if r.Header.Get("Authorization") != "Bearer sk-test" {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`))
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		if req.Model != "test-embed" {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":"model \"` + req.Model + `\" not found, try pulling it first"}`))
			return
		}
		requests.Add(1)
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		for i := len(req.Input) - 1; i >= 0; i-- {
			if req.Input[i] == "" {
				http.Error(w, `{"error":{"message":"empty input"}}`, http.StatusBadRequest)
				return
			}
			data = append(data, item{"embedding", i, []float32{float32(len(req.Input[i])), 1, 2}})
		}
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
	}))
}

func TestEmbedBatchesAndNormalises(t *testing.T) {
	var n atomic.Int32
	srv := fakeServer(t, &n)
	defer srv.Close()
	c, err := New(Config{BaseURL: srv.URL, Model: "test-embed", APIKey: "sk-test", BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	if c.Dim() != 0 {
		t.Fatalf("Dim before any call = %d", c.Dim())
	}
	texts := []string{"a", "bb", "", "dddd", "eeeee"}
	vecs, err := c.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if got := n.Load(); got != 3 {
		t.Errorf("%d requests, want 3 (batches of 2)", got)
	}
	if c.Dim() != 3 {
		t.Errorf("Dim = %d, want 3", c.Dim())
	}
	for i, v := range vecs {
		l := float32(max(len(texts[i]), 1)) // "" is sent as " "
		want := []float32{l, 1, 2}
		embed.Normalize(want)
		for j := range v {
			if math.Abs(float64(v[j]-want[j])) > 1e-6 {
				t.Fatalf("vector %d = %v, want %v", i, v, want)
			}
		}
	}
	if id := c.Identity(); !strings.Contains(id, "test-embed") || !strings.Contains(id, "/d3") {
		t.Errorf("Identity = %q", id)
	}
	if vecs, err := c.Embed(context.Background(), nil); err != nil || len(vecs) != 0 {
		t.Errorf("Embed(nil) = %v, %v", vecs, err)
	}
}

func TestErrors(t *testing.T) {
	var n atomic.Int32
	srv := fakeServer(t, &n)
	defer srv.Close()
	ctx := context.Background()
	cases := []struct {
		cfg  Config
		want string
	}{
		{Config{BaseURL: srv.URL, Model: "test-embed", APIKey: "wrong"}, "401 Unauthorized: Incorrect API key provided"},
		{Config{BaseURL: srv.URL, Model: "nope", APIKey: "sk-test"}, `404 Not Found: model "nope" not found`},
		{Config{BaseURL: srv.URL + "/api", Model: "test-embed", APIKey: "sk-test"}, "404 Not Found: no route"},
		{Config{BaseURL: srv.URL, Model: "test-embed", APIKey: "sk-test", Dim: 768}, "has 3 dimensions, want 768"},
	}
	for _, tc := range cases {
		c, err := New(tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Embed(ctx, []string{"x"})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want it to contain %q", tc.cfg, err, tc.want)
		}
	}
	for _, bad := range []Config{{BaseURL: "localhost:11434", Model: "m"}, {BaseURL: "http://x", Model: ""}} {
		if _, err := New(bad); err == nil {
			t.Errorf("New(%+v) accepted", bad)
		}
	}
}

func TestTimeoutAndCancel(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c, _ := New(Config{BaseURL: srv.URL, Model: "m", Timeout: 50 * time.Millisecond})
	start := time.Now()
	_, err := c.Embed(context.Background(), []string{"x"})
	if err == nil || !strings.Contains(err.Error(), "no answer within 50ms") || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Embed(ctx, []string{"x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestBadResponses(t *testing.T) {
	body := ""
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(body))
	}))
	defer srv.Close()
	c, _ := New(Config{BaseURL: srv.URL + "/v1/", Model: "m"})
	for b, want := range map[string]string{
		`<html>oops</html>`: "not an embeddings response",
		`{"data":[]}`:       "0 embeddings for 1 inputs",
		`{"data":[{"index":0,"embedding":[0,0]}]}`: "zero or not finite",
		`{"data":[{"index":0,"embedding":{}}]}`:    "neither a number array",
	} {
		body = b
		if _, err := c.Embed(context.Background(), []string{"x"}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("body %s: error %v, want %q", b, err, want)
		}
	}
	// base64 float32 embeddings are accepted too.
	raw := make([]byte, 8)
	binary.LittleEndian.PutUint32(raw, math.Float32bits(3))
	binary.LittleEndian.PutUint32(raw[4:], math.Float32bits(4))
	body = `{"data":[{"index":0,"embedding":"` + base64.StdEncoding.EncodeToString(raw) + `"}]}`
	v, err := c.Embed(context.Background(), []string{"x"})
	if err != nil || math.Abs(float64(v[0][0])-0.6) > 1e-6 || math.Abs(float64(v[0][1])-0.8) > 1e-6 {
		t.Errorf("base64: %v %v", v, err)
	}
}

func TestEndpointURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://localhost:11434":                "http://localhost:11434/v1/embeddings",
		"http://localhost:11434/":               "http://localhost:11434/v1/embeddings",
		"http://127.0.0.1:8080/v1":              "http://127.0.0.1:8080/v1/embeddings",
		"https://api.example.com/v1/embeddings": "https://api.example.com/v1/embeddings",
		"https://proxy.example.com/openai/v1/":  "https://proxy.example.com/openai/v1/embeddings",
	} {
		got, err := endpointURL(in)
		if err != nil || got != want {
			t.Errorf("endpointURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// typeServer answers with [1, 2, 3] for a passage and [3, 2, 1] for a query (as a
// server of an asymmetric model would differ), and records each request's
// input_type. A strict one refuses the field, as OpenAI's API refuses arguments it
// does not know.
func typeServer(t *testing.T, strict bool, seen *[]string) *httptest.Server {
	t.Helper()
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req map[string]any
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		it, has := req["input_type"].(string)
		*seen = append(*seen, it)
		if strict && has {
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":{"message":"Unrecognized request argument supplied: input_type","type":"invalid_request_error"}}`))
			return
		}
		v := []float32{1, 2, 3}
		if it == "query" {
			v = []float32{3, 2, 1}
		}
		json.NewEncoder(w).Encode(map[string]any{"data": []map[string]any{{"index": 0, "embedding": v}}})
	}))
}

func TestInputType(t *testing.T) {
	ctx := context.Background()
	t.Run("sent", func(t *testing.T) {
		var seen []string
		srv := typeServer(t, false, &seen)
		defer srv.Close()
		c, err := New(Config{BaseURL: srv.URL, Model: "e5"})
		if err != nil {
			t.Fatal(err)
		}
		p, err := c.Embed(ctx, []string{"a"})
		if err != nil {
			t.Fatal(err)
		}
		q, err := embed.EmbedQueries(ctx, c, []string{"a"})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(seen, ",") != "passage,query" {
			t.Errorf("input_type sent: %q, want passage then query", seen)
		}
		if p[0][0] >= q[0][0] {
			t.Errorf("passage %v and query %v vectors are not the server's two", p[0], q[0])
		}
	})
	t.Run("refused", func(t *testing.T) {
		var seen []string
		srv := typeServer(t, true, &seen)
		defer srv.Close()
		c, err := New(Config{BaseURL: srv.URL, Model: "text-embedding-3-small"})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if _, err := c.EmbedQueries(ctx, []string{"a"}); err != nil {
				t.Fatal(err)
			}
		}
		if strings.Join(seen, ",") != "query,," {
			t.Errorf("input_type sent: %q, want it once, then two requests without", seen)
		}
	})
}
