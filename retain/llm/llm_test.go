package llm

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestPropose(t *testing.T) {
	log := "# 2025-10-30\n\nPete bought a new laptop today.\nHe prefers the 16-inch one.\n"
	answer := strings.Join([]string{
		"L3 | W @Peter: Bought a 16-inch MacBook Pro on 2025-10-30.",
		"L4-L4 | O(c=0.8) @Peter: Prefers 16-inch laptops.",
		"L9 | W @Peter: Cites a line that does not exist.",
		"L3 | X @Peter: Not a kind.",
		"L3 | O(c=1.5) @Peter: Bad confidence.",
		"L3 | W @../../etc: Unsafe slug.",
		"Here are the facts you asked for:",
	}, "\n")
	var got request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
			http.Error(w, "wrong endpoint", http.StatusNotFound)
			return
		}
		if err := json.NewDecoder(r.Body).Decode(&got); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"role": "assistant", "content": answer}}}})
	}))
	defer srv.Close()

	for _, url := range []string{srv.URL, srv.URL + "/v1", srv.URL + "/v1/chat/completions"} {
		c := &Client{URL: url, Model: "qwen2.5:3b"}
		props, err := c.Propose(context.Background(), "memory/2025-10-30.md", []byte(log), []string{"Peter"})
		if err != nil {
			t.Fatal(err)
		}
		if len(props) != 2 {
			t.Fatalf("%s: %d proposals: %+v", url, len(props), props)
		}
		if props[0].Source.String() != "memory/2025-10-30.md#L3" || props[1].Fact != "O(c=0.8) @Peter: Prefers 16-inch laptops." {
			t.Errorf("proposals %+v", props)
		}
	}
	if got.Model != "qwen2.5:3b" || len(got.Messages) != 2 || !strings.Contains(got.Messages[1].Content, "3: Pete bought a new laptop today.") {
		t.Errorf("request %+v", got)
	}
}

func TestProposeErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":{"message":"model \"nope\" not found"}}`))
	}))
	defer srv.Close()
	_, err := (&Client{URL: srv.URL, Model: "nope"}).Propose(context.Background(), "memory/x.md", []byte("x"), nil)
	if err == nil || !strings.Contains(err.Error(), `model "nope" not found`) {
		t.Errorf("err = %v", err)
	}
	srv.Close()
	_, err = (&Client{URL: srv.URL, Model: "m"}).Propose(context.Background(), "memory/x.md", []byte("x"), nil)
	if err == nil || !strings.Contains(err.Error(), "is the server running") {
		t.Errorf("err = %v", err)
	}
}
