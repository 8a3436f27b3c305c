// Package query turns recall query text and flags into a small typed query,
// the first stage of recall (parse → plan → run channels → features → score → pack).
//
// Parse reads arbitrary user text and never fails on it: quotes, dashes,
// colons, stars, parentheses and search operators such as AND, OR and NEAR
// are words or nothing. It extracts:
//
//   - Terms: lower-cased words, deduplicated in order, without stop words
//     (see IsStopWord), @mentions, time phrases and quoted phrases;
//   - Phrases: "quoted phrases", each as its words;
//   - Entities: explicit @mentions and known names and aliases, found by an
//     EntityMatcher such as NameTable ("Pete" → Peter, "the castle" →
//     The-Castle), plus --entity flags;
//   - Window and Around: the days the query is about, from time phrases
//     found by package datephrase ("since last week", "around Nov 27",
//     "during Nov 2025", "yesterday") intersected with --since/--until;
//   - Kinds: --kind filters, read by memory.ParseKind;
//   - Intent: Search, About, Opinion, Decision, Suggest, Current or Past,
//     read from the original text (stop words included);
//   - Quantity and Choice: whether the question asks for an amount ("how
//     many", "how long") or for what was chosen and why ("why did we …",
//     "what did we pick instead of …"), whatever its intent.
//
// Precedence where spans overlap: a quoted phrase keeps its words (a date
// inside quotes is not a time window), and a known name beats a time phrase
// (an entity called June is not the month). Known names written without @
// stay in Terms, because raw passages name people without the @.
//
// # Word lists
//
// The words Parse reads are package lang's: the stop words left out of
// Terms (lang.StopWords: English function words, question words,
// pronouns, verbs of asking and contraction fragments; negations are
// kept), the generic words of a browsing question (lang.GenericWords),
// and the cues of each intent, of an amount and of a choice
// (lang.AsksDecision, lang.AsksOpinion, lang.AsksNow, lang.AsksPast,
// lang.AsksAbout, lang.AsksSuggestion, lang.AsksAmount; lang.AsksReason
// and lang.ChoiceCues, which recall reads in the lines it ranks too).
//
// # Intents
//
// Decision and Opinion win over the rest; between them, whichever cue
// comes first ("what does Peter think of the decision" is an opinion).
// Then Suggest, Current (unless "latest" only orders things in time),
// Past (also was/were/had with a window that has begun), About (also a
// query that is only entity names), else Search. "Like" is an opinion
// only after do/does/did/would ("does Peter like …", not "what is
// Marrakech like").
//
// # Speakers
//
// AskedSpeaker reads from a query's words whose words it asks for in chat
// transcripts: the assistant's ("what did you recommend", "our previous
// conversation", "remind me"), the user's (a question in the first person:
// "what did I buy for my sister"), or anyone's. A known name glued into an
// identifier ("warelay.yaml", "WARELAY_DEBUG", "/var/lib/warelay") is not
// a mention of the entity.
package query
