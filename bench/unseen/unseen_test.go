package unseen_test

import (
	"testing"

	"memoria/internal/evalsetcheck"
)

// TestSet validates the set (internal/evalsetcheck): the counts are
// README.md's table of types, the workspace's span and size what it
// describes.
func TestSet(t *testing.T) {
	evalsetcheck.Run(t, evalsetcheck.Set{
		Scored:         map[string]int{"lexical": 16, "entity": 17, "temporal": 18, "opinion": 16, "decision": 16, "update": 17},
		Total:          100,
		MinAbstentions: 3, MaxAbstentions: 6,
		FirstLogDay: "2026-03-02", LastLogDay: "2026-06-30",
		MinLogs: 45, MaxLogs: 70,
		MinEntityPages: 6, MaxEntityPages: 10,
	})
}
