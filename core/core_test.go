package core

import (
	"errors"
	"strings"
	"testing"
)

const sample = "# Core memory\n\nIntro line.\n\n## About\n- Name: Peter\n- City: Vienna\n\n## Preferences\n- Likes tea.\n"

func TestEdits(t *testing.T) {
	tests := []struct {
		name string
		in   string
		edit func([]byte) ([]byte, error)
		want string
		err  error
	}{
		{"append to block", sample,
			func(b []byte) ([]byte, error) { return Append(b, "about", "- Dog: Biscuit", Options{}) },
			"# Core memory\n\nIntro line.\n\n## About\n- Name: Peter\n- City: Vienna\n- Dog: Biscuit\n\n## Preferences\n- Likes tea.\n", nil},
		{"append to last block", sample,
			func(b []byte) ([]byte, error) { return Append(b, "Preferences", "- Hates rain.\n", Options{}) },
			sample + "- Hates rain.\n", nil},
		{"append creates block", sample,
			func(b []byte) ([]byte, error) { return Append(b, "Projects", "- warelay", Options{}) },
			sample + "\n## Projects\n- warelay\n", nil},
		{"append creates file", "",
			func(b []byte) ([]byte, error) { return Append(b, "About", "- Name: Peter", Options{}) },
			"# Core memory\n\n## About\n- Name: Peter\n", nil},
		{"append to empty block", "## About\n\n## Prefs\n",
			func(b []byte) ([]byte, error) { return Append(b, "About", "x", Options{}) },
			"## About\nx\n\n## Prefs\n", nil},
		{"no final newline", "## About\n- a",
			func(b []byte) ([]byte, error) { return Append(b, "About", "- b", Options{}) },
			"## About\n- a\n- b\n", nil},
		{"crlf kept", "## About\r\n- a\r\n\r\n## B\r\n",
			func(b []byte) ([]byte, error) { return Append(b, "About", "- b\n- c", Options{}) },
			"## About\r\n- a\r\n- b\r\n- c\r\n\r\n## B\r\n", nil},
		{"replace once", sample,
			func(b []byte) ([]byte, error) { return Replace(b, "About", "Vienna", "Lisbon", Options{}) },
			strings.Replace(sample, "Vienna", "Lisbon", 1), nil},
		{"replace multi-line in crlf", "## A\r\n- x\r\n- y\r\n",
			func(b []byte) ([]byte, error) { return Replace(b, "A", "- x\n- y", "- z", Options{}) },
			"## A\r\n- z\r\n", nil},
		{"replace only in block", "## A\n- tea\n## B\n- tea\n",
			func(b []byte) ([]byte, error) { return Replace(b, "B", "tea", "coffee", Options{}) },
			"## A\n- tea\n## B\n- coffee\n", nil},
		{"replace delete", sample,
			func(b []byte) ([]byte, error) { return Replace(b, "About", "- City: Vienna\n", "", Options{}) },
			strings.Replace(sample, "- City: Vienna\n", "", 1), nil},
		{"replace missing", sample,
			func(b []byte) ([]byte, error) { return Replace(b, "About", "Paris", "x", Options{}) },
			"", ErrNotFound},
		{"replace ambiguous", "## A\n- a\n- a\n",
			func(b []byte) ([]byte, error) { return Replace(b, "A", "- a", "x", Options{}) },
			"", ErrInvalid},
		{"replace in heading refused", sample,
			func(b []byte) ([]byte, error) { return Replace(b, "About", "## About", "## X", Options{}) },
			"", ErrNotFound},
		{"replace no block", sample,
			func(b []byte) ([]byte, error) { return Replace(b, "Nope", "a", "b", Options{}) },
			"", ErrNoBlock},
		{"insert at 0", sample,
			func(b []byte) ([]byte, error) { return Insert(b, "About", 0, "- First", Options{}) },
			strings.Replace(sample, "## About\n", "## About\n- First\n", 1), nil},
		{"insert after 1", sample,
			func(b []byte) ([]byte, error) { return Insert(b, "About", 1, "- Second", Options{}) },
			strings.Replace(sample, "- Name: Peter\n", "- Name: Peter\n- Second\n", 1), nil},
		{"insert past end", sample,
			func(b []byte) ([]byte, error) { return Insert(b, "About", 3, "x", Options{}) },
			"", ErrInvalid},
		{"heading in text", sample,
			func(b []byte) ([]byte, error) { return Append(b, "About", "## Sneaky", Options{}) },
			"", ErrInvalid},
		{"open fence in text", sample,
			func(b []byte) ([]byte, error) { return Append(b, "Preferences", "```\ncode", Options{}) },
			"", ErrInvalid},
		{"sub-heading ok", sample,
			func(b []byte) ([]byte, error) { return Append(b, "Preferences", "### Food\n- Tea", Options{}) },
			sample + "### Food\n- Tea\n", nil},
		{"empty text", sample,
			func(b []byte) ([]byte, error) { return Append(b, "About", "  \n", Options{}) },
			"", ErrInvalid},
		{"invalid utf8", sample,
			func(b []byte) ([]byte, error) { return Append(b, "About", "bad \xff", Options{}) },
			"", ErrInvalid},
		{"over limit", sample,
			func(b []byte) ([]byte, error) {
				return Append(b, "About", strings.Repeat("x", 200), Options{Limit: 150})
			},
			"", ErrTooLarge},
		{"shrinking over limit ok", sample,
			func(b []byte) ([]byte, error) { return Replace(b, "About", "- City: Vienna\n", "", Options{Limit: 10}) },
			strings.Replace(sample, "- City: Vienna\n", "", 1), nil},
		{"no limit", sample,
			func(b []byte) ([]byte, error) {
				return Append(b, "About", strings.Repeat("x", 9000), Options{Limit: -1})
			},
			strings.Replace(sample, "- City: Vienna\n", "- City: Vienna\n"+strings.Repeat("x", 9000)+"\n", 1), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.edit([]byte(tt.in))
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err = %v, want %v", err, tt.err)
				}
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("error not one line: %q", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestShow(t *testing.T) {
	got, err := Show([]byte(sample), "ABOUT")
	if err != nil || got != "## About\n- Name: Peter\n- City: Vienna" {
		t.Errorf("show: %q, %v", got, err)
	}
	if all, _ := Show([]byte(sample), ""); all != sample {
		t.Errorf("show all: %q", all)
	}
	_, err = Show([]byte(sample), "nope")
	if !errors.Is(err, ErrNoBlock) || !strings.Contains(err.Error(), `"About", "Preferences"`) {
		t.Errorf("missing block: %v", err)
	}
	bs, err := Blocks([]byte(sample))
	if err != nil || len(bs) != 2 || bs[0].Lines != 2 || bs[1].Line != 9 {
		t.Errorf("blocks: %+v, %v", bs, err)
	}
	// A "## x" inside a code block is not a block.
	bs, _ = Blocks([]byte("## A\n```\n## not\n```\n"))
	if len(bs) != 1 {
		t.Errorf("code heading counted: %+v", bs)
	}
}
