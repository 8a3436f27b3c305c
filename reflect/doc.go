// Package reflect turns the typed facts of the daily logs into stable,
// reviewable pages (docs/reflect.md): the managed block of each entity page
// (bank/entities/<Slug>.md), the opinions of bank/opinions.md with a
// confidence that follows the evidence, and proposals for core memory in
// review/core-proposals.md. The rules are written down in docs/reflect.md.
//
// The package is pure computation plus a small write layer. Load reads and
// parses the workspace (daily logs in parallel) and records the content
// hash of every file reflect may write; Compute works out every new file
// from that input alone, deterministically; Write then takes the workspace
// write lock (package safewrite), checks that no target file changed since
// Load read it, and refuses to write anything if one did (ErrChanged);
// otherwise it replaces each file atomically. Plan.Diff renders a
// unified diff for dry runs. Running reflect on its own output changes
// nothing.
//
// # Entity pages
//
// An entity with at least MinFactsForPage facts in the daily logs gets a
// page; an existing page gets the block from its first fact. Memoria owns
// one block per page, between a line starting with BeginMarker (which
// records a hash of the block's content) and EndMarker; every byte outside
// it is kept. The block holds a summary of the most recent facts (current
// ones first, newest first; then superseded ones, struck through and
// naming the fact that replaced them), a dated timeline of the last facts
// and the entity's opinions with their confidence, each line citing its
// source as path#Lx. A fact is superseded by a later fact of the same kind
// and entity that is similar (Similarity ≥ 0.5), or related (≥
// MatchThreshold) and contradicting it. Lines start with a date or a
// marker word, never a kind letter, so the block is never read back as
// facts. A block whose content no longer matches its hash was edited by
// hand: reflect relabels it (EditedBegin … EditedEnd, content untouched),
// writes a fresh block after it and reports the page. Markers that are not
// one well-formed pair leave the page untouched, with a warning.
//
// # Opinions
//
// ParseOpinions reads bank/opinions.md into opinions (a top-level
// "- O(c=0.8) @Entity: statement" bullet with indented "- key: value"
// sub-bullets: last_updated, supports, contradicts, superseded, or any
// other key a person writes) and the raw lines between them. Bytes of an
// unchanged file is its input, byte for byte; a changed opinion keeps
// every line reflect did not change. Evidence reads
//
//	supports: f_441b24b9fd72 memory/2025-11-27.md#L97 (c 0.9->0.91)
//	contradicts: f_0d2a051766d4 memory/2025-11-06.md#L4 (strong; c 0.63->0.49; flipped, new c=0.51)
//
// (each an indented "- " sub-bullet) with the fact ID, its source and the change it made, each optional, so
// that hand-written "- supports: memory/2025-10-09.md#L31" is evidence too.
//
// Each O fact of a daily log that no opinion cites yet (by ID and file, or
// by overlapping lines) is evidence for the most similar opinion that
// shares an entity (Similarity ≥ MatchThreshold, or its entity's only
// opinion sharing two terms with it); otherwise it starts a new opinion.
// A fact the opinions file holds already is not applied again: its file
// cited as a whole, or written before the opinion's last_updated; an
// opinion citing nothing at the fact's confidence was written from it
// (SourceNote). Contradicts decides, offline, whether it contradicts; Apply
// is the update rule.
//
// # Core proposals
//
// A world fact or opinion without a date of its own that recurs, in the
// same words up to case, stop words and inflection, on MinRecurrence days
// or more, one of them recent, and that core memory does not already hold,
// is proposed in ProposalsPath as an unticked "- [ ]" line with its
// sources. Reflect never writes memory.md.
package reflect
