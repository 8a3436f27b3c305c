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
// it is kept. The block (entityBlock) holds a summary of the most recent
// facts, current ones first and superseded ones struck through, a dated
// timeline and the entity's opinions, each line citing its source. A block
// edited by hand is kept, relabelled (EditedBegin … EditedEnd), with a
// fresh block after it (splice). Curated lines a newer fact outdates are
// struck through where they stand (staleIn, StaleTag).
//
// # Opinions
//
// ParseOpinions reads bank/opinions.md (OpinionsFile: each opinion with
// its sub-bullets, and the lines between them, kept byte for byte). Each O
// fact of a daily log that no opinion cites yet is evidence for the most
// similar opinion that shares an entity, or starts a new one
// (reflectOpinions); Contradicts decides, offline, whether it contradicts,
// and Apply is the update rule.
//
// # Core proposals
//
// A world fact or opinion without a date of its own that recurs, in the
// same words up to case, stop words and inflection, on MinRecurrence days
// or more, one of them recent, and that core memory does not already hold,
// is proposed in ProposalsPath as an unticked "- [ ]" line with its
// sources (proposeCore); so is a stale statement of core memory
// (staleProposals). Reflect never writes memory.md.
package reflect
