package markdown

// Version changes whenever parsing changes what it reads from the same
// bytes (facts, passages, entities, event times): the index stores it and
// rebuilds when it differs, so no index keeps an older reading.
const Version = 9
