package markdown

import (
	"strconv"
	"strings"
)

// frontMatter is what the parser reads from a leading "---" block.
type frontMatter struct {
	end     int // number of lines the block spans, fences included; 0 if none
	name    string
	title   string
	aliases []string
}

// parseFrontMatter reads a front matter block at the start of lines: a
// "---" line, YAML-ish "key: value" lines, and a closing "---" or "..."
// line. A block that is never closed, or holds a line that is not
// YAML-ish, is not front matter (it is then ordinary Markdown).
func parseFrontMatter(lines []string) frontMatter {
	if len(lines) == 0 || lines[0] != "---" {
		return frontMatter{}
	}
	end := -1
	for j := 1; j < len(lines); j++ {
		s := lines[j]
		if s == "---" || s == "..." {
			end = j
			break
		}
		if !yamlish(s) {
			return frontMatter{}
		}
	}
	if end < 0 {
		return frontMatter{}
	}
	fm := frontMatter{end: end + 1}
	body := lines[1:end]
	for j := 0; j < len(body); j++ {
		s := body[j]
		if s == "" || s[0] == ' ' || s[0] == '\t' || s[0] == '#' || s[0] == '-' {
			continue
		}
		key, value, _ := strings.Cut(s, ":")
		value = strings.TrimSpace(value)
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "name":
			fm.name = scalar(value)
		case "title":
			fm.title = scalar(value)
		case "aliases", "alias":
			switch {
			case strings.HasPrefix(value, "["):
				fm.aliases = appendAliases(fm.aliases, flowList(value)...)
			case value == "":
				for j+1 < len(body) && blockItem(body[j+1]) {
					j++
					item := strings.TrimSpace(body[j])
					fm.aliases = appendAliases(fm.aliases, scalar(strings.TrimSpace(item[1:])))
				}
			default:
				fm.aliases = appendAliases(fm.aliases, scalar(value))
			}
		}
	}
	return fm
}

// yamlish reports whether s could be a line of a simple YAML mapping: blank,
// a comment, indented, a block-list item, or a "key: value" line.
func yamlish(s string) bool {
	return s == "" || s[0] == ' ' || s[0] == '\t' || s[0] == '#' || s[0] == '-' ||
		strings.IndexByte(s, ':') > 0
}

// blockItem reports whether s is an item of a block list: "- value",
// usually indented.
func blockItem(s string) bool {
	t := strings.TrimLeft(s, " \t")
	return t == "-" || strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "-\t")
}

// appendAliases appends the non-empty aliases not already in list.
func appendAliases(list []string, aliases ...string) []string {
	for _, a := range aliases {
		if a != "" && !contains(list, a) {
			list = append(list, a)
		}
	}
	return list
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// scalar reads a YAML scalar: a double-quoted string with escapes, a
// single-quoted string, or plain text up to a " #" comment.
func scalar(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 {
		switch {
		case v[0] == '"' && v[len(v)-1] == '"':
			if u, err := strconv.Unquote(v); err == nil {
				return strings.TrimSpace(u)
			}
			return strings.TrimSpace(v[1 : len(v)-1])
		case v[0] == '\'' && v[len(v)-1] == '\'':
			return strings.TrimSpace(strings.ReplaceAll(v[1:len(v)-1], "''", "'"))
		}
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v)
}

// flowList reads a YAML flow sequence such as `[Pete, "P. Steinberger"]`,
// splitting on commas outside quotes. A missing ']' ends the list at the end
// of the line.
func flowList(v string) []string {
	v = strings.TrimPrefix(v, "[")
	var items []string
	var quote byte
	start := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '"' || c == '\'':
			quote = c
		case c == ',':
			items = append(items, scalar(v[start:i]))
			start = i + 1
		case c == ']':
			return append(items, scalar(v[start:i]))
		}
	}
	return append(items, scalar(v[start:]))
}
