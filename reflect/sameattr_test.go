package reflect

import (
	"strings"
	"testing"

	"memoria/internal/testworkspace"
)

// TestStaleOnlyTheSameAttributeOfTheSameEntity: a curated line is struck
// only by a later fact about the same attribute of the same entity
// (issue 43, item 6). A relative's residence, said on the subject's page
// or in core memory, is not outdated by the subject's move; an attribute
// is not outdated by a change of another attribute of the same entity
// (the server's OS was upgraded: its backup schedule stands).
func TestStaleOnlyTheSameAttributeOfTheSameEntity(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		files  map[string]string
		log    string   // facts of memory/2026-05-10.md
		struck []string // lines that must be struck (file: text)
		kept   []string // lines that must stay byte for byte
	}{
		{"a relative's residence is not the subject's",
			map[string]string{
				"bank/entities/Peter.md": "# Peter\n\n- Lives in Salzburg, near the old town.\n- Thomas, Peter's older brother, lives in Graz.\n- His sister Anna lives in Linz with her family.\n",
				"memory.md":              "# Core\n\n- Thomas, Peter's older brother, lives in Graz.\n",
			},
			"- W @Peter: Moved to Vienna last month; the Salzburg flat is handed back.\n",
			[]string{"bank/entities/Peter.md: Lives in Salzburg, near the old town."},
			[]string{"bank/entities/Peter.md: - Thomas, Peter's older brother, lives in Graz.", "bank/entities/Peter.md: - His sister Anna lives in Linz with her family.", "proposals: Thomas"}},
		{"another attribute of the same entity",
			map[string]string{
				"bank/entities/Nas.md": "# Nas\n\n- Runs Debian 12 on a Synology box.\n- Backups run nightly at 02:00 to the Hetzner storage box.\n",
			},
			"- W @Nas: Upgraded to Debian 13 over the weekend; backups were paused during the upgrade.\n",
			[]string{"bank/entities/Nas.md: Runs Debian 12 on a Synology box."},
			[]string{"bank/entities/Nas.md: - Backups run nightly at 02:00 to the Hetzner storage box."}},
		{"another attribute: another lesson of the same child",
			map[string]string{
				"bank/entities/Ethan.md": "# Ethan\n\n- Maths tuition: Wednesdays 4.30pm to 6pm at Grove Learning Hub.\n- Chinese tuition: Saturdays 10am with Mdm Lee.\n",
			},
			"\nEthan's Chinese tuition with Mdm Lee is now on Sundays at 2pm, at the flat.\n",
			nil, // the Chinese tuition's own line keeps its teacher: not read as outdated either
			[]string{"bank/entities/Ethan.md: - Maths tuition: Wednesdays 4.30pm to 6pm at Grove Learning Hub."}},
		{"another attribute: the school's holidays are not the school",
			map[string]string{
				"bank/entities/Chloe.md": "# Chloe\n\n- School: Compassvale North Secondary, Sec 2.\n",
			},
			"\nSchool holidays from tomorrow till 23 Mar for Chloe.\n",
			nil,
			[]string{"bank/entities/Chloe.md: - School: Compassvale North Secondary, Sec 2."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for name, data := range tt.files {
				writeFile(t, dir, name, data)
			}
			writeFile(t, dir, "memory/2026-05-10.md", "# 2026-05-10\n\n## Retain\n"+tt.log)
			run(t, dir, Options{})
			files := testworkspace.Files(t, dir)
			lineOf := func(file, text string) string {
				for _, l := range strings.Split(files[file], "\n") {
					if strings.Contains(l, text) {
						return l
					}
				}
				return ""
			}
			for _, s := range tt.struck {
				file, text, _ := strings.Cut(s, ": ")
				if l := lineOf(file, text); !strings.Contains(l, "~~"+text) || !strings.Contains(l, StaleTag) {
					t.Errorf("%s: %q not struck: %q", file, text, l)
				}
			}
			for _, k := range tt.kept {
				file, text, _ := strings.Cut(k, ": ")
				if file == "proposals" {
					if p := files["review/core-proposals.md"]; strings.Contains(p, text) {
						t.Errorf("core proposal names %q:\n%s", text, p)
					}
					continue
				}
				if l := lineOf(file, strings.TrimPrefix(text, "- ")); l != text {
					t.Errorf("%s: %q changed to %q", file, text, l)
				}
			}
		})
	}
}
