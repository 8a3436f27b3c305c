package ingest

import (
	"strings"

	"memoria/lang"
	"memoria/memory"
)

// Row is an item's row in a full-text index. Besides its
// own text, a passage is indexed with the text of its neighbours in the
// same section (column "context", weighted low; ContextChars characters of
// each: docs/index.md has the measurements): a turn of a conversation is
// found by the words of the question before it or the answer after it,
// while the result still cites only its own lines. The tokens the
// tokenizer cannot make (CJK bigrams, folds, stems: alt.go) join the
// content, and the neighbours' ones the context.
type Row struct {
	Content, Section, Entities, Context string
}

// Fields lists the row's columns, as Item.Columns lists the item's.
func (r Row) Fields() []string { return []string{r.Content, r.Section, r.Entities, r.Context} }

// ContextChars is how many characters of each neighbour a passage's
// context column holds.
const ContextChars = 200

// EachRow makes the full-text rows of a document's items, in the order
// the writer numbers them (the facts, then the passages), and hands each
// to fn, so that no more than one row is held at a time. It is the one
// definition of a full-text row, for a build, a sync and a delete alike
// (a delete makes the rows of stored items again): any change to what it
// makes must change Version, so that indexes written with the old
// rows are rebuilt rather than edited.
func EachRow(doc *memory.Document, fn func(i int, r Row) error) error {
	for i, f := range doc.Facts {
		if err := fn(i, Row{Content: withAlt(f.Text, lang.AltText(f.Text)), Entities: ftsEntities(f.Entities)}); err != nil {
			return err
		}
	}
	own, around := passageAlts(doc.Passages)
	prev, next := neighbours(doc.Passages)
	for i, p := range doc.Passages {
		var ctx []string
		if j := prev[i]; j >= 0 {
			ctx = append(ctx, lastRunes(doc.Passages[j].Text, ContextChars))
		}
		if j := next[i]; j >= 0 {
			ctx = append(ctx, firstRunes(doc.Passages[j].Text, ContextChars))
		}
		if around[i] != "" {
			ctx = append(ctx, around[i])
		}
		err := fn(len(doc.Facts)+i, Row{
			Content:  withAlt(p.Text, own[i]),
			Section:  p.Section,
			Entities: ftsEntities(p.Entities),
			Context:  strings.Join(ctx, " "),
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// neighbours returns, for each passage, the index of the passage before
// and after it in the same section (-1 where there is none). Passages come
// in line order.
func neighbours(ps []memory.Passage) (prev, next []int) {
	prev, next = make([]int, len(ps)), make([]int, len(ps))
	last := map[string]int{}
	for i, p := range ps {
		prev[i], next[i] = -1, -1
		if j, ok := last[p.Section]; ok {
			prev[i], next[j] = j, i
		}
		last[p.Section] = i
	}
	return prev, next
}

func withAlt(text, alt string) string {
	if alt == "" {
		return text
	}
	return text + " " + alt
}

var slugSeparators = strings.NewReplacer("-", " ", "_", " ")

// ftsEntities is the entities column: the slugs as words ("The-Castle"
// is found by "castle").
func ftsEntities(slugs []string) string {
	return slugSeparators.Replace(strings.Join(slugs, " "))
}

func firstRunes(s string, n int) string {
	i := 0
	for k := range s {
		if i == n {
			return s[:k]
		}
		i++
	}
	return s
}

func lastRunes(s string, n int) string {
	i := 0
	for k := len(s); k > 0; {
		if i == n {
			return s[k:]
		}
		k--
		for k > 0 && s[k]&0xC0 == 0x80 {
			k--
		}
		i++
	}
	return s
}

// altContext is how many characters of each neighbour's alt tokens a
// passage's context gets, as the context column takes 120 of their text.
const altContext = 120

// passageAlts returns each passage's own alt tokens, and those of its
// neighbours in the same section (altContext characters of each), as
// the context column pairs passages.
func passageAlts(ps []memory.Passage) (own, around []string) {
	own, around = make([]string, len(ps)), make([]string, len(ps))
	some := false
	for i, p := range ps {
		own[i] = lang.AltText(p.Text)
		some = some || own[i] != ""
	}
	if !some {
		return own, around
	}
	prev, next := neighbours(ps)
	for i := range ps {
		var ctx []string
		if j := prev[i]; j >= 0 && own[j] != "" {
			ctx = append(ctx, lastRunes(own[j], altContext))
		}
		if j := next[i]; j >= 0 && own[j] != "" {
			ctx = append(ctx, firstRunes(own[j], altContext))
		}
		around[i] = strings.Join(ctx, " ")
	}
	return own, around
}
