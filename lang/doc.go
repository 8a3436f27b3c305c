// Package lang is Memoria's handling of languages the full-text
// tokenizer does not segment or fold by itself: CJK text as bigrams,
// letters people write without their marks, Russian stems. It makes the
// extra tokens an item's full-text row carries (AltText) and the extra
// terms a query word is searched under (AltTerms), the same forms on both
// sides; the index's own tokenizer does everything else.
package lang
