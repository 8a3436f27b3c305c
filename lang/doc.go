// Package lang is Memoria's lexicon and its handling of languages.
//
// The lexicon holds every word list the packages that parse and rank read,
// each once, in lower case, per language where it applies; no other
// package defines one (TestOneLexicon in the module's root checks it):
//
//   - calendar.go, calendar_cjk.go: months, weekdays, time units, number
//     and ordinal words, the words that relate a time ("since", "until"),
//     seasons, holidays and named days, CJK date words (datephrase, query,
//     change);
//   - questions.go, amounts.go, choice.go, searchwords.go: what a question
//     asks (intent cues, the present, an amount, a choice, whose words),
//     the windows anchored on an event, the stop words (query, recall,
//     reflect) and the generic words of a search (query, recall);
//   - change.go, grammar.go, values.go: the words that say a value changed,
//     per language, and the words of the patterns that read a fact's
//     clauses and values (change);
//   - polarity.go, stopwords.go, persons.go, statementkind.go: the words
//     reflect compares statements by;
//   - words.go: each language's function words, which tell a text's
//     language (NotEnglish) and get no stems.
//
// Each table has a test (no duplicates, lower case, known members).
//
// For the languages the full-text tokenizer does not segment or fold by
// itself (CJK text as bigrams, letters people write without their marks,
// stems of the languages Snowball covers), it makes the extra tokens an
// item's full-text row carries (AltText) and the extra terms a query word
// is searched under (AltTerms), the same forms on both sides; the index's
// own tokenizer does everything else.
package lang
