package memoria

import (
	"memoria/memory"
	"memoria/recall"
)

// The domain types of the library. They are defined in package memory,
// which every other package (the index, recall, reflect) can import
// without a cycle through this one, and named here for the library's users.
type (
	// Store is the derived index of a workspace, as the library uses it;
	// the SQLite index (package sqlite) is the one Open uses.
	Store = memory.Store
	// Item is one indexed fact or passage.
	Item = memory.Item
	// Filter narrows a search: a window of days, kinds, entities.
	Filter = memory.Filter
	// Kind is what an item is: world, experience, opinion, observation
	// (typed facts) or passage.
	Kind = memory.Kind
	// Source cites a file and its lines.
	Source = memory.Source
	// Stats describes one build or sync of the index.
	Stats = memory.Stats
	// Status summarises what the index holds and whether it is fresh.
	Status = memory.Status
	// EmbedStats describes one embedding run.
	EmbedStats = memory.EmbedStats
	// Result is one recalled item, cited.
	Result = recall.Result
)
