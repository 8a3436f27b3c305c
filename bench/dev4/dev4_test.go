package dev4_test

import (
	"testing"

	"memoria/internal/evalsetcheck"
)

// TestSet validates the set (internal/evalsetcheck): the counts are
// README.md's table of types, the workspace's span and size what it
// describes.
func TestSet(t *testing.T) {
	evalsetcheck.Run(t, evalsetcheck.Set{
		Scored:         map[string]int{"lexical": 12, "entity": 12, "temporal": 12, "opinion": 12, "decision": 12, "update": 14},
		Total:          74,
		MinAbstentions: 3, MaxAbstentions: 6,
		FirstLogDay: "2025-04-07", LastLogDay: "2025-08-03",
		MinLogs: 45, MaxLogs: 55,
		MinEntityPages: 6, MaxEntityPages: 9,
	})
}
