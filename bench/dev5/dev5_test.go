package dev5_test

import (
	"testing"

	"memoria/internal/evalsetcheck"
)

// TestSet validates the set (internal/evalsetcheck): the counts are
// README.md's table of types, the workspace's span and size what it
// describes.
func TestSet(t *testing.T) {
	evalsetcheck.Run(t, evalsetcheck.Set{
		Scored:         map[string]int{"update": 30, "lexical": 8, "entity": 4, "temporal": 4, "opinion": 2},
		Total:          48,
		MinAbstentions: 3, MaxAbstentions: 6,
		FirstLogDay: "2026-01-26", LastLogDay: "2026-04-26",
		MinLogs: 35, MaxLogs: 42,
		MinEntityPages: 6, MaxEntityPages: 8,
	})
}
