package main

import (
	"encoding/json"
	"memoria/internal/testworkspace"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInferAndAccept(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	logsBefore := testworkspace.Files(t, ws)
	code, out, errOut := cli(t, "retain", "-w", ws, "--infer", "--since", "14d", "--now", "2025-11-30", "--json")
	if code != exitOK {
		t.Fatalf("infer: exit %d, %s", code, errOut)
	}
	var res struct {
		Review    string
		Logs      int
		Added     int
		Proposals []struct{ Fact, Source, Reason string }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Review != "review/retain-proposals.md" || res.Logs == 0 || res.Added == 0 || res.Added != len(res.Proposals) {
		t.Fatalf("infer result %+v", res)
	}
	for _, p := range res.Proposals {
		if p.Source < "memory/2025-11-16" {
			t.Errorf("proposal from before --since: %s", p.Source)
		}
	}
	// Nothing inferred entered the logs or the index.
	after := testworkspace.Files(t, ws)
	review := after[filepath.FromSlash(res.Review)]
	delete(after, filepath.FromSlash(res.Review))
	if !sameFiles(logsBefore, after) {
		t.Fatal("--infer changed a log")
	}
	_, rec, _ := cli(t, "recall", "-w", ws, "--json", strings.SplitN(res.Proposals[0].Fact, ": ", 2)[1])
	if strings.Contains(rec, "review/") {
		t.Errorf("the review file is indexed: %s", rec)
	}
	// Inferring again adds nothing new.
	code, out, _ = cli(t, "retain", "-w", ws, "--infer", "--since", "14d", "--now", "2025-11-30")
	if code != exitOK || !strings.Contains(out, "; 0 new in") {
		t.Errorf("second infer: %d %q", code, out)
	}
	// Tick the first proposal and accept.
	first := "- [ ] " + res.Proposals[0].Fact
	reviewPath := filepath.Join(ws, "review", "retain-proposals.md")
	os.WriteFile(reviewPath, []byte(strings.Replace(review, first, "- [x] "+res.Proposals[0].Fact, 1)), 0o644)
	code, out, errOut = cli(t, "retain", "-w", ws, "--accept")
	if code != exitOK {
		t.Fatalf("accept: exit %d %s", code, errOut)
	}
	log := strings.SplitN(res.Proposals[0].Source, "#", 2)[0]
	data, _ := os.ReadFile(filepath.Join(ws, filepath.FromSlash(log)))
	if !strings.Contains(string(data), "## Retain\n- "+res.Proposals[0].Fact+"\n") {
		t.Errorf("accepted fact not in %s:\n%s", log, data)
	}
	if !strings.HasPrefix(string(data), logsBefore[filepath.FromSlash(log)]) {
		t.Errorf("accept changed the existing bytes of %s", log)
	}
	left, _ := os.ReadFile(reviewPath)
	if strings.Contains(string(left), res.Proposals[0].Fact) || !strings.Contains(out, log+"#L") {
		t.Errorf("accepted proposal still under review, or output %q", out)
	}
	code, out, _ = cli(t, "recall", "-w", ws, "--json", strings.SplitN(res.Proposals[0].Fact, ": ", 2)[1])
	if code != exitOK || !strings.Contains(out, log) {
		t.Errorf("recall does not find the accepted fact: %s", out)
	}
	// A ticked line edited into an invalid fact stops accept, writing nothing.
	props := strings.Split(string(left), "\n- [ ] ")
	if len(props) < 2 {
		t.Fatal("no proposals left")
	}
	broken := strings.Replace(string(left), "\n- [ ] "+props[1][:3], "\n- [x] O(c=1.7)"+props[1][1:3], 1)
	os.WriteFile(reviewPath, []byte(broken), 0o644)
	before := testworkspace.Files(t, ws)
	code, _, errOut = cli(t, "retain", "-w", ws, "--accept")
	if code != exitUsage || !strings.Contains(errOut, "review/retain-proposals.md:") || !strings.Contains(errOut, "c=1.7") {
		t.Errorf("invalid ticked proposal: exit %d, %q", code, errOut)
	}
	if !sameFiles(before, testworkspace.Files(t, ws)) {
		t.Error("a failed accept wrote something")
	}
}

func TestInferWithLLM(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	var calls int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		var req struct {
			Model    string
			Messages []struct{ Content string }
		}
		json.NewDecoder(r.Body).Decode(&req)
		answer := ""
		if req.Model == "tiny" && strings.Contains(req.Messages[1].Content, "memory/2025-11-28.md") {
			answer = "L3 | W @Andy: Celebrated his 40th birthday in Marrakech on 2025-11-28.\nL4 | X bad line"
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"role": "assistant", "content": answer}}}})
	}))
	defer srv.Close()
	code, out, errOut := cli(t, "retain", "-w", ws, "--infer", "--since", "2025-11-27", "--now", "2025-11-30", "--llm-url", srv.URL, "--llm-model", "tiny")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	review, _ := os.ReadFile(filepath.Join(ws, "review", "retain-proposals.md"))
	if calls == 0 || !strings.Contains(string(review), "- [ ] W @Andy: Celebrated his 40th birthday in Marrakech on 2025-11-28. (from memory/2025-11-28.md#L3)") ||
		strings.Contains(string(review), "bad line") || !strings.Contains(string(review), "by tiny") {
		t.Errorf("review (%d calls, %q):\n%s", calls, out, review)
	}
	code, _, errOut = cli(t, "retain", "-w", ws, "--infer", "--llm-url", srv.URL)
	if code != exitUsage || !strings.Contains(errOut, "--llm-model") {
		t.Errorf("missing model: %d %q", code, errOut)
	}
	code, _, errOut = cli(t, "retain", "-w", ws, "--infer", "--review", "memory/proposals.md")
	if code != exitUsage || !strings.Contains(errOut, "would be indexed") {
		t.Errorf("indexed review file: %d %q", code, errOut)
	}
}
