package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"

	"memoria/memory"
	"memoria/vector"
)

// An item's kind, days and text hash are stored as integers and its
// section heading as the id of a row of sections: as text they were a
// sixth of the index on ten years of logs (the kind's name, two
// "YYYY-MM-DD" strings and 16 hex digits on every row and in two indexes,
// the same heading on thousands of rows). The conversions below are the
// only place that knows the stored forms; the rest of the package and
// ingest.Item keep the text forms.

// kindNames numbers the kinds by their place; a passage is 0, so "is a
// passage" reads kind = 0 in SQL (kindPassageSQL).
var kindNames = [...]memory.Kind{memory.KindPassage, memory.KindWorld, memory.KindExperience, memory.KindOpinion, memory.KindObservation}

const kindPassageSQL = "0"

// statusNames numbers the marks of a USER.md entry by their place; 0 is
// none, what every other item has.
var statusNames = [...]memory.EntryStatus{"", memory.StatusActive, memory.StatusSuperseded}

func statusCode(s memory.EntryStatus) (int64, error) {
	if i := slices.Index(statusNames[:], s); i >= 0 {
		return int64(i), nil
	}
	return 0, fmt.Errorf("unknown entry status %q", s)
}

func statusOf(n int64) memory.EntryStatus {
	if n >= 0 && n < int64(len(statusNames)) {
		return statusNames[n]
	}
	return ""
}

func kindCode(k memory.Kind) (int64, error) {
	if i := slices.Index(kindNames[:], k); i >= 0 {
		return int64(i), nil
	}
	return 0, fmt.Errorf("unknown item kind %q", k)
}

func kindOf(n int64) memory.Kind {
	if n >= 0 && n < int64(len(kindNames)) {
		return kindNames[n]
	}
	return memory.Kind(strconv.FormatInt(n, 10))
}

// dayNum stores a day "YYYY-MM-DD" as the number YYYYMMDD (ordered as the
// text was), "" as 0.
func dayNum(s string) int64 {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0
	}
	n, err := strconv.ParseInt(s[:4]+s[5:7]+s[8:], 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// noDayMax is above every stored day.
const noDayMax = 99999999

// dayText is the inverse of dayNum. Two per item read, so the common
// case (a four-digit year) is cut from the number's digits, not fmt.
func dayText(n int64) string {
	if n <= 0 {
		return ""
	}
	if d := strconv.FormatInt(n, 10); len(d) == 8 {
		return d[:4] + "-" + d[4:6] + "-" + d[6:]
	}
	return fmt.Sprintf("%04d-%02d-%02d", n/10000, n/100%100, n%100)
}

// hashNum stores a text hash (16 hex digits, ingest.TextHash) as the
// vector store's id of the text.
func hashNum(h string) (int64, error) {
	n, ok := vector.TextID(h)
	if !ok {
		return 0, fmt.Errorf("malformed text hash %q", h)
	}
	return n, nil
}

func hashText(n int64) string { return vector.TextHash(n) }

// sectionColumn reads an item's heading back from its section id.
const sectionColumn = `coalesce((SELECT text FROM sections WHERE id = i.section), '')`

// sectionIDs assigns section ids while a transaction writes items: the
// headings already stored, and those it adds. A heading stays in
// sections when its last item goes (there are few: a rebuild drops them).
type sectionIDs struct {
	ids    map[string]int64
	insert *sql.Stmt
}

func newSectionIDs(ctx context.Context, tx *sql.Tx) (*sectionIDs, error) {
	s := &sectionIDs{ids: map[string]int64{"": 0}}
	rows, err := tx.QueryContext(ctx, `SELECT id, text FROM sections`)
	if err != nil {
		return nil, fmt.Errorf("sections: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var text string
		if err := rows.Scan(&id, &text); err != nil {
			return nil, fmt.Errorf("sections: %w", err)
		}
		s.ids[text] = id
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sections: %w", err)
	}
	if s.insert, err = tx.PrepareContext(ctx, `INSERT INTO sections(text) VALUES(?)`); err != nil {
		return nil, fmt.Errorf("sections: %w", err)
	}
	return s, nil
}

// id is the heading's id, added to sections if it is new ("" is 0).
func (s *sectionIDs) id(ctx context.Context, text string) (int64, error) {
	if id, ok := s.ids[text]; ok {
		return id, nil
	}
	res, err := s.insert.ExecContext(ctx, text)
	if err != nil {
		return 0, fmt.Errorf("section %q: %w", text, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	s.ids[text] = id
	return id, nil
}
