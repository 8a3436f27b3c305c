package dev3_test

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
		FirstLogDay: "2025-10-13", LastLogDay: "2026-02-08",
		MinLogs: 40, MaxLogs: 50,
		MinEntityPages: 6, MaxEntityPages: 9,
	})
}
