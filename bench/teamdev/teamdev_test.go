package teamdev_test

import (
	"testing"

	"memoria/internal/evalsetcheck"
)

// TestSet validates the set (internal/evalsetcheck): the counts are
// README.md's.
func TestSet(t *testing.T) {
	evalsetcheck.RunTeam(t, evalsetcheck.TeamSet{
		Workspaces:  []string{"books", "dairy", "orchard", "sam", "shop"},
		Scored:      map[string]int{"single": 24, "cross": 9, "temporal": 4, "update": 5},
		Abstentions: 2,
	})
}
