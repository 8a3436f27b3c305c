package markdown

// Version changes whenever parsing changes what it reads from the same
// bytes (facts, passages, entities, event times): the index stores it and
// rebuilds when it differs, so no index keeps an older reading. 10:
// months joined by a dash are a range ("Jan–Feb 2026"); it also covers
// the fixed-date holidays and the dates inside identifiers, which
// changed event times under 9.
const Version = 10
