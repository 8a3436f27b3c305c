package imports

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"memoria/markdown"
)

// Formats the readers know.
const (
	ChatGPT    = "chatgpt"
	Claude     = "claude"
	OpenClaw   = "openclaw"
	MemoryFile = "memory-file" // CLAUDE.md, AGENTS.md: notes, not conversations
)

// Formats lists the format names Read takes.
var Formats = []string{ChatGPT, Claude, OpenClaw, MemoryFile}

// Turn is one message of a conversation.
type Turn struct {
	Time    time.Time // zero when the export has none
	Speaker string    // "User", "Assistant", or the export's own name for another role
	Text    string
}

// Session is one conversation, or one memory file.
type Session struct {
	Format string
	ID     string // stable across exports of the same conversation
	Title  string
	Start  time.Time // its first turn's time, else the export's date for it; zero if unknown
	Turns  []Turn
	Notes  string // a memory file's text (Turns is empty then)
}

// Key is what marks a session as imported: "chatgpt:ID", the ID as the
// export gives it when it is made of letters, digits and ".", "_", ":",
// "-", else a hash of it (safeID).
func (s *Session) Key() string { return s.Format + ":" + safeID(s.ID) }

// ErrFormat is wrapped when input is not in the format asked for.
var ErrFormat = errors.New("not in the expected format")

// ErrTooLarge is wrapped when one conversation (or memory file) of the
// input is larger than MaxSessionBytes.
var ErrTooLarge = errors.New("too large")

// MaxSessionBytes bounds what a reader holds at once: one conversation of
// an export, as JSON, one OpenClaw transcript's turns, one memory file.
// The input is refused at the first conversation past it, having held no
// more than that, so memory stays bounded whatever one field holds; a
// session's log must fit in memory.MaxFileSize anyway.
const MaxSessionBytes = 8 << 20

// Detect guesses the format of a file from its name and its first bytes.
func Detect(name string, head []byte) (string, error) {
	base := strings.ToLower(filepath.Base(name))
	head = bytes.TrimLeft(head, " \t\r\n\ufeff")
	switch {
	case strings.HasSuffix(base, ".jsonl"):
		return OpenClaw, nil
	case strings.HasSuffix(base, ".md"):
		return MemoryFile, nil
	case len(head) > 0 && head[0] == '[':
		switch {
		case bytes.Contains(head, []byte(`"mapping"`)):
			return ChatGPT, nil
		case bytes.Contains(head, []byte(`"chat_messages"`)):
			return Claude, nil
		}
	}
	return "", fmt.Errorf("%s: cannot tell its format; name one of %s", name, strings.Join(Formats, ", "))
}

// Read reads r (named name, for errors and memory files) in format and
// hands each session to fn, in the order of the input.
func Read(format, name string, r io.Reader, fn func(Session) error) error {
	switch format {
	case ChatGPT:
		return readArray(r, name, func(dec *json.Decoder) error {
			var c chatGPTConversation
			if err := dec.Decode(&c); err != nil {
				return err
			}
			if s, ok := c.session(); ok {
				return fn(s)
			}
			return nil
		})
	case Claude:
		return readArray(r, name, func(dec *json.Decoder) error {
			var c claudeConversation
			if err := dec.Decode(&c); err != nil {
				return err
			}
			if s, ok := c.session(); ok {
				return fn(s)
			}
			return nil
		})
	case OpenClaw:
		s, err := readOpenClaw(r, name)
		if err != nil || len(s.Turns) == 0 {
			return err
		}
		return fn(s)
	case MemoryFile:
		data, err := io.ReadAll(io.LimitReader(r, MaxSessionBytes+1))
		if err != nil {
			return err
		}
		if len(data) > MaxSessionBytes {
			return fmt.Errorf("%s: %w: a memory file of more than %d MB", name, ErrTooLarge, MaxSessionBytes>>20)
		}
		// What the workspace could not read back as text is refused, not
		// appended to a log (a binary log is skipped whole, with the
		// facts retained in it that day).
		if markdown.IsBinary(data) {
			return fmt.Errorf("%s: %w: binary content, not Markdown", name, ErrFormat)
		}
		if !utf8.Valid(data) {
			return fmt.Errorf("%s: %w: not UTF-8 text (byte %d)", name, ErrFormat, invalidUTF8At(data))
		}
		text := strings.TrimSpace(strings.ReplaceAll(string(data), "\r\n", "\n"))
		if text == "" {
			return nil
		}
		sum := sha256.Sum256([]byte(text))
		return fn(Session{Format: MemoryFile, ID: hex.EncodeToString(sum[:6]), Title: filepath.Base(name), Notes: text})
	}
	return fmt.Errorf("unknown format %q: want one of %s", format, strings.Join(Formats, ", "))
}

// readArray decodes a JSON array one element at a time, refusing an
// element larger than MaxSessionBytes before it holds more of it.
func readArray(r io.Reader, name string, each func(*json.Decoder) error) error {
	in := &boundedReader{r: r, limit: MaxSessionBytes}
	dec := json.NewDecoder(in)
	bad := func(err error) error {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		if errors.As(err, &se) || errors.As(err, &te) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return fmt.Errorf("%s: %w: %v", name, ErrFormat, err)
		}
		return err
	}
	tok, err := dec.Token()
	if errors.Is(err, errOverLimit) {
		return fmt.Errorf("%s: %w: no JSON list starts in its first %d MB", name, ErrFormat, MaxSessionBytes>>20)
	}
	if err != nil {
		return bad(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return fmt.Errorf("%s: %w: want a JSON list of conversations", name, ErrFormat)
	}
	for i := 1; ; i++ {
		// The decoder reads what an element needs and buffers it whole:
		// it may read no further than MaxSessionBytes past the element's
		// start (More included: a failed read there would end the list).
		start := dec.InputOffset()
		in.limit = start + MaxSessionBytes
		if !dec.More() {
			break
		}
		if err := each(dec); err != nil {
			if errors.Is(err, errOverLimit) {
				return fmt.Errorf("%s: %w: conversation %d (from byte %d) is over %d MB", name, ErrTooLarge, i, start, MaxSessionBytes>>20)
			}
			return bad(err)
		}
	}
	// The list must end: an export cut short is refused, not read in part.
	if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
		if err == nil || errors.Is(err, errOverLimit) {
			err = errors.New("the list of conversations does not end")
		}
		return bad(fmt.Errorf("%w: %w", io.ErrUnexpectedEOF, err))
	}
	return nil
}

// errOverLimit is what boundedReader returns past its limit.
var errOverLimit = errors.New("read past the limit")

// boundedReader reads r up to limit bytes in all (read counts them); past
// that it fails, so that a decoder buffering one value holds no more.
type boundedReader struct {
	r           io.Reader
	read, limit int64
}

func (b *boundedReader) Read(p []byte) (int, error) {
	room := b.limit - b.read
	if room <= 0 {
		return 0, errOverLimit
	}
	if int64(len(p)) > room {
		p = p[:room]
	}
	n, err := b.r.Read(p)
	b.read += int64(n)
	return n, err
}

// chatGPTConversation is an element of ChatGPT's conversations.json: the
// messages form a tree (edits and regenerations branch it); the thread
// shown is the path from the root to current_node.
type chatGPTConversation struct {
	ID          string  `json:"id"`
	ConvID      string  `json:"conversation_id"`
	Title       string  `json:"title"`
	CreateTime  float64 `json:"create_time"`
	CurrentNode string  `json:"current_node"`
	Mapping     map[string]struct {
		Parent  string `json:"parent"`
		Message *struct {
			Author struct {
				Role string `json:"role"`
			} `json:"author"`
			CreateTime *float64 `json:"create_time"`
			Content    struct {
				ContentType string     `json:"content_type"`
				Parts       []textPart `json:"parts"`
			} `json:"content"`
		} `json:"message"`
	} `json:"mapping"`
}

func (c *chatGPTConversation) session() (Session, bool) {
	s := Session{Format: ChatGPT, ID: cmpOr(c.ConvID, c.ID), Title: c.Title, Start: epoch(c.CreateTime)}
	var path []Turn
	seen := map[string]bool{}
	for id := c.CurrentNode; id != "" && !seen[id]; {
		seen[id] = true
		n, ok := c.Mapping[id]
		if !ok {
			break
		}
		if m := n.Message; m != nil && (m.Author.Role == "user" || m.Author.Role == "assistant") {
			var parts []string
			for _, p := range m.Content.Parts {
				if t := string(p); strings.TrimSpace(t) != "" {
					parts = append(parts, t)
				}
			}
			if text := strings.TrimSpace(strings.Join(parts, "\n")); text != "" {
				var when time.Time
				if m.CreateTime != nil {
					when = epoch(*m.CreateTime)
				}
				path = append(path, Turn{Time: when, Speaker: speaker(m.Author.Role), Text: text})
			}
		}
		id = n.Parent
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	s.Turns = path
	if s.ID == "" {
		s.ID = contentID(s)
	}
	if len(path) > 0 && !path[0].Time.IsZero() {
		s.Start = path[0].Time
	}
	return s, len(path) > 0
}

// textPart is a part of a ChatGPT message: its text when the part is a
// string; other parts (images, files) are objects, read as no text.
type textPart string

func (t *textPart) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		return json.Unmarshal(data, (*string)(t))
	}
	return nil
}

// claudeConversation is an element of Claude's conversations.json.
type claudeConversation struct {
	UUID      string `json:"uuid"`
	Name      string `json:"name"`
	CreatedAt string `json:"created_at"`
	Messages  []struct {
		Text      string `json:"text"`
		Sender    string `json:"sender"`
		CreatedAt string `json:"created_at"`
		Content   []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"chat_messages"`
}

func (c *claudeConversation) session() (Session, bool) {
	s := Session{Format: Claude, ID: c.UUID, Title: c.Name, Start: isoTime(c.CreatedAt)}
	for _, m := range c.Messages {
		text := m.Text
		if strings.TrimSpace(text) == "" {
			var parts []string
			for _, p := range m.Content {
				if p.Type == "text" && strings.TrimSpace(p.Text) != "" {
					parts = append(parts, p.Text)
				}
			}
			text = strings.Join(parts, "\n")
		}
		if text = strings.TrimSpace(text); text == "" {
			continue
		}
		s.Turns = append(s.Turns, Turn{Time: isoTime(m.CreatedAt), Speaker: speaker(m.Sender), Text: text})
	}
	if s.ID == "" {
		s.ID = contentID(s)
	}
	if len(s.Turns) > 0 && !s.Turns[0].Time.IsZero() {
		s.Start = s.Turns[0].Time
	}
	return s, len(s.Turns) > 0
}

// readOpenClaw reads an OpenClaw session transcript: JSON Lines, a
// "session" header (id, timestamp), then entries, of which the "message"
// ones hold the user's and the assistant's turns.
func readOpenClaw(r io.Reader, name string) (Session, error) {
	s := Session{Format: OpenClaw, Title: strings.TrimSuffix(filepath.Base(name), ".jsonl")}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxSessionBytes)
	size := 0 // of the turns' text: the session is held whole
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var e struct {
			Type      string          `json:"type"`
			ID        string          `json:"id"`
			Timestamp json.RawMessage `json:"timestamp"`
			Role      string          `json:"role"`
			Content   json.RawMessage `json:"content"`
			Message   *struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal(line, &e); err != nil {
			return s, fmt.Errorf("%s:%d: %w: %v", name, n, ErrFormat, err)
		}
		when := rawTime(e.Timestamp)
		switch e.Type {
		case "session":
			s.ID, s.Start = e.ID, when
		case "message":
			role, content := e.Role, e.Content
			if e.Message != nil {
				role, content = e.Message.Role, e.Message.Content
			}
			if role != "user" && role != "assistant" {
				continue // tool results, system notes
			}
			if text := strings.TrimSpace(contentText(content)); text != "" {
				if size += len(text); size > MaxSessionBytes {
					return s, fmt.Errorf("%s:%d: %w: the session's turns pass %d MB", name, n, ErrTooLarge, MaxSessionBytes>>20)
				}
				s.Turns = append(s.Turns, Turn{Time: when, Speaker: speaker(role), Text: text})
			}
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return s, fmt.Errorf("%s: %w: a line of more than %d MB", name, ErrTooLarge, MaxSessionBytes>>20)
	} else if err != nil {
		return s, fmt.Errorf("%s: %w", name, err)
	}
	if s.ID == "" {
		s.ID = contentID(s)
	}
	if s.Start.IsZero() && len(s.Turns) > 0 {
		s.Start = s.Turns[0].Time
	}
	return s, nil
}

// contentText reads a message's content: a string, or a list of parts of
// which the text ones count.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var out []string
	for _, p := range parts {
		if (p.Type == "text" || p.Type == "") && p.Text != "" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}

func speaker(role string) string {
	switch strings.ToLower(role) {
	case "user", "human":
		return "User"
	case "assistant", "ai":
		return "Assistant"
	}
	if role == "" {
		return "Unknown"
	}
	return strings.ToUpper(role[:1]) + role[1:]
}

func epoch(f float64) time.Time {
	if f <= 0 || math.IsNaN(f) || f > 1e11 {
		return time.Time{}
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC()
}

func isoTime(s string) time.Time {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// rawTime reads a timestamp given as an ISO string or epoch milliseconds.
func rawTime(raw json.RawMessage) time.Time {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return isoTime(s)
	}
	var ms float64
	if json.Unmarshal(raw, &ms) == nil && ms > 0 {
		if ms > 1e11 {
			return time.UnixMilli(int64(ms)).UTC()
		}
		return epoch(ms)
	}
	return time.Time{}
}

// contentID names a session without an ID of its own by its content.
func contentID(s Session) string {
	h := sha256.New()
	io.WriteString(h, s.Title)
	for _, t := range s.Turns {
		fmt.Fprintf(h, "\x00%s\x00%s", t.Speaker, t.Text)
	}
	return hex.EncodeToString(h.Sum(nil)[:6])
}

// invalidUTF8At is the offset of data's first byte that is not UTF-8.
func invalidUTF8At(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Day is the daily log a session goes into: its start's day, UTC, else
// (no start, or one no log can be named after) fallback's.
func (s *Session) Day(fallback time.Time) string {
	t := s.Start.UTC()
	if t.IsZero() || t.Year() < 1900 || t.Year() > 9999 {
		t = fallback
	}
	return t.UTC().Format(time.DateOnly)
}
