// Package llm proposes Retain facts from a daily log with a local language
// model behind an OpenAI-compatible chat endpoint (Ollama, llama.cpp
// server, vLLM…). It is optional: Memoria's default inference is the
// offline heuristics of package retain. Every fact the model returns is
// checked with retain.Validate and must cite lines that exist; anything
// else is dropped. Like the heuristics, its proposals go to a review file,
// never straight into a log.
package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"memoria/memory"
	"memoria/retain"
)

// Client talks to one chat endpoint.
type Client struct {
	// URL is the endpoint: a base such as http://localhost:11434 or
	// http://localhost:11434/v1, or the full .../chat/completions URL.
	URL   string
	Model string
	// HTTP is the client used; nil means one with a two-minute timeout.
	HTTP *http.Client
}

// MaxLogBytes bounds the part of a log sent to the model.
const MaxLogBytes = 48 << 10

const systemPrompt = `You extract durable facts from an AI agent's daily log for its long-term memory.
Output one fact per line, nothing else, in exactly this form:
L<first>-L<last> | <KIND> @Entity: <statement>
KIND is W (objective fact about the world), B (something the agent, "I", did), or O(c=<0..1>) (someone's preference or opinion, with your confidence).
@Entity names a person, project or place as a slug (letters, digits, '-': @Peter, @The-Castle); use the entities listed when they fit.
Each statement is one self-contained sentence that makes sense without the log. L<first>-L<last> are the numbers of the log lines it comes from.
Only facts worth remembering for weeks: decisions, preferences, plans with dates, fixes, changes of address, device, job or schedule. At most 8 facts. If there are none, output nothing.`

// chatURL is the completions URL for the configured endpoint.
func (c *Client) chatURL() string {
	u := strings.TrimRight(c.URL, "/")
	switch {
	case strings.HasSuffix(u, "/chat/completions"):
		return u
	case strings.HasSuffix(u, "/v1"):
		return u + "/chat/completions"
	}
	return u + "/v1/chat/completions"
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type request struct {
	Model       string    `json:"model"`
	Messages    []message `json:"messages"`
	Temperature float64   `json:"temperature"`
	Stream      bool      `json:"stream"`
}

type response struct {
	Choices []struct {
		Message message `json:"message"`
	} `json:"choices"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

var lineRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:[-*]\s*)?L(\d+)(?:\s*-\s*L?(\d+))?\s*[|:]\s*(.+?)\s*$`)
})

// Propose asks the model for facts from the log rel (its content data),
// telling it the known entity slugs.
func (c *Client) Propose(ctx context.Context, rel string, data []byte, entities []string) ([]retain.Proposal, error) {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	var user strings.Builder
	fmt.Fprintf(&user, "Known entities: %s\n\nLog %s, numbered:\n", strings.Join(entities, ", "), rel)
	for i, l := range lines {
		if user.Len() > MaxLogBytes {
			break
		}
		fmt.Fprintf(&user, "%d: %s\n", i+1, l)
	}
	body, err := json.Marshal(request{Model: c.Model, Temperature: 0, Messages: []message{
		{Role: "system", Content: systemPrompt},
		{Role: "user", Content: user.String()},
	}})
	if err != nil {
		return nil, fmt.Errorf("llm: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.chatURL(), bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("llm %s: %w", c.URL, err)
	}
	req.Header.Set("Content-Type", "application/json")
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 2 * time.Minute}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("llm %s: %w (is the server running?)", c.URL, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil, fmt.Errorf("llm %s: %w", c.URL, err)
	}
	var r response
	if err := json.Unmarshal(raw, &r); err != nil || resp.StatusCode != http.StatusOK {
		msg := strings.TrimSpace(string(raw[:min(len(raw), 200)]))
		if r.Error != nil {
			msg = r.Error.Message
		}
		return nil, fmt.Errorf("llm %s: HTTP %d: %s", c.URL, resp.StatusCode, msg)
	}
	if len(r.Choices) == 0 {
		return nil, fmt.Errorf("llm %s: the answer has no choices", c.URL)
	}
	return parseAnswer(rel, r.Choices[0].Message.Content, len(lines)), nil
}

// parseAnswer keeps the answer's lines that are valid facts citing lines
// of the log (which has n lines).
func parseAnswer(rel, answer string, n int) []retain.Proposal {
	var out []retain.Proposal
	seen := map[string]bool{}
	for _, l := range strings.Split(answer, "\n") {
		m := lineRE().FindStringSubmatch(l)
		if m == nil {
			continue
		}
		start, _ := strconv.Atoi(m[1])
		end := start
		if m[2] != "" {
			end, _ = strconv.Atoi(m[2])
		}
		if start < 1 || end < start || end > n {
			continue
		}
		f, err := retain.Validate(m[3])
		if err != nil || seen[f.Line] {
			continue
		}
		seen[f.Line] = true
		out = append(out, retain.Proposal{Fact: f.Line, Reason: "llm",
			Source: memory.Source{Path: rel, Start: start, End: end}})
	}
	return out
}
