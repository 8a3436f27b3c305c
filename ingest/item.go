package ingest

import (
	"strconv"
	"strings"
	"time"

	"memoria/memory"
)

// Item is one item as an index stores it, without its id and file.
type Item struct {
	Kind              memory.Kind
	FactID            string // "" for a passage
	Conf              float64
	HasConf           bool
	Start, End        int
	Day, EventEnd     string // YYYY-MM-DD: the event's first day, else the day written; the event's last day ("" when none)
	Section, Entities string // Entities: the slugs, space-separated
	Content, TextHash string
	Status            memory.EntryStatus // a USER.md entry's mark ("" for none)
}

// DocItem is the i-th item of a parsed document in the order a store
// numbers them: the facts, then the passages, each in line order
// (sortDoc).
func DocItem(doc *memory.Document, i int) Item {
	if i < len(doc.Facts) {
		f := &doc.Facts[i]
		return NewItem(f.Kind, f.ID, f.Confidence, f.HasConfidence, f.Source, f.Written, f.Event, "", f.Entities, f.Text)
	}
	p := &doc.Passages[i-len(doc.Facts)]
	it := NewItem(memory.KindPassage, "", 0, false, p.Source, p.Written, p.Event, p.Section, p.Entities, p.Text)
	it.Status = p.Status
	return it
}

// NewItem makes an item's row from what the parser read.
func NewItem(kind memory.Kind, factID string, conf float64, hasConf bool, src memory.Source, written time.Time, event *memory.TimeRange, section string, entities []string, content string) Item {
	day, evEnd := DayString(written), ""
	if event != nil {
		day, evEnd = DayString(event.Start), DayString(event.End)
	}
	return Item{Kind: kind, FactID: factID, Conf: conf, HasConf: hasConf, Start: src.Start, End: src.End,
		Day: day, EventEnd: evEnd, Section: section, Entities: strings.Join(entities, " "), Content: content,
		TextHash: TextHash(content)}
}

// Columns lists, as strings, everything an index stores of the item
// beyond its id and file: two items with the same columns are stored
// alike. With the full-text row's (Row.Fields) they key an item, so that
// a sync of a changed file can tell its unchanged items and keep them.
func (it *Item) Columns() []string {
	return []string{string(it.Kind), it.FactID, strconv.FormatBool(it.HasConf), strconv.FormatFloat(it.Conf, 'g', -1, 64),
		strconv.Itoa(it.Start), strconv.Itoa(it.End), it.Day, it.EventEnd, it.Section, it.Entities, it.Content, it.TextHash, string(it.Status)}
}

// DateLayout is how days are stored.
const DateLayout = "2006-01-02"

// DayString is a day as stored, "" for the zero time.
func DayString(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(DateLayout)
}

// FillStored sets the fields of it that an index stores as text: the day
// written, the event's first and last days (none when eventEnd is ""),
// and the entities (space-separated slugs). Days that do not parse are
// left zero.
func FillStored(it *memory.Item, written, eventStart, eventEnd, entities string) {
	it.Written, _ = time.Parse(DateLayout, written)
	it.Event = nil
	if eventEnd != "" {
		s, err1 := time.Parse(DateLayout, eventStart)
		e, err2 := time.Parse(DateLayout, eventEnd)
		if err1 == nil && err2 == nil {
			it.Event = &memory.TimeRange{Start: s, End: e}
		}
	}
	it.Entities = nil
	if entities != "" {
		it.Entities = strings.Fields(entities)
	}
}
