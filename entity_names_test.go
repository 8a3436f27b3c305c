package memoria_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"memoria"
)

// namesWorkspace has an entity only mentioned (@Project-Atlas), one with
// diacritics and a page with an alias (@Zoë-Müller, "Zo"), and two that
// share a first name (@Alex-Kim, @Alex-Moreau).
func namesWorkspace(t *testing.T) string {
	return workspaceOf(t, map[string]string{
		"bank/entities/Zoë-Müller.md": "---\naliases: [Zo]\n---\n# Zoë Müller\n\nDesigner in Lyon; draws the maps.\n",
		"memory/2026-01-10.md": "# 2026-01-10\n\n## Retain\n" +
			"- W @Project-Atlas: The migration to Postgres is due in March.\n" +
			"- W @Zoë-Müller: Leads the design review on Thursdays.\n" +
			"- W @Alex-Kim: Runs the infrastructure budget.\n" +
			"- W @Alex-Moreau: Writes the release notes.\n",
	})
}

// nameSpellings are names as people write them, each with the entity it
// stands for ("" for none: unknown or ambiguous).
var nameSpellings = []struct{ name, slug string }{
	{"Project-Atlas", "Project-Atlas"},
	{"Project Atlas", "Project-Atlas"},
	{"project atlas", "Project-Atlas"},
	{"PROJECT_ATLAS", "Project-Atlas"},
	{"@Project-Atlas", "Project-Atlas"},
	{"Atlas", "Project-Atlas"},
	{"atlas", "Project-Atlas"},
	{"Zoë-Müller", "Zoë-Müller"},
	{"Zoe Muller", "Zoë-Müller"},
	{"zoe-muller", "Zoë-Müller"},
	{"ZOË MÜLLER", "Zoë-Müller"},
	{"Müller", "Zoë-Müller"},
	{"Muller", "Zoë-Müller"},
	{"Zoe", "Zoë-Müller"},
	{"Zo", "Zoë-Müller"},
	{"Alex Kim", "Alex-Kim"},
	{"kim", "Alex-Kim"},
	{"Moreau", "Alex-Moreau"},
}

// TestEntityNamesResolveAlike: every spelling of a name names the same
// entity in Workspace.Entity, in Recall's Entities and in a question
// ("tell me about atlas"). `memoria entity "Project Atlas"` used to find
// no entity, and `--entity Atlas` none either.
func TestEntityNamesResolveAlike(t *testing.T) {
	t.Parallel()
	ws := open(t, namesWorkspace(t), nil)
	ctx := context.Background()
	for _, c := range nameSpellings {
		t.Run(c.name, func(t *testing.T) {
			rep, err := ws.Entity(ctx, c.name)
			if err != nil || !strings.EqualFold(rep.Slug, c.slug) {
				t.Errorf("Entity(%q): %v, %v; want %s", c.name, rep, err, c.slug)
			} else if rep.Slug != c.slug {
				t.Errorf("Entity(%q) spells the slug %q, want %q as written", c.name, rep.Slug, c.slug)
			}
			res, err := ws.Recall(ctx, "", memoria.RecallOptions{Now: now, Lexical: true, Entities: []string{c.name}})
			if err != nil || len(res) == 0 {
				t.Errorf("Recall with Entities %q: %v, %v", c.name, res, err)
			}
			for _, r := range res {
				if !containsFold(r.Entities, c.slug) {
					t.Errorf("Recall with Entities %q: %s is not about %s", c.name, r.Source, c.slug)
				}
			}
			q := "tell me about " + strings.TrimPrefix(c.name, "@")
			res, err = ws.Recall(ctx, q, memoria.RecallOptions{Now: now, Lexical: true, K: 3})
			if err != nil || len(res) == 0 || !containsFold(res[0].Entities, c.slug) {
				t.Errorf("%q: %v, %v; want a result about %s first", q, res, err, c.slug)
			}
		})
	}
}

func containsFold(list []string, s string) bool {
	return slices.ContainsFunc(list, func(x string) bool { return strings.EqualFold(x, s) })
}

// TestAmbiguousEntityName: a name two entities share names neither; the
// error lists both, in one line, for Entity and Recall alike, and an
// unknown name stays ErrUnknownEntity.
func TestAmbiguousEntityName(t *testing.T) {
	t.Parallel()
	ws := open(t, namesWorkspace(t), nil)
	ctx := context.Background()
	for _, name := range []string{"Alex", "alex", "ALEX"} {
		_, err := ws.Entity(ctx, name)
		checkAmbiguous(t, "Entity", name, err)
		_, err = ws.Recall(ctx, "budget", memoria.RecallOptions{Now: now, Lexical: true, Entities: []string{name}})
		checkAmbiguous(t, "Recall", name, err)
		if !errors.Is(err, memoria.ErrInvalid) {
			t.Errorf("Recall %q: %v does not wrap ErrInvalid", name, err)
		}
	}
	for _, name := range []string{"Nobody", "Atlantis"} {
		if _, err := ws.Entity(ctx, name); !errors.Is(err, memoria.ErrUnknownEntity) || errors.Is(err, memoria.ErrAmbiguousEntity) {
			t.Errorf("Entity(%q): %v, want ErrUnknownEntity", name, err)
		}
	}
	// In a question, the shared name names neither: the question is no
	// question about one of them.
	res, err := ws.Recall(ctx, "tell me about Alex", memoria.RecallOptions{Now: now, Lexical: true, K: 3, Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Explain != nil && r.Explain.Channels["entity"] > 0 {
			t.Errorf("tell me about Alex: %s came from the entity channel", r.Source)
		}
	}
}

func checkAmbiguous(t *testing.T, what, name string, err error) {
	t.Helper()
	msg := `entity "` + name + `" is ambiguous: Alex-Kim, Alex-Moreau; name one`
	if !errors.Is(err, memoria.ErrAmbiguousEntity) || errors.Is(err, memoria.ErrUnknownEntity) ||
		!strings.Contains(err.Error(), msg) || strings.Contains(err.Error(), "\n") {
		t.Errorf("%s(%q): %v, want ErrAmbiguousEntity saying %q", what, name, err, msg)
	}
}
