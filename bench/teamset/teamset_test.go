package teamset_test

import (
	"testing"

	"memoria/internal/evalsetcheck"
)

// TestSet validates the set (internal/evalsetcheck): the counts are
// README.md's.
func TestSet(t *testing.T) {
	evalsetcheck.RunTeam(t, evalsetcheck.TeamSet{
		Workspaces:  []string{"billing", "karim", "maelle", "ops"},
		Scored:      map[string]int{"single": 8, "cross": 8, "temporal": 4, "update": 4},
		Abstentions: 2,
	})
}
